/* The soak (bench/soak.c): what its parts share. One random, seeded stream of
 * host operations is drawn once and applied to every lane: a lane is a GL
 * context of its own with its own plume_context, offscreen targets and
 * counters, so two lanes given the same operations must read back the same
 * particles (the determinism check), and each lane's GL errors, GL objects
 * and memory are checked on their own. */
#ifndef PLUME_BENCH_SOAK_H
#define PLUME_BENCH_SOAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <epoxy/gl.h>

#include "../host/headless_gl.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_effect.h"
#include "plume/plume_particles.h"

enum {
    SOAK_MAX_LANES = 2,
    SOAK_MAX_SYSTEMS = 10,
    SOAK_MAX_GROUPS = 3,
    SOAK_MAX_EFFECTS = 32,
    SOAK_MESSAGE = 512
};

typedef struct soak_options {
    uint64_t seed;
    uint64_t frames;        /* 0: until `seconds` have passed */
    double seconds;
    uint32_t check_every;   /* frames between checkpoints */
    uint32_t drain_every;   /* checkpoints between drains (everything destroyed) */
    uint32_t max_capacity;
    int max_width, max_height;
    int lanes;
    double rss_growth;      /* allowed growth of the RSS over the run's second half, a fraction */
    double rss_slack_mib;   /* and in MiB on top */
    const char *effects_dir;
    const char *sprite;     /* an image file for textured looks */
    bool verbose;
    bool no_gameplay;       /* leave the gameplay calls out of the stream */
    bool raster_only;       /* every draw on the raster path (the stream unchanged) */
    bool poison;            /* every new buffer of lane l filled with noise of its own */
    bool print_readbacks;   /* a line per readback: frame, object, lane 0's checksum and its parts */
} soak_options;

/* splitmix64: the operation stream's only source of randomness. */
typedef struct soak_rng {
    uint64_t state;
} soak_rng;

uint32_t soak_rand(soak_rng *rng);
uint32_t soak_below(soak_rng *rng, uint32_t n); /* 0 .. n - 1 */
float soak_uniform(soak_rng *rng, float lo, float hi);
bool soak_chance(soak_rng *rng, float p);

/* What one lane has seen through its callbacks. */
typedef struct soak_counters {
    size_t live_bytes, peak_bytes;
    uint64_t allocations;
    uint32_t log_errors, log_warnings, debug_errors;
    char last_log_error[SOAK_MESSAGE], last_debug_error[SOAK_MESSAGE];
} soak_counters;

typedef struct soak_lane {
    int index;
    headless_gl gl;
    plume_context *context;
    soak_counters counters;
    size_t base_bytes;            /* the empty context's */
    GLuint scene_framebuffer;     /* the depth texture alone, to clear it */
    GLuint draw_framebuffer;      /* colour only: the particles' target */
    GLuint color, depth;
    int texture_width, texture_height;
    GLuint vector_field;          /* a 3D texture for worlds' vector fields */
    plume_system systems[SOAK_MAX_SYSTEMS];
    plume_draw_group groups[SOAK_MAX_GROUPS];
} soak_lane;

/* A system slot as the operation stream knows it (the same in every lane). */
typedef struct soak_system_slot {
    bool live;
    uint32_t capacity;
    bool compute;        /* the compute path: groups and worlds */
    bool sprite_file;    /* a sprite of the --sprite file (groups need sprites of one size) */
    bool own_sprite;     /* an effect's sprite: never grouped */
    bool drew_tiled;     /* set_tiled_options is refused after the first tiled draw */
    bool profiling;
    bool grouped;
    bool cpu_events;     /* created with cpu_events.kinds: polls answer */
    char what[120];      /* its descriptor in a few words, for a failure's message */
} soak_system_slot;

typedef struct soak_group_slot {
    bool live;
    uint32_t members;    /* bit s: system slot s */
} soak_group_slot;

/* Series of values at checkpoints, for the flatness rules. */
typedef struct soak_series {
    double *values;
    uint32_t count, room;
} soak_series;

typedef struct soak_stats {
    uint64_t frames, operations, creates, destroys, failed_loads, readbacks, checkpoints, drains, gameplay_calls;
    uint32_t peak_gl_objects, final_gl_objects;
    size_t peak_live_bytes;
    soak_series drain_gl_objects, drain_live_bytes, rss_mib;
    uint64_t digest;     /* lane 0's readbacks hashed in order: equal runs, equal digests */
} soak_stats;

typedef struct soak {
    soak_options options;
    soak_rng rng;
    soak_lane lanes[SOAK_MAX_LANES];
    soak_system_slot systems[SOAK_MAX_SYSTEMS];
    soak_group_slot groups[SOAK_MAX_GROUPS];
    char effects[SOAK_MAX_EFFECTS][PLUME_EFFECT_PATH_MAX];
    int effect_count;
    /* the host's frame */
    int width, height;   /* the viewport; 0x0: minimised */
    bool reversed_depth, has_clip_control;
    float time;
    uint64_t frame;
    soak_stats stats;
    bool failed;
    char failure[SOAK_MESSAGE * 2];
} soak;

/* The first failure stops the run; later ones are not recorded. */
void soak_fail(soak *s, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* soak_lane.c: a lane's GL context, targets and counting callbacks. */
bool soak_lane_create(soak *s, soak_lane *lane, int index);
/* The lane's plume_context, made (again) with the counting callbacks. */
bool soak_lane_make_context(soak *s, soak_lane *lane);
void soak_lane_destroy(soak_lane *lane);
void soak_lane_current(const soak_lane *lane);
void soak_lane_resize(soak *s, soak_lane *lane);
/* Before and after a call into plume: the call's result against what was
 * expected, with one logged error for an error and none for PLUME_OK, and no
 * GL error (glGetError and the KHR_debug callback). */
typedef struct soak_mark {
    soak_counters before;
} soak_mark;
soak_mark soak_mark_now(const soak_lane *lane);
bool soak_expect(soak *s, soak_lane *lane, soak_mark mark, plume_result result, plume_result expected,
                 const char *what);
/* The GL objects the lane's context lists now (NULL out: only the count). */
uint32_t soak_list_gl_objects(soak *s, soak_lane *lane, plume_gl_object **out);
/* Every name in `before` missing from `after` must be deleted in the GL. */
bool soak_check_deleted(soak *s, soak_lane *lane, const plume_gl_object *before, uint32_t before_count,
                        const plume_gl_object *after, uint32_t after_count, const char *what);
double soak_rss_mib(void);

/* soak_ops.c: the operations. */
void soak_random_system_desc(soak *s, plume_system_desc *desc, soak_system_slot *slot);
void soak_random_operation(soak *s);
void soak_frame(soak *s);
void soak_destroy_system(soak *s, int slot);
/* A live system slot, or -1 (when `compute`, of the compute path only). */
int soak_random_live_system(soak *s, bool compute);

/* soak_gameplay.c: emits, placements, instances, prewarm, events, bounds. */
void soak_random_gameplay_desc(soak *s, plume_system_desc *desc, soak_system_slot *slot);
void soak_gameplay_operation(soak *s);
void soak_destroy_group(soak *s, int slot);
/* Reads every live system back in every lane and compares the lanes. */
void soak_read_back_all(soak *s);

void soak_series_add(soak_series *series, double value);
void soak_series_free(soak_series *series);
double soak_series_max(const soak_series *series, uint32_t first, uint32_t end);

#endif
