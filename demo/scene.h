/* The opaque scene the smoke rises through: a ground plane, a chimney the
 * column comes out of, crates, a pillar and spheres, lit by a sun and a sky
 * (diffuse only), fogged into the sky colour with distance. */
#ifndef DEMO_SCENE_H
#define DEMO_SCENE_H

#include <stdbool.h>

#include <plume/plume_particles.h>

typedef struct scene scene;

bool scene_create(scene **out);
void scene_destroy(scene *s);

/* Draws into the bound framebuffer (depth test and writes on, clears
 * nothing). `view_projection` is a cglm mat4; `eye` the camera position. */
void scene_draw(const scene *s, const float view_projection[16], const float eye[3]);

/* Point lights from particles (plume_system_write_lights): the scene's
 * buffer holds SCENE_LIGHT_SOURCES ranges (0: the fire, 1: the system on
 * show), each up to SCENE_LIGHTS_PER_SOURCE lights that light every object.
 * scene_light_range: where source `source` writes (buffer, offset,
 * max_lights; the caller adds its intensity and radius); scene_clear_lights:
 * that source lights nothing (its count 0). */
enum { SCENE_LIGHT_SOURCES = 2, SCENE_LIGHTS_PER_SOURCE = 16 };
plume_lights_desc scene_light_range(const scene *s, int source);
void scene_clear_lights(const scene *s, int source);

/* Night (true) or day (false, the default) for every scene: the sky, the
 * sun and what lit particles are lit by (scene_light). */
void scene_use_night(bool night);

/* The sky / fog colour (linear), for clearing. */
void scene_sky_color(float out_rgb[3]);
/* The scene's sun (the direction towards it, its colour) and the ambient
 * light a vertical surface gets: what lit particles are lit by. */
void scene_light(float to_sun[3], float sun[3], float ambient[3]);
/* The nearest object a ray from `origin` along the unit `direction` meets:
 * the point and the surface's unit normal there; false when it meets none. */
bool scene_ray_hit(const float origin[3], const float direction[3], float out_point[3], float out_normal[3]);
/* The pillar: the centre of its foot on the ground and its height. */
void scene_pillar(float out_base[3], float *out_height);
/* Where the smoke leaves the chimney. */
void scene_chimney_top(float out[3]);

#endif
