/* Self-shadowing (plume_self_shadow_desc): the light-space opacity map a
 * system's draw builds before its path shades (render/self_shadow.c,
 * shaders/render/self_shadow_map.comp) and the draws' programs read
 * (shaders/render/self_shadow.glsl). Not part of the API. */
#ifndef PLUME_RENDER_SELF_SHADOW_H
#define PLUME_RENDER_SELF_SHADOW_H

#include "render/draw_path.h"

/* For a system with self_shadow on: the map for the view's light (the draw
 * sets view->light first) built from the last update's drawn particles and
 * bound at PLUME_BINDING_SELF_SHADOW (saved by the draw's scope as
 * PLUME_SCOPE_OPTIONAL_SSBO), its GL
 * objects made at the first call (an attachment of the system). Off: does
 * nothing and returns PLUME_OK. */
plume_result self_shadow_prepare(const particle_view *view);

/* Bytes of the map of a resolved descriptor (0: off). */
size_t self_shadow_map_bytes(const plume_system_desc *desc);

#endif
