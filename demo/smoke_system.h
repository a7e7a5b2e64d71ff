/* The demo's smoke column: the only place in the demo that calls the plume
 * module, so an API change touches this file alone. Everything here runs on
 * the thread where the GL context is current. */
#ifndef DEMO_SMOKE_SYSTEM_H
#define DEMO_SMOKE_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_effect.h"
#include "plume/plume_particles.h"
#include "plume/plume_profile.h"

typedef struct smoke_system smoke_system;

typedef struct smoke_settings {
    uint32_t capacity;          /* the most particles alive; the spawn rate keeps about this many */
    const char *texture_path;   /* the 4x4 smoke-puff flipbook */
    const char *motion_path;    /* its motion vectors (plume_flipbook_motion), NULL: none */
    float emitter_position[3];  /* where the column starts (the chimney's top) */
    uint32_t seed;
    uint32_t builtin;           /* a demo_effect: the smoke column or the grinder's sparks */
    float grinder_position[3];  /* where the sparks start */
    /* An effect file's system instead of the built-in column (NULL: the
     * column); `capacity` then scales it (see smoke_system_set_capacity), 0
     * keeps the file's. Copied: it need not outlive the call. */
    const plume_effect *effect;
    /* The other systems of the effect file (plume_effect_group: systems 1
     * and on; `effect` is its first), at their files' capacities, updated
     * and drawn with it: opaque meshes first, then the first system, then
     * the rest in the file's order. Made at create: they need not outlive it. */
    const plume_effect *companions;
    uint32_t companion_count;
    /* The tiled draw path's tile size and chunk entries (0: the module's
     * defaults), for each system made: plume_system_set_tiled_options. */
    uint32_t tile_size, chunk_entries;
    bool unlit;                 /* the column unlit: the default look */
    bool no_self_shadow;        /* the column lit without self-shadowing (the fragment path has none) */
    /* A fire at the chimney's mouth (a second system), and whether the two
     * are drawn by one draw group (plume_draw_group.h) in one back-to-front
     * order, or one after the other (the fire first). */
    bool fire, joint;
    uint32_t gpu_path;          /* plume_system_desc.path: a plume_gpu_path */
} smoke_settings;

typedef struct smoke_frame {
    float dt;                   /* seconds; 0 while paused (the particles are still re-sorted) */
    float view[16];             /* cglm mat4 layout */
    float projection[16];
    bool sort;                  /* false: drawn in the GPU's order */
    uint32_t depth_texture;     /* the scene's depth for the soft fade */
    int32_t width, height;      /* of the framebuffer the depth texture covers */
    uint32_t resolution;        /* plume_draw_resolution of the draw */
    uint32_t path;              /* plume_draw_path of the draw */
    uint32_t quality;           /* plume_draw_quality of an automatic draw */
    float light_direction[3];   /* the scene's light, for lit effects (plume_frame_desc) */
    float light_color[3];
    float ambient_color[3];
} smoke_frame;

/* The module's frame descriptor of `frame` (the demo's other systems use it too). */
plume_frame_desc smoke_frame_desc(const smoke_frame *frame);

/* Creates the system with profiling on (logs the module's message and
 * returns false on failure). */
bool smoke_system_create(const smoke_settings *settings, smoke_system **out);
void smoke_system_destroy(smoke_system *smoke);
/* Replaces the system by one of another capacity (the old one is kept if the
 * new one cannot be made). An effect's emitters then emit in proportion:
 * rates and burst counts scaled by the new capacity over the file's. */
bool smoke_system_set_capacity(smoke_system *smoke, uint32_t capacity);
uint32_t smoke_system_capacity(const smoke_system *smoke);
/* Seconds the system on show's particles live at most (of its emitters'
 * lifetimes): the demo's steady state waits that long. */
double smoke_system_longest_lifetime(const smoke_system *smoke);
/* Replaces the system by one built from `effect` (NULL: the built-in
 * column), at the current capacity if the system was scaled, else the
 * effect's. The old one stays if the new one cannot be made; then
 * smoke_system_last_error() says why. */
bool smoke_system_use_effect(smoke_system *smoke, const plume_effect *effect);
/* As smoke_system_use_effect with an effect file's `count` systems: the
 * first on show, the others its companions (smoke_settings.companions);
 * nothing changes if any cannot be made. */
bool smoke_system_use_group(smoke_system *smoke, const plume_effect *effects, uint32_t count);
/* The companions' GPU means over the profile's window, summed over them, ms
 * a frame by stage (plume_stage); returns how many companions there are. */
uint32_t smoke_system_companion_gpu_ms(const smoke_system *smoke, double out[PLUME_STAGE_COUNT]);
/* The module's last error message ("" if none since the last success). */
const char *smoke_system_last_error(const smoke_system *smoke);
/* Writes the descriptor on show as an effect file (see plume_effect_save). */
bool smoke_system_save(const smoke_system *smoke, const char *path, plume_effect_error *error);

bool smoke_system_update(smoke_system *smoke, const smoke_frame *frame);
bool smoke_system_draw(smoke_system *smoke, const smoke_frame *frame);
/* The lights of the fire (with settings.fire) and of the system on show
 * (plume_system_write_lights), after the update; wrote[k] says whether
 * source k wrote (no fire, or the fragment path: nothing written). */
bool smoke_system_write_lights(smoke_system *smoke, const plume_lights_desc *fire, const plume_lights_desc *shown,
                               bool wrote[2]);
bool smoke_system_reset(smoke_system *smoke);
/* With a fire: one draw group for fire and smoke (true), or one draw each.
 * The group draws with the raster path whatever the frame's path. */
void smoke_system_set_joint(smoke_system *smoke, bool joint);
bool smoke_system_joint(const smoke_system *smoke);

/* The module's profile: GPU times of the last completed frame (a few frames
 * behind) and statistics over the last 120, the live count of that frame.
 * False when profiling could not be switched on. */
bool smoke_system_get_profile(const smoke_system *smoke, plume_profile *out);
/* Completed frames with an update index (counted from the system's
 * creation) of at least `first_frame`, oldest first; returns how many. */
/* The draw group's profile (--fire, drawn jointly): its gather and sort, its
 * draw. False without a group or its profiling. */
bool smoke_system_get_group_profile(const smoke_system *smoke, plume_profile *out);
uint32_t smoke_system_frame_profiles(const smoke_system *smoke, uint64_t first_frame, plume_frame_profile *out,
                                     uint32_t max);

/* Which sort the last update ran: "bitonic", "radix" or "none" (sorting off). */
const char *smoke_system_sort_name(const smoke_system *smoke);

/* Live particles now, read back synchronously (waits for the GPU: not for
 * every frame). */
uint32_t smoke_system_count_live(smoke_system *smoke);

#endif
