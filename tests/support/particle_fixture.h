/* What the particle system's test files share: systems made and read back
 * in the test's context, frames, cameras, the busy and overlapping
 * descriptors, and a reference run to compare several systems with.
 * Compiled into plume_tests and, through tests/plugin_host/, into
 * plume_plugin_host. */
#ifndef PLUME_PARTICLE_FIXTURE_H
#define PLUME_PARTICLE_FIXTURE_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"

typedef struct run_result {
    uint32_t live_count, emitted_total;
    plume_particle *in_draw_order; /* live_count particles */
} run_result;

/* Random steps and camera, and what a busy system of a random seed gives for
 * them running alone: what the tests of several systems compare with. */
enum { MAX_REFERENCE_STEPS = 60 };

typedef struct reference_run {
    int steps;
    float dts[MAX_REFERENCE_STEPS];
    mat4 view, projection;
    uint32_t seed;
    run_result alone;
} reference_run;

enum { IMAGE_SIZE = 64 };

enum { POISON_BYTE = 0xAB };

/* In the test's context, whose logger the system inherits. */
plume_system make_system(plume_system_desc desc);

plume_system_desc system_desc(plume_context *context, plume_system system);

void destroy_system(plume_system system);

/* Everything the readback can give, in poisoned arrays so unwritten entries
 * show. */
plume_readback read_all(plume_context *context, plume_system system);

void free_readback(plume_readback *rb);

/* The same live particles (every live slot), draw order and keys, dead list
 * and counts in `a` and `b`, else a failure naming `which`; returns the
 * live count. */
uint32_t assert_same_live_particles(plume_context *context_a, plume_system a, plume_context *context_b,
                                    plume_system b, const char *which);

/* Every record both polls of events to the CPU deliver (up to 4096), the same. */
void assert_same_events(plume_context *context, plume_system a, plume_system b);
/* The live particle with emission number `id`, or NULL. */
const plume_particle *find_by_id(const plume_readback *rb, uint32_t id);

/* Without culling: these tests find every live particle in the draw list
 * (culling has tests of its own). */
plume_frame_desc make_frame(float dt, mat4 view, mat4 projection);

void update(plume_system system, const plume_frame_desc *frame);

/* A random unit vector. */
void random_direction(float out[3]);

void check_slots_partition(const plume_readback *rb, uint32_t capacity, int frame);

void random_camera(mat4 view, mat4 projection);

plume_system_desc busy_desc(uint32_t seed);

/* Whether the run forces the fragment path (PLUME_TEST_PATH), where a test
 * of compute-path parts has nothing to check: says so, and why (`why`). */
bool compute_path_forced_off(const char *why);

/* The live particles of a readback in draw order (frees the readback). */
run_result result_of(plume_readback *rb);

run_result run_steps(plume_system system, const float *dts, int steps, mat4 view, mat4 projection);

/* Identical particles in identical draw order (slots may differ: they are
 * not part of plume_particle). */
bool same_run(const run_result *a, const run_result *b);

void make_reference_run(reference_run *r, int steps);

void ortho_camera(mat4 view, mat4 projection);

/* Overlapping translucent squares flying toward the camera, so the oldest
 * are in front: the emission order is front to back, the wrong one. */
plume_system_desc overlap_desc(uint32_t seed);

/* A depth texture holding a plane at view depth `plane` for `projection`,
 * in the clip depth mode the GL is in (glClipControl). */
GLuint plane_depth_texture(mat4 projection, float plane);

/* ---- Depth conventions ----
 * The host's depth as reverse-Z engines set it (reversed true): clip
 * control's GL_ZERO_TO_ONE, depth cleared to 0, GL_GEQUAL; or the GL's
 * defaults (-1..1, cleared to 1, GL_LESS). fixture_teardown puts the
 * defaults back. */
void set_host_depth_convention(bool reversed);
/* Either half of it alone: clip control's depth mode, and the depth test
 * and clear of a reversed (near at the larger depth) or standard depth. */
void set_host_depth_mode(bool zero_to_one, bool reversed);
/* `projection` (a GL one: near at NDC -1, far at 1) mapped to the depth mode
 * and direction set_host_depth_mode names. */
void convert_projection_depth(mat4 projection, bool zero_to_one, bool reversed);
/* `projection` (a GL one: near at NDC -1, far at 1) with its depth reversed
 * for clip control's 0..1: near at 1, far at 0. */
void reverse_projection_depth(mat4 projection);
/* A perspective projection with the far plane at infinity and reversed
 * depth for clip control's 0..1 (near at 1, infinitely far at 0). */
void infinite_reversed_perspective(float fovy, float aspect, float near, mat4 out);

/* 16x16 RGBA8, 2x2 frames of 8x8: red, green (top row), blue, half-transparent
 * white (bottom row); rows from the top. */
unsigned char *flipbook_pixels(void);

/* The tests' own evaluation of a curve and a gradient (piecewise linear,
 * holding the first and last keys' values; no keys: the constant 1). */
double curve_at(const plume_curve *curve, double t);
void gradient_at(const plume_gradient *g, double t, double rgba[4]);

#endif
