/* Particles that meet the world (plume_world, since 1.2): the GL side of
 * collisions, force fields and GPU events. The simulate pass does the work
 * (shaders/particles/particle_world.glsl); this file packs the world into its
 * uniforms, binds the host's textures and the event buffers, and runs the two
 * passes that turn a system's waiting events into particles
 * (particle_events_prepare.comp, particle_events_emit.comp).
 *
 * Events: a system that events can reach has one event buffer. The simulate
 * pass of any system whose routes target it appends children there; its own
 * next update emits them first, before its emitters' particles (children
 * take free slots before new particles do). The buffer is made when a route
 * to the system first appears (its own, at creation or
 * plume_system_set_world, or another system's): a system no route reaches
 * binds the context's empty event buffer instead (particle_pool.c), with a
 * capacity of 0, and holds none of its own. The CPU never reads the buffer: it
 * only knows that a simulate pass may have appended (events_pending), which
 * is when the event passes run, and it counts a full buffer's worth of
 * children into the live-count bound that sizes the sort. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "particles_internal.h"

enum {
    EVENT_HEADER_BYTES = 4 * PLUME_EVENT_HEADER_WORDS,
    COLLIDER_FLOATS = 4 * PLUME_COLLIDER_VEC4S,
    ATTRACTOR_FLOATS = 4 * PLUME_ATTRACTOR_VEC4S,
    EVENT_BUFFER_OWN = 0,
    EVENT_BUFFER_OTHER = 1
};
_Static_assert(PLUME_EVENT_RECORD_BYTES == EVENT_HEADER_BYTES, "the event header is one record long");

/* ---- Creation ------------------------------------------------------------------ */

static GLuint make_sampler(GLenum filter) {
    GLuint sampler = 0;
    glGenSamplers(1, &sampler);
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, filter);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, filter);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler, GL_TEXTURE_COMPARE_MODE, GL_NONE);
    return sampler;
}

/* The programs' uniforms, in the order of their locations' fields
 * (particles_internal.h). */
static const char *const WORLD_UNIFORMS[] = {
    "u_world_forces", "u_world_collisions",
    "u_attractor_count", "u_attractors", "u_vector_field", "u_field_min", "u_field_inverse_size", "u_field_strength",
    "u_collider_count", "u_colliders", "u_depth_collision", "u_depth_response", "u_depth_thickness",
    "u_view_projection", "u_inverse_view_projection", "u_world_eye", "u_depth_convention",
    "u_route_count", "u_routes", NULL};
static const char *const EVENTS_PREPARE_UNIFORMS[] = {"u_event_capacity", NULL};
static const char *const EVENTS_EMIT_UNIFORMS[] = {"u_seed", "u_tag_emitter", NULL};
_Static_assert(PLUME_UNIFORM_NAMES_FIT(WORLD_UNIFORMS, world_locations) &&
                   PLUME_UNIFORM_NAMES_FIT(EVENTS_EMIT_UNIFORMS, events_emit_locations),
               "a name for each location");

static void find_locations(system_state *s) {
    world_state *w = &s->world;
    plume_find_uniform_locations(s->simulate_program, WORLD_UNIFORMS, w->simulate.at);
    plume_find_uniform_locations(w->events_prepare_program, EVENTS_PREPARE_UNIFORMS, &w->prepare_capacity_location);
    plume_find_uniform_locations(w->events_emit_program, EVENTS_EMIT_UNIFORMS, w->events_emit.at);
}

bool world_field_in_use(const plume_world *world, char *name, size_t size) {
    for (uint32_t i = 0; i < PLUME_MAX_COLLIDERS; ++i)
        if (world->colliders[i].shape != PLUME_COLLIDER_NONE) return snprintf(name, size, "world.colliders[%u]", i) > 0;
    if (world->depth_collision.enabled) return snprintf(name, size, "world.depth_collision") > 0;
    for (uint32_t i = 0; i < PLUME_MAX_ATTRACTORS; ++i)
        if (world->attractors[i].kind != PLUME_ATTRACTOR_NONE)
            return snprintf(name, size, "world.attractors[%u]", i) > 0;
    if (world->vector_field.texture != 0) return snprintf(name, size, "world.vector_field") > 0;
    for (uint32_t i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i)
        if (world->events[i].trigger != PLUME_EVENT_NONE) return snprintf(name, size, "world.events[%u]", i) > 0;
    return false;
}

void world_note_desc(system_state *s) { s->world.quiet = !world_field_in_use(&s->desc.world, NULL, 0); }

plume_result world_create(system_state *s) {
    world_state *w = &s->world;
    world_note_desc(s);
    plume_result r;
    if ((r = particles_build_compute(s, "plume particles: events prepare", "particles/particle_events_prepare.comp",
                                     &w->events_prepare_program)) ||
        (r = particles_build_compute(s, "plume particles: events emit", "particles/particle_events_emit.comp",
                                     &w->events_emit_program)))
        return r;
    find_locations(s);
    world_make_event_buffers(s);
    w->depth_sampler = make_sampler(GL_NEAREST);
    w->field_sampler = make_sampler(GL_LINEAR);
    return plume_drain_gl_errors(&s->env, "plume_system_create (world)");
}

uint32_t world_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const world_state *w = &s->world;
    const plume_gl_object all[] = {
        {GL_PROGRAM, w->events_prepare_program}, {GL_PROGRAM, w->events_emit_program},
        {GL_BUFFER, w->event_buffer},            {GL_SAMPLER, w->depth_sampler},
        {GL_SAMPLER, w->field_sampler},
    };
    return plume_list_named_gl_objects(all, sizeof all / sizeof all[0], out, capacity);
}

/* Through the generic shader storage binding, which every scope restores. */
void world_reset_gpu_state(system_state *s) {
    s->world.events_pending = false;
    if (!s->world.event_buffer) return;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->world.event_buffer);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, EVENT_HEADER_BYTES, GL_RED_INTEGER, GL_UNSIGNED_INT,
                         NULL);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* `s`'s event buffer, empty, where it has none yet. */
static void make_event_buffer(system_state *s) {
    if (s->world.event_buffer) return;
    GLsizeiptr bytes = EVENT_HEADER_BYTES + (GLsizeiptr)s->desc.world.event_capacity * PLUME_EVENT_RECORD_BYTES;
    s->world.event_buffer = plume_make_buffer(&s->env, bytes, NULL, GL_DYNAMIC_DRAW, "plume particles: events");
    world_reset_gpu_state(s);
}

/* The event buffer bound where `s` has none: the context's empty one. */
static GLuint event_buffer_or_empty(const system_state *s) {
    return s->world.event_buffer ? s->world.event_buffer : particle_pool_empty_events(s->context);
}

/* ---- Routes ------------------------------------------------------------------- */

static bool route_active(const plume_event_route_desc *route) { return route->trigger != PLUME_EVENT_NONE; }

static bool targets_self(const system_state *s, plume_system target) {
    return target.id == 0 || target.id == s->handle.id;
}

plume_result world_check_targets(const system_state *s, const char *caller, const plume_world *world) {
    uint64_t other = 0;
    for (uint32_t i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i) {
        const plume_event_route_desc *route = &world->events[i];
        if (!route_active(route) || targets_self(s, route->target_system)) continue;
        const system_state *target = particles_peek_system(s->context, route->target_system);
        if (!target) {
            plume_log(&s->env, PLUME_LOG_ERROR,
                      "%s: world.events[%u].target_system names no live particle system of this context", caller, i);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        if (target->fragment) {
            plume_log(&s->env, PLUME_LOG_ERROR,
                      "%s: world.events[%u].target_system runs the fragment path, which has no event buffer", caller,
                      i);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        if (other != 0 && other != route->target_system.id) {
            plume_log(&s->env, PLUME_LOG_ERROR,
                      "%s: world.events[%u].target_system is a second system besides this one; a system's routes "
                      "reach at most one other",
                      caller, i);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        other = route->target_system.id;
    }
    return PLUME_OK;
}

plume_result plume_system_set_world(plume_context *context, plume_system handle, const plume_world *world) {
    static const char *CALLER = "plume_system_set_world";
    system_state *system = particles_find_system_with(context, handle, CALLER, world, "world");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&system->env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    plume_world resolved;
    plume_result r = plume_particles_resolve_world(&system->env, CALLER, world, &resolved);
    if (r == PLUME_OK && system->fragment) r = fragment_particles_check_world(&system->env, CALLER, &resolved);
    if (r == PLUME_OK) r = world_check_targets(system, CALLER, &resolved);
    if (r != PLUME_OK) return r;
    resolved.event_capacity = system->desc.world.event_capacity;
    system->desc.world = resolved;
    world_note_desc(system);
    if (system->fragment) return PLUME_OK;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS); /* plume_make_buffer's binding */
    world_make_event_buffers(system);
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}

static bool has_routes(const system_state *s) {
    if (s->world.quiet) return false;
    for (int i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i)
        if (route_active(&s->desc.world.events[i])) return true;
    return false;
}

system_state *world_other_target(const system_state *s) {
    if (s->world.quiet) return NULL;
    for (int i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i) {
        const plume_event_route_desc *route = &s->desc.world.events[i];
        if (route_active(route) && !targets_self(s, route->target_system))
            return particles_peek_system(s->context, route->target_system);
    }
    return NULL;
}

void world_make_event_buffers(system_state *s) {
    bool to_self = false;
    for (int i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i) {
        const plume_event_route_desc *route = &s->desc.world.events[i];
        to_self = to_self || (route_active(route) && targets_self(s, route->target_system));
    }
    if (to_self) make_event_buffer(s);
    system_state *other = world_other_target(s);
    if (other) make_event_buffer(other);
}

/* ---- The event passes ------------------------------------------------------- */

bool world_tags_emitter(const system_state *s) {
    /* Routes, CPU events and meshes picked by emitter tell the emitter from the lifetime. */
    return has_routes(s) || cpu_events_enabled(s) ||
           (s->desc.meshes.count > 0 && s->desc.meshes.pick == PLUME_MESH_PICK_BY_EMITTER);
}

void world_emit_events(system_state *s) {
    world_state *w = &s->world;
    bool tag = world_tags_emitter(s);
    w->events_pending = w->events_pending && w->event_buffer; /* no buffer: nothing can have arrived */
    w->consumed_this_update = w->events_pending;
    if (!w->events_pending) return;
    uint32_t capacity = s->desc.world.event_capacity;
    /* The children are unknown to the CPU: a full buffer's worth keeps the
     * live-count bound a bound. */
    particles_window_record(&s->window, s->time, capacity < s->desc.capacity ? capacity : s->desc.capacity,
                            s->window.longest_lifetime);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_EVENTS_OWN, w->event_buffer);
    glUseProgram(w->events_prepare_program);
    glProgramUniform1ui(w->events_prepare_program, w->prepare_capacity_location, capacity);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(w->events_emit_program);
    glProgramUniform1ui(w->events_emit_program, w->events_emit.seed, s->desc.seed);
    glProgramUniform1i(w->events_emit_program, w->events_emit.tag_emitter, tag);
    glDispatchCompute((capacity + PLUME_EVENT_EMIT_GROUP_SIZE - 1) / PLUME_EVENT_EMIT_GROUP_SIZE, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    w->events_pending = false;
}

/* ---- The simulate pass's world ---------------------------------------------- */

static int pack_colliders(const plume_world *world, float out[PLUME_MAX_COLLIDERS][COLLIDER_FLOATS]) {
    int n = 0;
    for (int i = 0; i < PLUME_MAX_COLLIDERS; ++i) {
        const plume_collider_desc *c = &world->colliders[i];
        if (c->shape == PLUME_COLLIDER_NONE) continue;
        float code = c->shape == PLUME_COLLIDER_PLANE ? 1.0f
                     : c->shape == PLUME_COLLIDER_SPHERE ? (c->inside ? 3.0f : 2.0f)
                                                          : (c->inside ? 5.0f : 4.0f);
        const float *shape = c->shape == PLUME_COLLIDER_PLANE ? c->normal : c->extents;
        const float packed[COLLIDER_FLOATS] = {
            c->position[0], c->position[1], c->position[2], code,
            shape[0],       shape[1],       shape[2],       c->radius,
            (float)c->collision.response, c->collision.restitution, c->collision.friction, c->collision.rest_speed,
        };
        memcpy(out[n++], packed, sizeof packed);
    }
    return n;
}

static int pack_attractors(const plume_world *world, float out[PLUME_MAX_ATTRACTORS][ATTRACTOR_FLOATS]) {
    int n = 0;
    for (int i = 0; i < PLUME_MAX_ATTRACTORS; ++i) {
        const plume_attractor_desc *a = &world->attractors[i];
        if (a->kind == PLUME_ATTRACTOR_NONE) continue;
        bool vortex = a->kind == PLUME_ATTRACTOR_VORTEX;
        const float packed[ATTRACTOR_FLOATS] = {
            a->position[0], a->position[1], a->position[2], a->radius,
            vortex ? a->axis[0] : 0.0f, vortex ? a->axis[1] : 0.0f, vortex ? a->axis[2] : 0.0f, a->strength,
        };
        memcpy(out[n++], packed, sizeof packed);
    }
    return n;
}

/* The routes as the shader's uvec4s; binds the event buffers (this system's,
 * and the other system's or again this one's; the context's empty one, of
 * capacity 0, for a system that has none) and marks their owners as having
 * events waiting. A route to a system destroyed since is skipped. */
/* Whether route `i` of `s` acts this update: active, and its target `s`
 * (*target NULL) or another live system (*target); a target destroyed
 * since is warned of once. */
static bool route_reaches(system_state *s, int i, system_state **target) {
    const plume_event_route_desc *route = &s->desc.world.events[i];
    *target = NULL;
    if (!route_active(route)) return false;
    if (targets_self(s, route->target_system)) return true;
    *target = particles_peek_system(s->context, route->target_system);
    if (*target) return true;
    if (!s->world.warned_missing_target)
        plume_log(&s->env, PLUME_LOG_WARNING,
                  "plume_system_update: world.events[%d].target_system was destroyed; the route is skipped", i);
    s->world.warned_missing_target = true;
    return false;
}

static int pack_routes(system_state *s, GLuint out[PLUME_MAX_EVENT_ROUTES][4], GLuint capacities[2]) {
    world_state *w = &s->world;
    system_state *other = NULL;
    int n = 0;
    capacities[EVENT_BUFFER_OWN] = s->desc.world.event_capacity;
    capacities[EVENT_BUFFER_OTHER] = 0;
    for (int i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i) {
        const plume_event_route_desc *route = &s->desc.world.events[i];
        system_state *target;
        if (!route_reaches(s, i, &target)) continue;
        uint32_t buffer = EVENT_BUFFER_OWN;
        if (target) {
            other = target;
            buffer = EVENT_BUFFER_OTHER;
            target->world.events_pending = true;
        } else {
            w->events_pending = true;
        }
        uint32_t bits;
        memcpy(&bits, &route->inherit_velocity, sizeof bits);
        out[n][0] = route->trigger;
        out[n][1] = route->source_emitters ? route->source_emitters : (1u << PLUME_MAX_EMITTERS) - 1u;
        out[n][2] = route->target_emitter | route->count << 8 | buffer << 16 | (uint32_t)i << 24;
        out[n][3] = bits;
        ++n;
    }
    /* A buffer not made (no route reaches it) is the empty one, of capacity 0. */
    if (!w->event_buffer) capacities[EVENT_BUFFER_OWN] = 0;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_EVENTS_OWN, event_buffer_or_empty(s));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_EVENTS_OTHER, event_buffer_or_empty(other ? other : s));
    if (other) capacities[EVENT_BUFFER_OTHER] = other->world.event_buffer ? other->desc.world.event_capacity : 0;
    return n;
}

static bool depth_collides(const system_state *s, const plume_frame_desc *frame) {
    return s->desc.world.depth_collision.enabled && frame->depth_texture != 0;
}

bool world_uses_textures(const system_state *s, const plume_frame_desc *frame) {
    if (s->world.quiet) return false;
    return depth_collides(s, frame) || s->desc.world.vector_field.texture != 0;
}

static void set_depth_collision(system_state *s, const plume_frame_desc *frame, const mat4 view,
                                const mat4 projection) {
    const world_locations *l = &s->world.simulate;
    GLuint sim = s->simulate_program;
    bool on = depth_collides(s, frame);
    glProgramUniform1i(sim, l->depth_collision, on);
    if (!on) return;
    const plume_depth_collision_desc *d = &s->desc.world.depth_collision;
    mat4 view_projection, inverse, inverse_view;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);
    glm_mat4_inv(view_projection, inverse);
    glm_mat4_inv((vec4 *)view, inverse_view);
    glProgramUniformMatrix4fv(sim, l->view_projection, 1, GL_FALSE, &view_projection[0][0]);
    glProgramUniformMatrix4fv(sim, l->inverse_view_projection, 1, GL_FALSE, &inverse[0][0]);
    glProgramUniform3f(sim, l->world_eye, inverse_view[3][0], inverse_view[3][1], inverse_view[3][2]);
    glProgramUniform1ui(sim, l->depth_convention, plume_depth_convention(&s->env, &projection[0][0]));
    glProgramUniform4f(sim, l->depth_response, (float)d->collision.response, d->collision.restitution,
                       d->collision.friction, d->collision.rest_speed);
    glProgramUniform1f(sim, l->depth_thickness, d->thickness);
    glActiveTexture(GL_TEXTURE0 + PLUME_TEXTURE_UNIT_SCENE_DEPTH);
    glBindTexture(GL_TEXTURE_2D, frame->depth_texture);
    glBindSampler(PLUME_TEXTURE_UNIT_SCENE_DEPTH, s->world.depth_sampler);
}

/* False (warned once) when the host's name is not a 3D texture. */
static bool set_vector_field(system_state *s) {
    const plume_vector_field_desc *f = &s->desc.world.vector_field;
    const world_locations *l = &s->world.simulate;
    GLuint sim = s->simulate_program;
    bool on = f->texture != 0 && glIsTexture(f->texture);
    if (f->texture != 0 && !on && !s->world.warned_bad_field) {
        plume_log(&s->env, PLUME_LOG_WARNING,
                  "plume_system_update: world.vector_field.texture %u is not a texture name; the field is off",
                  f->texture);
        s->world.warned_bad_field = true;
    }
    glProgramUniform1i(sim, l->vector_field, on);
    if (!on) return false;
    glProgramUniform3fv(sim, l->field_min, 1, f->bounds_min);
    glProgramUniform3f(sim, l->field_inverse_size, 1.0f / (f->bounds_max[0] - f->bounds_min[0]),
                       1.0f / (f->bounds_max[1] - f->bounds_min[1]), 1.0f / (f->bounds_max[2] - f->bounds_min[2]));
    glProgramUniform1f(sim, l->field_strength, f->strength);
    glActiveTexture(GL_TEXTURE0 + PLUME_TEXTURE_UNIT_VECTOR_FIELD);
    glBindTexture(GL_TEXTURE_3D, f->texture);
    glBindSampler(PLUME_TEXTURE_UNIT_VECTOR_FIELD, s->world.field_sampler);
    return true;
}

void world_set_routes(system_state *s) {
    GLuint routes[PLUME_MAX_EVENT_ROUTES][4], capacities[2];
    int route_count = pack_routes(s, routes, capacities);
    /* Simulate counts the children; the compaction writes their records. */
    GLuint sim = s->simulate_program, scatter = s->compact_scatter_program;
    glProgramUniform1i(sim, s->world.simulate.route_count, route_count);
    glProgramUniform1i(scatter, s->compact_scatter.route_count, route_count);
    if (route_count > 0) {
        glProgramUniform4uiv(sim, s->world.simulate.routes, route_count, &routes[0][0]);
        glProgramUniform4uiv(scatter, s->compact_scatter.routes, route_count, &routes[0][0]);
        glProgramUniform1uiv(scatter, s->compact_scatter.event_capacity, 2, capacities);
    }
    cpu_events_set_routes(s, route_count, (const GLuint(*)[4])routes);
}

/* Asked of every system of a batch each update: no GL call, nothing marked
 * (pack_routes binds the event buffers and marks their owners). */
bool world_quiet_in_simulate(system_state *s, const plume_frame_desc *frame) {
    if (s->world.quiet) return true;
    float colliders[PLUME_MAX_COLLIDERS][COLLIDER_FLOATS];
    float attractors[PLUME_MAX_ATTRACTORS][ATTRACTOR_FLOATS];
    if (pack_colliders(&s->desc.world, colliders) != 0 || pack_attractors(&s->desc.world, attractors) != 0 ||
        s->desc.world.vector_field.texture != 0 || depth_collides(s, frame))
        return false;
    system_state *target;
    for (int i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i)
        if (route_reaches(s, i, &target)) return false;
    return true;
}

void world_prepare_simulate(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection) {
    const world_locations *l = &s->world.simulate;
    GLuint sim = s->simulate_program;
    float colliders[PLUME_MAX_COLLIDERS][COLLIDER_FLOATS];
    float attractors[PLUME_MAX_ATTRACTORS][ATTRACTOR_FLOATS];
    int collider_count = pack_colliders(&s->desc.world, colliders);
    int attractor_count = pack_attractors(&s->desc.world, attractors);
    world_set_routes(s);
    glProgramUniform1i(sim, l->collider_count, collider_count);
    if (collider_count > 0)
        glProgramUniform4fv(sim, l->colliders, collider_count * PLUME_COLLIDER_VEC4S, &colliders[0][0]);
    glProgramUniform1i(sim, l->attractor_count, attractor_count);
    if (attractor_count > 0)
        glProgramUniform4fv(sim, l->attractors, attractor_count * PLUME_ATTRACTOR_VEC4S, &attractors[0][0]);
    set_depth_collision(s, frame, view, projection);
    bool field = set_vector_field(s);
    glProgramUniform1i(sim, l->world_forces, attractor_count > 0 || field);
    glProgramUniform1i(sim, l->world_collisions, collider_count > 0 || depth_collides(s, frame));
}
