/* Trails (plume_trail_desc): each particle's last positions, recorded on the
 * GPU every update (trail_record.comp: a ring of K - 1 points a slot, a new
 * particle in a slot starting its own; for ribbons instead a table of slots
 * by emission number, through which a particle finds its neighbours in
 * emission order), and every update the drawn
 * particles' segments as {key, slot x entries + segment} pairs
 * (trail_keys.comp), sorted by a sorter of their own, so the draw
 * (render/trail_draw.c, through particle_view.h) blends every segment and
 * every particle of the system in one back-to-front order. All of it is
 * made at creation and freed with the system; a system without a trail has
 * none of it. */
#include "particles_internal.h"

static const char *const RECORD_UNIFORMS[] = {"u_capacity", "u_by_distance", "u_spacing", "u_trail_ring",
                                              "u_ribbon", NULL};
static const char *const KEY_UNIFORMS[] = {"u_view",         "u_eye",     "u_sort_mode", "u_sort_key_shift",
                                           "u_trail_ring",   "u_entries", "u_ribbon",    "u_trail_capacity",
                                           "u_spacing",      NULL};
_Static_assert(PLUME_UNIFORM_NAMES_FIT(RECORD_UNIFORMS, trail_record_locations) &&
                   PLUME_UNIFORM_NAMES_FIT(KEY_UNIFORMS, trail_key_locations),
               "a name for each location");
_Static_assert(PLUME_GPU_TRAIL_SUBDIVISIONS == PLUME_TRAIL_SUBDIVISIONS, "the shaders' subdivisions are the API's");
_Static_assert(PLUME_BINDING_TRAIL_HEADERS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_TRAIL_POINTS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TRAIL_PAIRS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TRAIL_CONTROL < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the trail passes use");

enum { TRAIL_GL_OBJECTS = 6 };

uint32_t trails_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const trail_state *t = &s->trail;
    const plume_gl_object all[TRAIL_GL_OBJECTS] = {
        {GL_PROGRAM, t->record_program}, {GL_PROGRAM, t->key_program}, {GL_BUFFER, t->header_buffer},
        {GL_BUFFER, t->point_buffer},    {GL_BUFFER, t->pair_buffer},  {GL_BUFFER, t->control_buffer},
    };
    return plume_list_named_gl_objects(all, TRAIL_GL_OBJECTS, out, capacity);
}

void trails_free(system_state *s) {
    plume_sorter_destroy(s->context, s->trail.sorter); /* {0} if it was never made */
    s->trail.sorter = (plume_sorter){0};
}

static uint32_t ring_of(const system_state *s) { return s->desc.trail.points - 1; }

plume_result trails_create(system_state *s) {
    const plume_trail_desc *d = &s->desc.trail;
    if (d->points == 0) return PLUME_OK;
    trail_state *t = &s->trail;
    t->entries = ring_of(s) + (d->hide_particles ? 0 : 1);
    GLsizeiptr capacity = s->desc.capacity;
    plume_result r;
    if ((r = particles_build_compute(s, "plume trails: record", "particles/trail_record.comp", &t->record_program)) ||
        (r = particles_build_compute(s, "plume trails: keys", "particles/trail_keys.comp", &t->key_program)) ||
        (r = particles_create_buffer(s, capacity * 16, NULL, "plume trails: headers", &t->header_buffer)) ||
        (r = particles_create_buffer(s, capacity * ring_of(s) * 16, NULL, "plume trails: points",
                                     &t->point_buffer)) ||
        (r = particles_create_buffer(s, capacity * t->entries * PLUME_PAIR_BYTES, NULL, "plume trails: pairs",
                                     &t->pair_buffer)) ||
        (r = particles_create_buffer(s, 4 * PLUME_TRAIL_CONTROL_WORDS, NULL, "plume trails: control",
                                     &t->control_buffer)))
        return r;
    plume_find_uniform_locations(t->record_program, RECORD_UNIFORMS, t->record.at);
    plume_find_uniform_locations(t->key_program, KEY_UNIFORMS, t->keys.at);
    plume_sorter_desc sorter = {.capacity = (uint32_t)capacity * t->entries, .logger = s->env.logger,
                                .allocator = s->env.allocator, .path = s->desc.path,
                                .key_bits = s->desc.sort_key_bits};
    return plume_sorter_create(s->context, &sorter, &t->sorter);
}

void trails_reset(system_state *s) {
    if (!s->trail.header_buffer) return;
    /* A zero header has no point: the record pass starts a trail there. */
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->trail.header_buffer);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static void bind_history(const system_state *s) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAIL_HEADERS, s->trail.header_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAIL_POINTS, s->trail.point_buffer);
    particle_bind_storage(PLUME_BINDING_MOTION, s->motion);
}

static GLuint groups_for(uint32_t count) { return (count + PLUME_TRAIL_GROUP_SIZE - 1) / PLUME_TRAIL_GROUP_SIZE; }

void trails_record(system_state *s) {
    const trail_state *t = &s->trail;
    if (!t->record_program) return;
    GLuint p = t->record_program;
    glUseProgram(p);
    glProgramUniform1ui(p, t->record.capacity, s->desc.capacity);
    glProgramUniform1i(p, t->record.by_distance, s->desc.trail.spacing_mode == PLUME_TRAIL_SPACING_DISTANCE);
    glProgramUniform1f(p, t->record.spacing, s->desc.trail.spacing);
    glProgramUniform1ui(p, t->record.ring, ring_of(s));
    glProgramUniform1i(p, t->record.ribbon, s->desc.trail.ribbon);
    bind_history(s);
    particle_bind_storage(PLUME_BINDING_TRAITS, s->traits);
    glDispatchCompute(groups_for(s->desc.capacity), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

plume_result trails_sort(system_state *s, const mat4 view, bool sort) {
    const trail_state *t = &s->trail;
    if (!t->key_program) return PLUME_OK;
    GLuint p = t->key_program;
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, t->keys.view, 1, GL_FALSE, &view[0][0]);
    glProgramUniform3fv(p, t->keys.eye, 1, inverse[3]);
    glProgramUniform1ui(p, t->keys.sort_mode, s->desc.sort_mode);
    glProgramUniform1ui(p, t->keys.sort_key_shift, particles_sort_key_shift(&s->desc));
    glProgramUniform1ui(p, t->keys.ring, ring_of(s));
    glProgramUniform1ui(p, t->keys.entries, t->entries);
    glProgramUniform1i(p, t->keys.ribbon, s->desc.trail.ribbon);
    glProgramUniform1ui(p, t->keys.capacity, s->desc.capacity);
    glProgramUniform1f(p, t->keys.spacing, s->desc.trail.spacing);
    bind_history(s);
    particle_bind_storage(PLUME_BINDING_TRAITS, s->traits);
    particles_settle_live_list(s);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, s->live_list_buffer);
    particle_bind_storage(PLUME_BINDING_STATE, s->state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAIL_PAIRS, t->pair_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAIL_CONTROL, t->control_buffer);
    /* At least one invocation: the first writes the counts, zero or not. */
    glDispatchCompute(groups_for(s->sort_bound > 0 ? s->sort_bound : 1), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    if (!sort) return PLUME_OK;
    return sort_indirect_in_scope(s->context, t->sorter, t->pair_buffer, t->control_buffer, 4 * PLUME_TRAIL_SORT_COUNT,
                                  4 * PLUME_TRAIL_CONTROL_WORDS, s->sort_bound * t->entries, true);
}
