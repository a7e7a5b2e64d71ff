/* The particle system's insides, shared by its source files. Not part of the
 * API. */
#ifndef PLUME_PARTICLES_INTERNAL_H
#define PLUME_PARTICLES_INTERNAL_H

#include "plume/plume_particles.h"
#include "plume/plume_profile.h"
#include "plume/plume_sort.h"
#include "plume_internal.h"
#include "profiler.h"

/* Byte layout of the state buffer (SystemState in shaders/particle_state.glsl).
 * Its head is the DrawArraysIndirectCommand of the draw, whose instance count
 * is the live counter the simulate pass appends with; then the dead-list
 * counter and the emission bookkeeping; then the dead list itself. */
enum {
    STATE_DRAW_ARGS_OFFSET = 0,      /* {6 vertices, live count, 0, 0} */
    STATE_LIVE_COUNT_OFFSET = 4,
    STATE_DEAD_COUNT_OFFSET = 16,
    STATE_EMITTED_TOTAL_OFFSET = 28,
    STATE_HEADER_BYTES = 64,
    MOTION_BYTES = 32,               /* std430 ParticleMotion: position, age, velocity, lifetime */
    TRAITS_BYTES = 16,               /* std430 ParticleTraits: size, rotation at birth, spin, id */
    PAIR_BYTES = 8,
    EMITTER_GPU_FLOATS = 24,         /* std430 Emitter: six vec4 */
    SIMULATE_GROUP_SIZE = 256,       /* the local sizes of the compute passes */
    EMIT_GROUP_SIZE = 64,
    RESET_GROUP_SIZE = 256
};

/* Time and fractions the CPU keeps per emitter to turn rates and bursts into
 * a count per update. Only counts go to the GPU, never slots. */
typedef struct emitter_clock {
    double time;      /* seconds since creation or reset */
    double fraction;  /* rate * dt left over from earlier updates, 0 .. 1 */
} emitter_clock;

/* Particles requested in one update (or, merged, several), and when. Every
 * live particle was requested within the longest lifetime in effect, so the
 * records of that window bound the live count from above without reading
 * anything back; the sort is then sized by that bound. */
enum { EMISSION_RECORDS = 64 };

typedef struct emission_record {
    double time;       /* start of the update that requested them */
    uint64_t count;
} emission_record;

typedef struct emission_window {
    emission_record records[EMISSION_RECORDS]; /* a ring, oldest at `first` */
    uint32_t first, count;
    double longest_lifetime; /* over every emitter in effect since creation or reset */
} emission_window;

typedef struct draw_locations {
    GLint view, projection, inverse_projection, camera_right, camera_up;
    GLint has_texture, flipbook, frame_blend, soft_fade_distance, viewport_size;
} draw_locations;

typedef struct simulate_locations {
    GLint dt, time, view, gravity, wind, drag, turbulence, capacity;
} simulate_locations;

/* What a plume_system handle names. */
typedef struct system_state {
    plume_env env;
    plume_system_desc desc;  /* defaults filled in; texture pointers cleared */
    /* The context the system is filed in: its sorter is filed there too (so
     * the context lists the sorter's GL objects and, destroying a forgotten
     * system, frees its sorter through the system), and freeing the system
     * destroys the sorter through it. */
    plume_context *context;
    plume_sorter sorter;

    GLuint reset_program, prepare_program, emit_program, simulate_program, draw_program;
    GLint reset_capacity_location, prepare_requested_location;
    GLint emit_seed_location, emit_end_location;
    simulate_locations simulate;
    draw_locations draw;

    GLuint motion_buffer;    /* capacity ParticleMotions: what simulate reads and writes */
    GLuint traits_buffer;    /* capacity ParticleTraits: fixed at birth */
    GLuint live_list_buffer; /* capacity {depth key, slot} pairs: this update's survivors, sorted */
    GLuint state_buffer;     /* see the STATE_* layout */
    GLuint emitter_buffer;   /* PLUME_MAX_EMITTERS Emitters */
    GLuint vertex_array;     /* empty: the draw pulls its vertices from SSBOs */
    GLuint sprite_texture;   /* 0: no texture */
    GLuint sprite_sampler, depth_sampler;

    emitter_clock clocks[PLUME_MAX_EMITTERS];
    emission_window window;
    double time;             /* seconds since creation or reset (the noise's clock) */
    /* Wraps each GPU stage of update and draw (PLUME_STAGE_UPDATE encloses
     * SIMULATE and SORT); switched off it makes no GL call. */
    plume_profiler *profiler;
    uint64_t update_count;   /* the profiler's frame index */
} system_state;

/* ---- particles_desc.c: defaults and validation (no GL) ---- */

/* Copies `in` with defaults filled into `out`, checking every field; logs one
 * message naming the first bad field (prefixed by `caller`). */
plume_result plume_particles_resolve_desc(const plume_env *env, const char *caller, const plume_system_desc *in,
                                          plume_system_desc *out);
plume_result plume_particles_resolve_emitter(const plume_env *env, const char *caller, uint32_t index,
                                             const plume_emitter_desc *in, plume_emitter_desc *out);
plume_result plume_particles_resolve_forces(const plume_env *env, const char *caller, const plume_forces *in,
                                            plume_forces *out);

/* ---- particles_texture.c ---- */

/* Loads the sprite (file or pixels), premultiplies its alpha and uploads it
 * with mipmaps. No texture described: *out_texture = 0 and PLUME_OK. Fills
 * *width / *height with the image's size. Restores the GL state it uses. */
plume_result plume_particles_load_texture(const plume_env *env, const plume_texture_desc *texture,
                                          GLuint *out_texture, uint32_t *width, uint32_t *height);

#endif
