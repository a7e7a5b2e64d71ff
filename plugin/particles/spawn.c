/* The gameplay side of emission: placements (the system's own and its
 * instances), emission on demand, and the table of spawn batches the emit
 * pass walks (particle_emit.comp): one upload and one dispatch a update,
 * however many instances and emits. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "particles_internal.h"

_Static_assert(PLUME_BINDING_SPAWN_BATCHES == PLUME_SCOPE_OPTIONAL_SSBO_SLOT,
               "PLUME_SCOPE_OPTIONAL_SSBO restores the spawn batches' binding");

static const plume_transform IDENTITY = {.rotation = {0.0f, 0.0f, 0.0f, 1.0f}, .scale = {1.0f, 1.0f, 1.0f}};

/* ---- Checks ---------------------------------------------------------------- */

/* `in` with its defaults (no rotation, unit scale), or an error naming
 * `field` (logged under `caller`). */
static plume_result resolve_transform(const plume_env *env, const char *caller, const char *field,
                                      const plume_transform *in, plume_transform *out) {
    bool finite = true, zero_rotation = true, zero_scale = true, positive_scale = true;
    for (int i = 0; i < 4; ++i) {
        if (i < 3) {
            finite = finite && isfinite(in->position[i]) && isfinite(in->scale[i]);
            zero_scale = zero_scale && in->scale[i] == 0.0f;
            positive_scale = positive_scale && in->scale[i] > 0.0f;
        }
        finite = finite && isfinite(in->rotation[i]);
        zero_rotation = zero_rotation && in->rotation[i] == 0.0f;
    }
    if (!finite) {
        plume_log(env, PLUME_LOG_ERROR, "%s: %s must be finite numbers", caller, field);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (!zero_scale && !positive_scale) {
        plume_log(env, PLUME_LOG_ERROR, "%s: %s.scale must be above 0 in every axis (all zero: 1)", caller, field);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    *out = *in;
    if (zero_scale) memcpy(out->scale, IDENTITY.scale, sizeof out->scale);
    if (zero_rotation) memcpy(out->rotation, IDENTITY.rotation, sizeof out->rotation);
    double length = 0.0;
    for (int i = 0; i < 4; ++i) length += (double)out->rotation[i] * out->rotation[i];
    length = sqrt(length);
    if (!(length > 1e-12) || !isfinite(length)) {
        plume_log(env, PLUME_LOG_ERROR, "%s: %s.rotation is too short to normalise", caller, field);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 4; ++i) out->rotation[i] = (float)(out->rotation[i] / length);
    return PLUME_OK;
}

/* The system, if it runs the compute path (else logged and NULL). */
static system_state *find_compute_system(const plume_context *context, plume_system handle, const char *caller,
                                         plume_result *out_error) {
    system_state *s = particles_find_system(context, handle, caller);
    *out_error = PLUME_ERROR_INVALID_ARGUMENT;
    if (s && s->fragment) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: the system runs the fragment path (GL 3.3); emission on demand "
                  "and placements need the compute path", caller);
        *out_error = PLUME_ERROR_GL_UNSUPPORTED;
        return NULL;
    }
    return s;
}

/* ---- Life ------------------------------------------------------------------ */

static bool grow_instances(system_state *s, uint32_t count) {
    spawn_state *p = &s->spawn;
    if (count <= p->instance_room) return true;
    uint32_t room = p->instance_room ? p->instance_room : 4;
    while (room < count) room *= 2;
    spawn_instance *grown = plume_realloc(&s->env, p->instances, (size_t)room * sizeof *grown);
    if (!grown) return false;
    p->instances = grown;
    p->instance_room = room;
    return true;
}

plume_result spawn_create(system_state *s) {
    GLint bindings = 0;
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
    if (bindings <= PLUME_BINDING_SPAWN_BATCHES) {
        plume_log(&s->env, PLUME_LOG_ERROR,
                  "plume_system_create: the compute path needs %d shader storage bindings; this GL has %d "
                  "(desc.path PLUME_PATH_FRAGMENT runs without)", PLUME_BINDING_SPAWN_BATCHES + 1, bindings);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    if (!grow_instances(s, 1)) return PLUME_ERROR_OUT_OF_MEMORY;
    for (uint32_t e = 0; e < PLUME_MAX_EMITTERS; ++e) spawn_note_emitter(s, e);
    s->spawn.instances[0] = (spawn_instance){.from = IDENTITY, .to = IDENTITY, .last = IDENTITY, .enabled = true,
                                             .jumped = true};
    s->spawn.instance_count = 1;
    /* No buffer until an update writes one (a system always updated in a
     * batch's table, or in world space, never does), then room for a few
     * emitters or instances, grown as a step needs more. */
    plume_upload_ring_create(&s->env, &s->spawn.batch_ring, 4 * sizeof(spawn_batch), NULL,
                             "plume particles: spawn batches");
    plume_upload_ring_create(&s->env, &s->spawn.instance_ring, 4 * 16 * PLUME_LOCAL_MOTION_VEC4S, NULL,
                             "plume particles: instances' motion (local space)");
    return plume_drain_gl_errors(&s->env, "plume_system_create (spawn batches)");
}

/* The rings' buffers (the emitters' too). */
uint32_t spawn_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const plume_upload_ring *rings[3] = {&s->spawn.batch_ring, &s->spawn.instance_ring, &s->emitter_ring};
    uint32_t n = 0;
    for (int i = 0; i < 3; ++i)
        n += plume_upload_ring_list(rings[i], n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    return n;
}

void spawn_free(system_state *s) {
    plume_upload_ring_forget(&s->spawn.batch_ring);
    plume_upload_ring_forget(&s->spawn.instance_ring);
    plume_upload_ring_forget(&s->emitter_ring);
    plume_free(&s->env, s->spawn.instances);
    plume_free(&s->env, s->spawn.queue);
    plume_free(&s->env, s->spawn.batches);
    plume_free(&s->env, s->spawn.instance_motion);
    s->spawn = (spawn_state){0};
}

void spawn_reset(system_state *s) {
    for (uint32_t i = 0; i < s->spawn.instance_count; ++i) {
        spawn_instance *instance = &s->spawn.instances[i];
        instance->from = instance->last = instance->to;
        instance->jumped = true;
    }
    s->spawn.queued = 0;
}

/* ---- Calls ----------------------------------------------------------------- */

static void put_transform(const plume_transform *t, float position[4], float rotation[4], float scale[4]) {
    memcpy(position, t->position, 3 * sizeof(float));
    memcpy(rotation, t->rotation, 4 * sizeof(float));
    memcpy(scale, t->scale, 3 * sizeof(float));
}

plume_result plume_system_emit(plume_context *context, plume_system handle, const plume_emit_desc *emit) {
    static const char *CALLER = "plume_system_emit";
    plume_result error;
    system_state *s = find_compute_system(context, handle, CALLER, &error);
    if (!s) return error;
    if (!emit) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: emit must not be NULL", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (emit->emitter >= PLUME_MAX_EMITTERS) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: emitter %u must be below %d", CALLER, emit->emitter,
                  PLUME_MAX_EMITTERS);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (emit->count == 0 || emit->count > s->desc.capacity) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: count %u must be 1 .. the capacity, %u", CALLER, emit->count,
                  s->desc.capacity);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    bool finite = isfinite(emit->size_scale), white = true, color_ok = true;
    for (int i = 0; i < 3; ++i) finite = finite && isfinite(emit->velocity[i]);
    for (int i = 0; i < 4; ++i) {
        white = white && emit->color[i] == 0.0f;
        color_ok = color_ok && emit->color[i] >= 0.0f && emit->color[i] <= 65504.0f; /* a half float */
    }
    if (!finite || emit->size_scale < 0.0f) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: velocity must be finite and size_scale finite and >= 0", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (!color_ok) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: color must be in 0 .. 65504 (a half float)", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_transform t;
    plume_result r = resolve_transform(&s->env, CALLER, "transform", &emit->transform, &t);
    if (r != PLUME_OK) return r;
    if (s->spawn.queued == PLUME_MAX_EMITS_PER_UPDATE) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: %d emits are already queued for the next update (the most)",
                  CALLER, PLUME_MAX_EMITS_PER_UPDATE);
        return PLUME_ERROR_CAPACITY;
    }
    if (!s->spawn.queue) {
        s->spawn.queue = plume_alloc(&s->env, PLUME_MAX_EMITS_PER_UPDATE * sizeof(spawn_batch));
        if (!s->spawn.queue) return PLUME_ERROR_OUT_OF_MEMORY;
    }
    /* A larger quad than the emitter's own widens the culling sphere (for
     * good, as set_emitter does). */
    float radius = particles_quad_radius(&s->desc, &s->desc.emitters[emit->emitter]) *
                   (emit->size_scale > 1.0f ? emit->size_scale : 1.0f);
    if (radius > s->cull_radius) s->cull_radius = radius;
    spawn_batch *b = &s->spawn.queue[s->spawn.queued++];
    *b = (spawn_batch){.end = emit->count, .emitter = emit->emitter, .seed = emit->seed,
                       .size_scale = emit->size_scale == 0.0f ? 1.0f : emit->size_scale, .color = {1, 1, 1, 1}};
    if (!white) memcpy(b->color, emit->color, sizeof b->color);
    put_transform(&t, b->from_position, b->from_rotation, b->from_scale);
    put_transform(&t, b->to_position, b->to_rotation, b->to_scale);
    memcpy(b->velocity, emit->velocity, sizeof emit->velocity);
    return PLUME_OK;
}

plume_result plume_system_set_instances(plume_context *context, plume_system handle, uint32_t first,
                                        uint32_t count, const plume_instance_desc *instances) {
    static const char *CALLER = "plume_system_set_instances";
    plume_result error;
    system_state *s = find_compute_system(context, handle, CALLER, &error);
    if (!s) return error;
    if ((count > 0 && !instances) || first > PLUME_MAX_INSTANCES || count > PLUME_MAX_INSTANCES - first) {
        plume_log(&s->env, PLUME_LOG_ERROR,
                  "%s: instances must not be NULL and first %u + count %u must be at most %d", CALLER, first, count,
                  PLUME_MAX_INSTANCES);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    /* Checked whole before anything changes. */
    for (uint32_t i = 0; i < count; ++i) {
        plume_transform resolved;
        char field[48];
        snprintf(field, sizeof field, "instances[%u].transform", i);
        plume_result r = resolve_transform(&s->env, CALLER, field, &instances[i].transform, &resolved);
        if (r != PLUME_OK) return r;
    }
    spawn_state *p = &s->spawn;
    if (!grow_instances(s, first + count)) return PLUME_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = p->instance_count; i < first; ++i)
        p->instances[i] = (spawn_instance){.from = IDENTITY, .to = IDENTITY, .last = IDENTITY, .jumped = true};
    for (uint32_t i = 0; i < count; ++i) {
        spawn_instance *instance = &p->instances[first + i];
        bool added = first + i >= p->instance_count;
        resolve_transform(&s->env, CALLER, "", &instances[i].transform, &instance->to);
        if (added || instances[i].jump) {
            instance->from = instance->to;
            instance->jumped = true;
        }
        if (added) instance->last = instance->to;
        instance->enabled = instances[i].enabled;
    }
    if (first + count > p->instance_count) p->instance_count = first + count;
    return PLUME_OK;
}

plume_result plume_system_set_transform(plume_context *context, plume_system handle,
                                        const plume_transform *transform, bool jump) {
    static const char *CALLER = "plume_system_set_transform";
    plume_result error;
    system_state *s = find_compute_system(context, handle, CALLER, &error);
    if (!s) return error;
    plume_transform resolved;
    if (!transform) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: transform must not be NULL", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_result r = resolve_transform(&s->env, CALLER, "transform", transform, &resolved);
    if (r != PLUME_OK) return r;
    spawn_instance *own = &s->spawn.instances[0];
    own->to = resolved;
    if (jump) {
        own->from = resolved;
        own->jumped = true;
    }
    return PLUME_OK;
}

/* ---- The step's table -------------------------------------------------------- */

static spawn_batch *add_batch(system_state *s) {
    spawn_state *p = &s->spawn;
    if (p->batch_count == p->batch_room) {
        uint32_t room = p->batch_room ? 2 * p->batch_room : 64;
        spawn_batch *grown = plume_realloc(&s->env, p->batches, (size_t)room * sizeof *grown);
        if (!grown) return NULL; /* the step emits fewer batches */
        p->batches = grown;
        p->batch_room = room;
    }
    return &p->batches[p->batch_count++];
}

/* An emitter's particles at instance `index`: `count` of them from time
 * fraction `first` on, `step` apart, along the instance's path (in world
 * space; in local space the simulate pass carries them instead). */
static void add_instance_batch(system_state *s, uint32_t index, uint32_t emitter, uint64_t count, double first,
                               double step, float dt) {
    const spawn_instance *instance = &s->spawn.instances[index];
    spawn_batch *b = count > 0 ? add_batch(s) : NULL;
    if (!b) return;
    *b = (spawn_batch){.end = (uint32_t)(count < UINT32_MAX ? count : UINT32_MAX), .emitter = emitter,
                       .instance = index, .dt = dt, .size_scale = 1.0f, .color = {1, 1, 1, 1}};
    put_transform(&instance->to, b->to_position, b->to_rotation, b->to_scale);
    bool moved = !instance->jumped && memcmp(&instance->from, &instance->to, sizeof instance->to) != 0;
    bool path = moved && s->desc.simulation_space == PLUME_SPACE_WORLD;
    put_transform(path ? &instance->from : &instance->to, b->from_position, b->from_rotation, b->from_scale);
    for (int i = 0; i < 3 && moved && dt > 0.0f; ++i)
        b->velocity[i] = s->desc.inherit_velocity * (instance->to.position[i] - instance->from.position[i]) / dt;
    if (!path) return; /* born at the start of the step, as without placements */
    b->first = (float)first;
    b->step = (float)step;
}

/* Local space: each instance's placement at the last update and now, for
 * the simulate pass (LocalMotion); then the last is now. */
static void upload_local_motion(system_state *s) {
    spawn_state *p = &s->spawn;
    enum { FLOATS = 4 * PLUME_LOCAL_MOTION_VEC4S };
    if (p->instance_count > p->instance_motion_room) {
        float *grown = plume_realloc(&s->env, p->instance_motion, (size_t)p->instance_room * FLOATS * sizeof(float));
        if (!grown) return; /* the particles stay where they are this step */
        p->instance_motion = grown;
        p->instance_motion_room = p->instance_room;
    }
    for (uint32_t i = 0; i < p->instance_count; ++i) {
        float *m = p->instance_motion + (size_t)i * FLOATS;
        memset(m, 0, FLOATS * sizeof(float));
        put_transform(&p->instances[i].last, m, m + 4, m + 8);
        put_transform(&p->instances[i].to, m + 12, m + 16, m + 20);
        p->instances[i].last = p->instances[i].to;
    }
    GLsizeiptr bytes = (GLsizeiptr)p->instance_count * FLOATS * (GLsizeiptr)sizeof(float);
    PLUME_LAB_SYNC_POINT("spawn_upload");
    plume_upload_ring_write(&p->instance_ring, GL_SHADER_STORAGE_BUFFER, bytes, p->instance_motion);
}

void spawn_bind_local_motion(system_state *s) {
    const plume_upload_ring *ring = &s->spawn.instance_ring;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LOCAL_MOTION, ring->buffers[ring->current]);
}

/* Each update's table in a buffer no earlier command can still read (the
 * ring): on NVIDIA (580) an emit dispatch still in flight read the next
 * update's table when it was written into the same buffer, through
 * glBufferSubData or glBufferData's fresh storage alike (notes/soak.md). */
void spawn_upload(system_state *s) {
    spawn_state *p = &s->spawn;
    if (p->batch_count == 0) return;
    GLsizeiptr bytes = (GLsizeiptr)p->batch_count * (GLsizeiptr)sizeof(spawn_batch);
    PLUME_LAB_SYNC_POINT("spawn_upload");
    plume_upload_ring_write(&p->batch_ring, GL_SHADER_STORAGE_BUFFER, bytes, p->batches);
}

void spawn_note_emitter(system_state *s, uint32_t index) {
    const plume_emitter_desc *e = &s->desc.emitters[index];
    uint32_t bit = 1u << index;
    s->spawn.emitting = particles_emitter_emits(e) ? s->spawn.emitting | bit : s->spawn.emitting & ~bit;
}

uint32_t spawn_plan(system_state *s, double dt, bool upload) {
    spawn_state *p = &s->spawn;
    p->batch_count = 0;
    for (uint32_t e = 0; e < PLUME_MAX_EMITTERS; ++e) {
        /* An emitter that is off asks for nothing (its fraction stays as
         * particles_request_emitter would leave it); its clock runs. */
        if (!(p->emitting & (1u << e))) {
            if (dt > 0.0) s->clocks[e].time += dt;
            continue;
        }
        emitter_request request;
        particles_request_emitter(&s->desc.emitters[e], &s->clocks[e], dt, &request);
        if (request.rate_count == 0 && request.burst_count == 0) continue;
        for (uint32_t i = 0; i < p->instance_count; ++i) {
            if (!p->instances[i].enabled) continue;
            add_instance_batch(s, i, e, request.rate_count, request.rate_first, request.rate_step, (float)dt);
            add_instance_batch(s, i, e, request.burst_count, request.burst_at, 0.0, (float)dt);
        }
    }
    for (uint32_t q = 0; q < p->queued; ++q) {
        spawn_batch *b = add_batch(s);
        if (b) *b = p->queue[q];
    }
    p->queued = 0;
    if (s->desc.simulation_space == PLUME_SPACE_LOCAL) upload_local_motion(s);
    /* A step of dt 0 moves no time: a path set before it waits for the
     * next step (a jump is done with). */
    for (uint32_t i = 0; i < p->instance_count; ++i) {
        if (dt > 0.0) p->instances[i].from = p->instances[i].to;
        p->instances[i].jumped = false;
    }
    /* Counts to running totals, up to the capacity: the batches past it
     * cannot get a particle. */
    uint64_t total = 0;
    uint32_t kept = 0;
    for (; kept < p->batch_count && total < s->desc.capacity; ++kept) {
        total += p->batches[kept].end;
        if (total > s->desc.capacity) total = s->desc.capacity;
        p->batches[kept].end = (uint32_t)total;
    }
    p->batch_count = kept;
    if (upload) spawn_upload(s);
    return (uint32_t)total;
}

double spawn_longest_lifetime(const system_state *s) {
    double longest = 0.0;
    for (uint32_t b = 0; b < s->spawn.batch_count; ++b) {
        double lifetime = s->desc.emitters[s->spawn.batches[b].emitter].lifetime.max;
        if (lifetime > longest) longest = lifetime;
    }
    return longest;
}
