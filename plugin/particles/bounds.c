/* The live particles' box: the GPU's (grown by simulate,
 * particle_bounds.glsl) brought back through a ring of fenced copies, and
 * the descriptor's conservative box (no GL). */
#include <math.h>
#include <string.h>

#include "particles_internal.h"

/* ---- The GPU's box ------------------------------------------------------------ */

_Static_assert(PLUME_STATE_BOUNDS_MAX == PLUME_STATE_BOUNDS_MIN + 3, "the box's words follow each other");

/* The ring's buffers, at the host's first request (binds GL_COPY_WRITE_BUFFER). */
static void create_ring(system_state *s) {
    for (int i = 0; i < BOUNDS_RING; ++i)
        s->bounds.buffers[i] = plume_make_gpu_buffer(&s->env, 4 * BOUNDS_RECORD_WORDS, "plume particles: bounds readback");
    s->bounds.wanted = true;
}

uint32_t bounds_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    if (!s->bounds.wanted) return 0;
    plume_gl_object all[BOUNDS_RING];
    for (int i = 0; i < BOUNDS_RING; ++i) all[i] = (plume_gl_object){GL_BUFFER, s->bounds.buffers[i]};
    return plume_list_named_gl_objects(all, BOUNDS_RING, out, capacity);
}

static void forget_fences(bounds_ring *b) {
    for (int i = 0; i < BOUNDS_RING; ++i) {
        if (b->fences[i]) glDeleteSync(b->fences[i]);
        b->fences[i] = NULL;
    }
}

void bounds_destroy(system_state *s) {
    forget_fences(&s->bounds);
    plume_gl_object owned[BOUNDS_RING];
    plume_delete_gl_objects(&s->env, owned, bounds_list_gl_objects(s, owned, BOUNDS_RING));
}

void bounds_reset(system_state *s) {
    forget_fences(&s->bounds);
    s->bounds.latest = (plume_bounds){.bounded = true};
}

bool bounds_grown(const system_state *s) {
    return (s->bounds.wanted || s->desc.self_shadow.strength > 0.0f) && !s->bounds.lab_disabled;
}

void bounds_capture(system_state *s, uint64_t update, plume_gl_scope *scope) {
    bounds_ring *b = &s->bounds;
    if (!b->wanted) return;
    plume_gl_scope_save(scope, PLUME_SCOPE_COPY_BUFFERS);
    uint32_t slot = b->next;
    b->next = (b->next + 1) % BOUNDS_RING;
    /* A slot still unsignalled a ring later is overwritten: the copy below
     * is ordered after the one it held, which nobody will read now. */
    if (b->fences[slot]) glDeleteSync(b->fences[slot]);
    glBindBuffer(GL_COPY_READ_BUFFER, s->state.buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, b->buffers[slot]);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, s->state.offset + STATE_LIVE_COUNT_OFFSET, 0, 4);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, s->state.offset + 4 * PLUME_STATE_BOUNDS_MIN, 4,
                        24);
    b->fences[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    b->updates[slot] = update;
}

/* particle_bounds.glsl's ordered_from_float, undone. */
static float float_from_ordered(uint32_t u) {
    uint32_t bits = (u & 0x80000000u) ? u & 0x7fffffffu : ~u;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The newest slot whose copy has landed, read without waiting. */
static void take_newest_signalled(system_state *s) {
    bounds_ring *b = &s->bounds;
    for (uint32_t back = 1; back <= BOUNDS_RING; ++back) {
        uint32_t slot = (b->next + BOUNDS_RING - back) % BOUNDS_RING;
        if (!b->fences[slot] || b->updates[slot] <= b->latest.update) continue;
        GLenum status = glClientWaitSync(b->fences[slot], 0, 0);
        if (status != GL_ALREADY_SIGNALED && status != GL_CONDITION_SATISFIED) continue;
        uint32_t words[BOUNDS_RECORD_WORDS];
        glBindBuffer(GL_COPY_READ_BUFFER, b->buffers[slot]);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 28, words);
        plume_bounds box = {.bounded = true, .update = b->updates[slot]};
        box.any_live = words[0] > 0 && words[1] != 0xffffffffu;
        for (int i = 0; i < 3 && box.any_live; ++i) {
            box.min[i] = float_from_ordered(words[1 + i]);
            box.max[i] = float_from_ordered(words[4 + i]);
        }
        b->latest = box;
        return;
    }
}

plume_result plume_system_get_bounds(plume_context *context, plume_system handle, plume_bounds *out) {
    static const char *CALLER = "plume_system_get_bounds";
    if (out) *out = (plume_bounds){0};
    system_state *system = particles_find_system_with(context, handle, CALLER, out, "out");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&system->env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (system->fragment) {
        plume_log(&system->env, PLUME_LOG_ERROR,
                  "%s: the fragment path (desc.path) keeps no GPU box; plume_system_desc_bounds gives one", CALLER);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    if (system->bounds.wanted) take_newest_signalled(system);
    else create_ring(system);
    plume_gl_scope_end(&scope);
    *out = system->bounds.latest;
    return plume_drain_gl_errors(&system->env, CALLER);
}

/* ---- The descriptor's box ------------------------------------------------------ */

/* The largest |acceleration| per axis turbulence adds, per unit of strength:
 * each curl component is a difference of two gradient-noise partials, each
 * at most 3.75 (the quintic fade's steepest slope 1.875, twice) x 3 (a
 * lattice gradient's dot product) + 1 (a gradient component):
 * particle_noise.glsl. */
static const double TURBULENCE_PER_AXIS = 2.0 * (3.75 * 3.0 + 1.0);

/* Samples of each lifetime; between two of them a particle moves at most
 * its largest speed times the gap, added as a margin. */
enum { REACH_SAMPLES = 64 };

/* How far along one axis a particle of `e` can get from its birth point:
 * [low, high], from the closed form particle_motion.glsl integrates (drag k
 * pulls the velocity towards the wind; f(t) = (1 - e^-kt) / k, G(t) =
 * (t - f) / k), its start velocity and turbulence at their largest. */
static void axis_reach(const plume_emitter_desc *e, const plume_forces *f, int axis, bool turned, double *low,
                       double *high) {
    double k = f->drag, speed = e->speed.max, life = e->lifetime.max;
    double wind = f->wind[axis], gravity = f->gravity[axis], turbulence = f->turbulence * TURBULENCE_PER_AXIS;
    double accel = fabs(gravity) + turbulence;
    double fastest = speed + 2.0 * fabs(wind) + accel * life; /* |v| bound over the life */
    *low = *high = 0.0;
    for (int n = 1; n <= REACH_SAMPLES; ++n) {
        double t = life * n / REACH_SAMPLES, ft, gt;
        if (k * t < 1e-4) ft = t, gt = 0.5 * t * t;
        else ft = (1.0 - exp(-k * t)) / k, gt = (t - ft) / k;
        double centre, spread;
        if (turned) centre = 0.0, spread = fastest * t; /* a bounce may turn it any way */
        else centre = wind * (t - ft) + gravity * gt, spread = speed * ft + turbulence * gt;
        if (centre - spread < *low) *low = centre - spread;
        if (centre + spread > *high) *high = centre + spread;
    }
    double margin = fastest * life / REACH_SAMPLES;
    *low -= margin;
    *high += margin;
}

static bool world_turns(const plume_world *w) {
    bool any = w->depth_collision.enabled;
    for (int c = 0; c < PLUME_MAX_COLLIDERS; ++c) any = any || w->colliders[c].shape != 0;
    return any;
}

static bool world_unbounds(const plume_world *w) {
    bool any = w->vector_field.texture != 0;
    for (int a = 0; a < PLUME_MAX_ATTRACTORS; ++a) any = any || w->attractors[a].kind != 0;
    for (int r = 0; r < PLUME_MAX_EVENT_ROUTES; ++r) any = any || w->events[r].trigger != 0;
    return any;
}

plume_result plume_system_desc_bounds(const plume_system_desc *desc, plume_bounds *out) {
    static const char *CALLER = "plume_system_desc_bounds";
    if (out) *out = (plume_bounds){0};
    plume_env env;
    plume_result r = plume_env_init(&env, desc ? &desc->logger : NULL, desc ? &desc->allocator : NULL);
    if (r != PLUME_OK) return r;
    if (!desc || !out) {
        plume_log(&env, PLUME_LOG_ERROR, "%s: %s must not be NULL", CALLER, desc ? "out" : "desc");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_system_desc d;
    r = plume_particles_resolve_desc(&env, CALLER, desc, &d);
    if (r != PLUME_OK) return r;
    bool turned = world_turns(&d.world);
    plume_bounds box = {.bounded = !world_unbounds(&d.world)};
    for (int i = 0; i < PLUME_MAX_EMITTERS; ++i) {
        const plume_emitter_desc *e = &d.emitters[i];
        if (!particles_emitter_emits(e)) continue;
        float radius;
        /* A mesh in the host's buffers has a reach only the GL can tell. */
        if (!particles_desc_mesh_reach(&d, particles_quad_radius(&d, e), &radius)) box.bounded = false;
        for (int axis = 0; axis < 3; ++axis) {
            double shape = e->shape == PLUME_SHAPE_BOX ? e->extents[axis]
                           : e->shape == PLUME_SHAPE_POINT ? 0.0
                                                           : e->extents[0];
            double low, high;
            axis_reach(e, &d.forces, axis, turned, &low, &high);
            double lo_exact = e->position[axis] - shape + low - radius;
            double hi_exact = e->position[axis] + shape + high + radius;
            /* The GPU's float sums round; a few ulps of slack cover them. */
            float lo = (float)(lo_exact - 1e-5 * (1.0 + fabs(lo_exact)));
            float hi = (float)(hi_exact + 1e-5 * (1.0 + fabs(hi_exact)));
            if (!box.any_live || lo < box.min[axis]) box.min[axis] = lo;
            if (!box.any_live || hi > box.max[axis]) box.max[axis] = hi;
        }
        box.any_live = true;
    }
    *out = box;
    return PLUME_OK;
}
