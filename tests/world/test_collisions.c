/* Collisions (plume_world, since 1.2): against planes, spheres and boxes a
 * particle never ends inside the solid, whatever its speed and step; the
 * responses (restitution, Coulomb friction, rest speed, stick, kill) against
 * their closed forms; and the depth buffer of a rendered box. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* The live particles, in slot order of the draw list. */
static plume_readback read_live(plume_system system) { return read_all(fixture_context(), system); }

#define FOR_LIVE(rb, p) \
    for (uint32_t live_index_ = 0; live_index_ < (rb).live_count; ++live_index_) \
        for (const plume_particle *p = &(rb).particles[(rb).draw_order[live_index_]]; p; p = NULL)

/* ---- Never inside ------------------------------------------------------------- */

/* Whether the segment a..b passes through the inside of the box lo..hi. */
static bool segment_crosses_box(const float *a, const float *b, const float *lo, const float *hi) {
    double enter = 0, leave = 1;
    for (int i = 0; i < 3; ++i) {
        double d = (double)b[i] - a[i];
        if (d == 0) {
            if (a[i] <= lo[i] || a[i] >= hi[i]) return false;
            continue;
        }
        double t0 = (lo[i] - a[i]) / d, t1 = (hi[i] - a[i]) / d;
        if (t0 > t1) { double t = t0; t0 = t1; t1 = t; }
        if (t0 > enter) enter = t0;
        if (t1 < leave) leave = t1;
    }
    return enter < leave;
}

/* Whether the segment a..b comes within `radius` of `centre`. */
static bool segment_crosses_ball(const float *a, const float *b, const float *centre, float radius) {
    double d[3], m[3], dd = 0, md = 0;
    for (int i = 0; i < 3; ++i) d[i] = (double)b[i] - a[i], m[i] = (double)a[i] - centre[i], dd += d[i] * d[i], md += m[i] * d[i];
    double t = dd > 0 ? -md / dd : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double distance = 0;
    for (int i = 0; i < 3; ++i) distance += (m[i] + t * d[i]) * (m[i] + t * d[i]);
    return sqrt(distance) < radius;
}

/* Particles thrown in every direction at up to 300 units/s, under strong
 * gravity, over steps up to 0.25 s: after every step none is behind the
 * floor plane or a tilted plane, inside the solid ball or box (a step moves
 * up to 75 units, far more than their size: the swept test), or outside
 * the container ball round everything. Random restitution and friction per
 * run; thousands of steps in all. */
static void test_particles_never_end_inside_a_collider(void **state) {
    (void)state;
    enum { RUNS = 3, STEPS = 450 };
    int checked_steps = 0;
    for (int run = 0; run < RUNS; ++run) {
        plume_system_desc desc = {.capacity = 600, .seed = test_random_u32()};
        desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {0, 3, 0}, .extents = {1.5f},
                                                .spread = 3.1415926f, .speed = {0, 300}, .rate = 400,
                                                .lifetime = {2, 6}};
        desc.forces.gravity[1] = -test_random_float(5, 60);
        plume_collision_desc bounce = {.restitution = test_random_float(0, 1), .friction = test_random_float(0, 1),
                                       .rest_speed = test_random_float(0, 0.5f)};
        plume_world *w = &desc.world;
        w->colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = bounce};
        w->colliders[1] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .position = {6, 0, 0},
                                                .normal = {-1, 0.3f, 0}, .collision = bounce};
        w->colliders[2] = (plume_collider_desc){.shape = PLUME_COLLIDER_SPHERE, .position = {-3, 1, 0}, .radius = 0.7f,
                                                .collision = bounce};
        w->colliders[3] = (plume_collider_desc){.shape = PLUME_COLLIDER_BOX, .position = {0, 0.5f, -3},
                                                .extents = {1, 0.5f, 0.05f}, .collision = bounce};
        w->colliders[4] = (plume_collider_desc){.shape = PLUME_COLLIDER_SPHERE, .radius = 20, .inside = true,
                                                .collision = bounce};
        printf("  run %d: gravity %.1f, restitution %.2f, friction %.2f, rest speed %.2f\n", run,
               desc.forces.gravity[1], bounce.restitution, bounce.friction, bounce.rest_speed);
        plume_system system = make_system(desc);
        const float n1[3] = {-1 / sqrtf(1.09f), 0.3f / sqrtf(1.09f), 0};
        /* Slightly inside the solids: a step's path must not cross them. */
        const float box_lo[3] = {-1 + 1e-3f, 1e-3f, -3.05f + 1e-3f}, box_hi[3] = {1 - 1e-3f, 1 - 1e-3f, -2.95f - 1e-3f};
        const float ball_centre[3] = {-3, 1, 0};
        plume_readback previous = {0};
        bool have_previous = false;
        int crossings_checked = 0;
        for (int step = 0; step < STEPS; ++step) {
            float dt = test_random_below(4) == 0 ? test_random_float(0.1f, 0.25f) : test_random_float(0.001f, 0.04f);
            plume_frame_desc frame = make_frame(dt, NULL, NULL);
            update(system, &frame);
            if (step % 9 != 0 && step > 40) { /* every step early, then every 9th */
                if (have_previous) free_readback(&previous);
                have_previous = false;
                continue;
            }
            plume_readback rb = read_live(system);
            ++checked_steps;
            FOR_LIVE(rb, p) {
                const float *x = p->position;
                float plane0 = x[1], plane1 = (x[0] - 6) * n1[0] + x[1] * n1[1];
                float ball = sqrtf((x[0] + 3) * (x[0] + 3) + (x[1] - 1) * (x[1] - 1) + x[2] * x[2]);
                bool in_box = fabsf(x[0]) < 1 && fabsf(x[1] - 0.5f) < 0.5f && fabsf(x[2] + 3) < 0.05f;
                /* In front of the container's wall by its skin (at least
                 * 1.25e-3 on this ball), so that no rounding of the host's
                 * puts it outside. */
                float container = sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
                if (!(plane0 >= 0) || !(plane1 >= 0) || !(ball >= 0.7f) || in_box || !(container <= 20 - 1e-3f))
                    fail_msg("run %d step %d: particle %u at (%g, %g, %g): floor %g, tilted %g, ball %g, in box %d, "
                             "container %g",
                             run, step, p->id, x[0], x[1], x[2], plane0, plane1, ball, in_box, container);
                const plume_particle *before = have_previous ? find_by_id(&previous, p->id) : NULL;
                if (!before) continue;
                ++crossings_checked;
                if (segment_crosses_box(before->position, x, box_lo, box_hi) ||
                    segment_crosses_ball(before->position, x, ball_centre, 0.7f - 1e-3f))
                    fail_msg("run %d step %d: particle %u went through a solid from (%g, %g, %g) to (%g, %g, %g)",
                             run, step, p->id, before->position[0], before->position[1], before->position[2], x[0],
                             x[1], x[2]);
            }
            if (have_previous) free_readback(&previous);
            previous = rb;
            have_previous = true;
        }
        if (have_previous) free_readback(&previous);
        printf("  run %d: %d steps of particles' paths checked against the ball and the thin box\n", run,
               crossings_checked);
        destroy_system(system);
    }
    printf("  %d steps checked\n", checked_steps);
}

/* ---- Responses ---------------------------------------------------------------- */

/* One particle per emitter, straight down at its own speed, no gravity. */
static plume_system_desc falling_desc(const float *speeds, int count, plume_collision_desc collision) {
    plume_system_desc desc = {.capacity = 64, .seed = test_random_u32()};
    for (int e = 0; e < count; ++e)
        desc.emitters[e] = (plume_emitter_desc){.position = {(float)e, 1, 0}, .direction = {0.3f, -1, 0.2f},
                                                .speed = {speeds[e], speeds[e]}, .burst_count = 1,
                                                .lifetime = {100, 100}};
    desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = collision};
    return desc;
}

/* Restitution 0.5 halves the normal speed and keeps the tangential one
 * (friction 0), for speeds from 1 to 1000 units/s. */
static void test_restitution_halves_the_normal_speed(void **state) {
    (void)state;
    const float speeds[8] = {1, 3, 10, 30, 100, 300, 700, 1000};
    plume_system system = make_system(falling_desc(speeds, 8, (plume_collision_desc){.restitution = 0.5f}));
    plume_frame_desc frame = make_frame(1.0f / 60, NULL, NULL);
    for (int step = 0; step < 90; ++step) update(system, &frame);
    plume_readback rb = read_live(system);
    assert_int_equal(rb.live_count, 8);
    FOR_LIVE(rb, p) {
        float length = sqrtf(0.09f + 1 + 0.04f), speed = p->velocity[0] * length / 0.3f;
        float normal_in = speed / length; /* the downward speed it hit with */
        if (fabsf(p->velocity[1] - 0.5f * normal_in) > 1e-5f * normal_in ||
            fabsf(p->velocity[0] - 0.3f * normal_in) > 1e-5f * normal_in || !(p->position[1] >= 0))
            fail_msg("particle %u: velocity (%g, %g, %g), expected normal %g out", p->id, p->velocity[0],
                     p->velocity[1], p->velocity[2], 0.5f * normal_in);
    }
    free_readback(&rb);
    destroy_system(system);
}

/* A particle sliding on a plane under gravity g with Coulomb friction mu
 * slows by mu g per second; without friction it keeps its speed. */
static void test_friction_slows_the_tangent(void **state) {
    (void)state;
    const float g = 10, start = 4, dt = 1.0f / 60;
    const float frictions[3] = {0, 0.1f, 0.25f};
    for (int f = 0; f < 3; ++f) {
        plume_system_desc desc = {.capacity = 16, .seed = test_random_u32()};
        desc.emitters[0] = (plume_emitter_desc){.position = {0, 0.001f, 0}, .direction = {1, 0, 0},
                                                .speed = {start, start}, .burst_count = 1, .lifetime = {100, 100}};
        desc.forces.gravity[1] = -g;
        desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE,
                                                        .collision = {.friction = frictions[f]}};
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(dt, NULL, NULL);
        for (int step = 0; step < 60; ++step) update(system, &frame);
        plume_readback rb = read_live(system);
        assert_int_equal(rb.live_count, 1);
        const plume_particle *p = &rb.particles[rb.draw_order[0]];
        float expected = start - frictions[f] * g * 1.0f;
        printf("  friction %.2f: tangential speed %.4f after 1 s (Coulomb: %.4f)\n", frictions[f], p->velocity[0],
               expected);
        if (fabsf(p->velocity[0] - expected) > 0.05f || fabsf(p->velocity[1]) > g * dt * 1.01f ||
            !(p->position[1] >= 0) || p->position[1] > 0.01f)
            fail_msg("friction %g: velocity (%g, %g), height %g; expected speed %g", frictions[f], p->velocity[0],
                     p->velocity[1], p->position[1], expected);
        free_readback(&rb);
        destroy_system(system);
    }
}

/* Bouncing under gravity with restitution 0.5 and a rest speed: the bounces
 * end and the particles rest on the plane. */
static void test_rest_speed_ends_bouncing(void **state) {
    (void)state;
    const float speeds[4] = {2, 5, 9, 14};
    plume_system_desc desc = falling_desc(speeds, 4, (plume_collision_desc){.restitution = 0.5f, .rest_speed = 0.5f});
    desc.forces.gravity[1] = -9.8f;
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(1.0f / 60, NULL, NULL);
    for (int step = 0; step < 300; ++step) update(system, &frame);
    plume_readback rb = read_live(system);
    assert_int_equal(rb.live_count, 4);
    FOR_LIVE(rb, p) {
        if (!(p->position[1] >= 0) || p->position[1] > 0.01f || fabsf(p->velocity[1]) > 9.8f / 60 * 1.01f)
            fail_msg("particle %u still bounces: height %g, vertical speed %g", p->id, p->position[1], p->velocity[1]);
    }
    free_readback(&rb);
    destroy_system(system);
}

/* Kill: every particle that reaches the plane dies (its slot goes back to
 * the dead list); those that have not reached it yet live on. */
static void test_kill_removes(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 300, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {0, 1, 0}, .extents = {1, 0, 1},
                                            .direction = {0, -1, 0}, .speed = {10, 10}, .burst_count = 200,
                                            .lifetime = {100, 100}};
    desc.emitters[1] = (plume_emitter_desc){.position = {0, 50, 0}, .direction = {0, -1, 0}, .speed = {10, 10},
                                            .burst_count = 50, .lifetime = {100, 100}};
    desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE,
                                                    .collision = {.response = PLUME_COLLISION_KILL}};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(0.05f, NULL, NULL);
    for (int step = 0; step < 4; ++step) update(system, &frame); /* 2 units down: the first 200 are through */
    plume_readback rb = read_live(system);
    assert_int_equal(rb.live_count, 50);
    assert_int_equal(rb.dead_count, 250);
    FOR_LIVE(rb, p) assert_true(p->position[1] > 40);
    free_readback(&rb);
    destroy_system(system);
}

/* Stick: particles thrown at the floor from every height and angle stop
 * where they hit it and stay there under gravity. */
static void test_stick_stops(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 200, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {0, 3, 0}, .extents = {2, 2, 2},
                                            .direction = {0, -1, 0}, .spread = 1.2f, .speed = {1, 40},
                                            .burst_count = 150, .lifetime = {100, 100}};
    desc.forces.gravity[1] = -9.8f;
    desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE,
                                                    .collision = {.response = PLUME_COLLISION_STICK}};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(1.0f / 30, NULL, NULL);
    for (int step = 0; step < 40; ++step) update(system, &frame);
    plume_readback before = read_live(system);
    assert_int_equal(before.live_count, 150);
    for (int step = 0; step < 20; ++step) update(system, &frame);
    plume_readback after = read_live(system);
    FOR_LIVE(before, p) {
        const plume_particle *q = find_by_id(&after, p->id);
        assert_non_null(q);
        if (!(q->position[1] >= 0) || q->position[1] > 0.01f || q->position[0] != p->position[0] ||
            q->position[2] != p->position[2] || fabsf(q->velocity[0]) + fabsf(q->velocity[2]) != 0)
            fail_msg("particle %u moved: (%g, %g, %g) -> (%g, %g, %g), velocity (%g, %g, %g)", p->id, p->position[0],
                     p->position[1], p->position[2], q->position[0], q->position[1], q->position[2], q->velocity[0],
                     q->velocity[1], q->velocity[2]);
    }
    free_readback(&before);
    free_readback(&after);
    destroy_system(system);
}

/* ---- The depth buffer ------------------------------------------------------------ */

enum { DEPTH_SIZE = 128 };

/* The depth of an axis-aligned box (half-sizes `extents` round `centre`)
 * rendered with view_projection into a DEPTH_SIZE^2 GL_DEPTH_COMPONENT32F
 * texture in the host's depth convention (cleared with its clear depth,
 * tested with its depth function: set_host_depth_convention). Restores the
 * framebuffer, viewport and program. */
static GLuint render_box_depth(const mat4 view_projection, const vec3 centre, const vec3 extents) {
    static const char *vertex_source =
        "#version 430 core\n"
        "uniform mat4 u_mvp;\n"
        "uniform vec3 u_centre, u_extents;\n"
        "const int corners[36] = int[](0,1,3, 0,3,2, 4,6,7, 4,7,5, 0,4,5, 0,5,1, 2,3,7, 2,7,6, 0,2,6, 0,6,4, 1,5,7, 1,7,3);\n"
        "void main() {\n"
        "    int c = corners[gl_VertexID];\n"
        "    vec3 corner = vec3(c & 1, (c >> 1) & 1, (c >> 2) & 1) * 2.0 - 1.0;\n"
        "    gl_Position = u_mvp * vec4(u_centre + corner * u_extents, 1.0);\n"
        "}\n";
    static const char *fragment_source = "#version 430 core\nvoid main() {}\n";
    GLuint vs = glCreateShader(GL_VERTEX_SHADER), fs = glCreateShader(GL_FRAGMENT_SHADER), program = glCreateProgram();
    glShaderSource(vs, 1, &vertex_source, NULL);
    glShaderSource(fs, 1, &fragment_source, NULL);
    glCompileShader(vs);
    glCompileShader(fs);
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    assert_true(linked);
    GLuint depth = 0, framebuffer = 0, vertex_array = 0;
    glGenTextures(1, &depth);
    glBindTexture(GL_TEXTURE_2D, depth);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT32F, DEPTH_SIZE, DEPTH_SIZE);
    glBindTexture(GL_TEXTURE_2D, 0);
    GLint previous_framebuffer = 0, previous_viewport[4];
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer);
    glGetIntegerv(GL_VIEWPORT, previous_viewport);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glDrawBuffer(GL_NONE);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, DEPTH_SIZE, DEPTH_SIZE);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "u_mvp"), 1, GL_FALSE, &view_projection[0][0]);
    glUniform3fv(glGetUniformLocation(program, "u_centre"), 1, centre);
    glUniform3fv(glGetUniformLocation(program, "u_extents"), 1, extents);
    glGenVertexArrays(1, &vertex_array);
    glBindVertexArray(vertex_array);
    glDrawArrays(GL_TRIANGLES, 0, 36);
    glBindVertexArray(0);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)previous_framebuffer);
    glViewport(previous_viewport[0], previous_viewport[1], previous_viewport[2], previous_viewport[3]);
    glDeleteVertexArrays(1, &vertex_array);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    return depth;
}

/* Particles rain onto a box seen from above at an angle; only its depth is
 * known (rendered). Those above its top come to rest on it (within a depth
 * texel's reach); those beside it, where the depth buffer shows nothing,
 * fall past it. Without depth_collision enabled, all fall through. The host
 * renders its depth in the GL's default convention or reversed (clip control
 * 0..1, cleared to 0, GEQUAL, an infinite reversed projection). */
static void depth_buffer_collision_with_a_rendered_box(bool reversed) {
    const vec3 centre = {0, 0, 0}, extents = {1, 0.5f, 1};
    mat4 view, projection, view_projection;
    set_host_depth_convention(reversed);
    glm_lookat((vec3){0, 6, 3}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    if (reversed) infinite_reversed_perspective(glm_rad(50), 1, 0.5f, projection);
    else glm_perspective(glm_rad(50), 1, 0.5f, 30, projection);
    glm_mat4_mul(projection, view, view_projection);
    GLuint depth = render_box_depth(view_projection, centre, extents);
    for (int enabled = 1; enabled >= 0; --enabled) {
        plume_system_desc desc = {.capacity = 400, .seed = test_random_u32()};
        desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {0, 2, 0},
                                                .extents = {0.6f, 0.3f, 0.6f}, .direction = {0, -1, 0},
                                                .speed = {0, 1}, .burst_count = 200, .lifetime = {100, 100}};
        desc.emitters[1] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {2.2f, 2, 0},
                                                .extents = {0.3f, 0.3f, 0.8f}, .burst_count = 50,
                                                .lifetime = {100, 100}};
        desc.forces.gravity[1] = -9.8f;
        desc.world.depth_collision = (plume_depth_collision_desc){
            .enabled = enabled, .thickness = 0.6f, .collision = {.restitution = 0.2f, .friction = 1, .rest_speed = 0.3f}};
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(1.0f / 60, view, projection);
        frame.depth_texture = depth;
        for (int step = 0; step < 90; ++step) update(system, &frame);
        plume_readback rb = read_live(system);
        assert_int_equal(rb.live_count, 250);
        int on_top = 0, fell = 0;
        FOR_LIVE(rb, p) {
            bool above = fabsf(p->position[0]) < 0.8f && fabsf(p->position[2]) < 0.8f && p->id < 200;
            if (enabled && above) {
                if (fabsf(p->position[1] - 0.5f) > 0.06f)
                    fail_msg("particle %u at (%g, %g, %g): not resting on the box top (0.5)", p->id, p->position[0],
                             p->position[1], p->position[2]);
                ++on_top;
            } else if (p->position[1] < -3) {
                ++fell;
            }
        }
        printf("  depth collision %s%s: %d resting on the box, %d fell past\n", reversed ? "(reversed depth) " : "",
               enabled ? "on" : "off", on_top, fell);
        if (enabled) {
            /* Born within 0.6 of the middle, a particle has 0.2 to slide
             * before it leaves the counted square: all of them rest in it
             * but for a rare bounce off the top's edge. */
            assert_true(on_top >= 195);
            assert_true(fell >= 50); /* beside the box */
        } else {
            assert_int_equal(fell, 250);
        }
        free_readback(&rb);
        destroy_system(system);
    }
    glDeleteTextures(1, &depth);
    set_host_depth_convention(false);
}

static void test_depth_buffer_collision_with_a_rendered_box(void **state) {
    (void)state;
    depth_buffer_collision_with_a_rendered_box(false);
}

static void test_depth_buffer_collision_in_reversed_depth(void **state) {
    (void)state;
    depth_buffer_collision_with_a_rendered_box(true);
}

const struct CMUnitTest world_collisions_tests[] = {
    cmocka_unit_test_setup_teardown(test_particles_never_end_inside_a_collider, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_restitution_halves_the_normal_speed, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_friction_slows_the_tangent, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_rest_speed_ends_bouncing, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_kill_removes, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_stick_stops, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_depth_buffer_collision_with_a_rendered_box, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_depth_buffer_collision_in_reversed_depth, fixture_setup, fixture_teardown),
};
const size_t world_collisions_test_count = sizeof world_collisions_tests / sizeof world_collisions_tests[0];
