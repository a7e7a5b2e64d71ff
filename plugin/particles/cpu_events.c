/* Events to the CPU (plume_cpu_events_desc, plume_system_poll_events, since
 * 1.3): deaths, collisions and route triggers read back without a stall.
 *
 * Each update, after the compaction, particle_cpu_events.comp writes the
 * update's records in slot order into the record buffer (at most the
 * budget), which the update copies with glCopyBufferSubData into the next
 * free readback buffer of a ring, then places a fence. Nothing on the CPU
 * waits: the fences are checked with a zero timeout, by the poll and by
 * each update (so a ring whose copies have landed frees itself even when
 * the caller polls late), and a landed readback's records move to a CPU
 * queue, from which the poll hands them out. Where every readback buffer
 * is still in flight the update copies nothing; its scan pass adds its
 * record count to a sum in the record buffer's header, which the next copy
 * carries, so the drop is counted exactly and still without a wait.
 * Readback buffers are mapped persistently where the GL has buffer storage
 * (4.4), else read with glGetBufferSubData once their fence has signalled. */
#include <string.h>

#include "particles_internal.h"

_Static_assert(PLUME_MAX_INSTANCES <= (1u << 20), "an instance fits the 20 bits above a record's kind, emitter and route");

_Static_assert(PLUME_CPU_EVENT_DEATH == PLUME_PARTICLE_EVENT_DEATH &&
                   PLUME_CPU_EVENT_COLLISION == PLUME_PARTICLE_EVENT_COLLISION &&
                   PLUME_CPU_EVENT_ROUTE == PLUME_PARTICLE_EVENT_ROUTE,
               "the shader's kinds are the API's");
_Static_assert(PLUME_CPU_EVENT_RECORD_BYTES == 4 * PLUME_CPU_EVENT_HEADER_WORDS, "the header is one record long");
_Static_assert(PLUME_MAX_EMITTERS <= 16 && PLUME_MAX_EVENT_ROUTES <= 16, "an emitter and a route fit 4 bits of a record");
_Static_assert(PLUME_BINDING_CPU_EVENTS < PLUME_SCOPE_SSBO_SLOTS, "the GL state scope restores the record binding");

enum { HEADER_BYTES = 4 * PLUME_CPU_EVENT_HEADER_WORDS };

static const char *const UNIFORMS[] = {"u_capacity", "u_groups",      "u_kinds",  "u_emitters", "u_budget",
                                       "u_skip",     "u_route_count", "u_routes", NULL};
_Static_assert(PLUME_UNIFORM_NAMES_FIT(UNIFORMS, cpu_events_locations), "a name for each location");

bool cpu_events_enabled(const system_state *s) { return s->cpu_events.record_buffer != 0; }

static uint32_t simulate_groups(const system_state *s) {
    return (s->desc.capacity + PLUME_SIMULATE_GROUP_SIZE - 1) / PLUME_SIMULATE_GROUP_SIZE;
}

static GLsizeiptr readback_bytes(const system_state *s) {
    return HEADER_BYTES + (GLsizeiptr)s->desc.cpu_events.budget * PLUME_CPU_EVENT_RECORD_BYTES;
}

#ifdef PLUME_LAB
#include "plume_lab.h"

static bool lab_read_by_copy;
void plume_lab_cpu_events_read_by_copy(bool on) { lab_read_by_copy = on; }
#endif

static bool has_persistent_mapping(void) {
#ifdef PLUME_LAB
    if (lab_read_by_copy) return false;
#endif
    return epoxy_gl_version() >= 44 || epoxy_has_gl_extension("GL_ARB_buffer_storage");
}

/* ---- Creation and the end ------------------------------------------------------ */

static plume_result build_programs(system_state *s) {
    static const char *const LABELS[CPU_EVENTS_PASSES] = {
        "plume particles: cpu events count", "plume particles: cpu events scan", "plume particles: cpu events write"};
    cpu_events_state *e = &s->cpu_events;
    for (int pass = 0; pass < CPU_EVENTS_PASSES; ++pass) {
        char defines[80];
        snprintf(defines, sizeof defines, "#define CPU_EVENTS_PASS %d\n#define PARTICLE_TRAITS_ACCESS readonly\n", pass);
        plume_shader_stage stage = {GL_COMPUTE_SHADER, "particles/particle_cpu_events.comp"};
        plume_result r = plume_build_program(&s->env, LABELS[pass], &stage, 1, defines, &e->programs[pass]);
        if (r != PLUME_OK) return r;
        plume_find_uniform_locations(e->programs[pass], UNIFORMS, e->at[pass].at);
    }
    return PLUME_OK;
}

static void create_readback(system_state *s, cpu_events_readback *slot, bool persistent) {
    GLsizeiptr bytes = readback_bytes(s);
    const char *label = "plume particles: cpu events readback";
    if (!persistent) {
        slot->buffer = plume_make_buffer(&s->env, bytes, NULL, GL_STREAM_READ, label);
        return;
    }
    /* Immutable storage, which plume_make_buffer does not make: the copies
     * into it write every byte the CPU reads. */
    glGenBuffers(1, &slot->buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, slot->buffer);
    plume_label_gl_object(&s->env, GL_BUFFER, slot->buffer, label);
    const GLbitfield access = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    /* Client storage: the CPU reads it, the GPU only copies into it. */
    glBufferStorage(GL_COPY_WRITE_BUFFER, bytes, NULL, access | GL_CLIENT_STORAGE_BIT);
    slot->mapped = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, bytes, access);
}

/* Binds GL_COPY_WRITE_BUFFER: the caller's scope restores it. */
plume_result cpu_events_create(system_state *s) {
    cpu_events_state *e = &s->cpu_events;
    if (s->desc.cpu_events.kinds == 0) return PLUME_OK;
    plume_result r = build_programs(s);
    if (r != PLUME_OK) return r;
    e->queue_capacity = PLUME_EVENT_READBACK_DEPTH * s->desc.cpu_events.budget;
    e->queue = plume_alloc(&s->env, (size_t)e->queue_capacity * sizeof *e->queue);
    bool persistent = has_persistent_mapping();
    if (!persistent) e->staging = plume_alloc(&s->env, (size_t)readback_bytes(s));
    if (!e->queue || (!persistent && !e->staging)) return PLUME_ERROR_OUT_OF_MEMORY;
    e->record_buffer = plume_make_gpu_buffer(&s->env, readback_bytes(s), "plume particles: cpu event records");
    e->group_counts_buffer =
        plume_make_gpu_buffer(&s->env, (GLsizeiptr)simulate_groups(s) * 4, "plume particles: cpu events per workgroup");
    for (int i = 0; i < PLUME_EVENT_READBACK_DEPTH; ++i) create_readback(s, &e->ring[i], persistent);
    r = plume_drain_gl_errors(&s->env, "plume_system_create (cpu events)");
    for (int i = 0; i < PLUME_EVENT_READBACK_DEPTH && r == PLUME_OK; ++i)
        if (persistent && !e->ring[i].mapped) r = PLUME_ERROR_GL;
    return r;
}

uint32_t cpu_events_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const cpu_events_state *e = &s->cpu_events;
    const plume_gl_object all[CPU_EVENTS_PASSES + 2 + PLUME_EVENT_READBACK_DEPTH] = {
        {GL_PROGRAM, e->programs[0]},      {GL_PROGRAM, e->programs[1]},        {GL_PROGRAM, e->programs[2]},
        {GL_BUFFER, e->record_buffer},     {GL_BUFFER, e->group_counts_buffer}, {GL_BUFFER, e->ring[0].buffer},
        {GL_BUFFER, e->ring[1].buffer},    {GL_BUFFER, e->ring[2].buffer},      {GL_BUFFER, e->ring[3].buffer},
    };
    _Static_assert(PLUME_EVENT_READBACK_DEPTH == 4, "every readback buffer listed");
    return plume_list_named_gl_objects(all, sizeof all / sizeof all[0], out, capacity);
}

static void forget_in_flight(cpu_events_state *e) {
    for (int i = 0; i < PLUME_EVENT_READBACK_DEPTH; ++i) {
        if (e->ring[i].fence) glDeleteSync(e->ring[i].fence);
        e->ring[i].fence = NULL;
    }
    e->ring_first = e->ring_count = 0;
}

void cpu_events_free(system_state *s) {
    cpu_events_state *e = &s->cpu_events;
    forget_in_flight(e);
    plume_free(&s->env, e->queue);
    plume_free(&s->env, e->staging);
    e->queue = NULL;
    e->staging = NULL;
}

/* Through the generic shader storage binding, which every scope restores. */
void cpu_events_reset(system_state *s) {
    cpu_events_state *e = &s->cpu_events;
    if (!cpu_events_enabled(s)) return;
    forget_in_flight(e);
    e->queue_first = e->queue_count = 0;
    e->skipped_seen = 0;
    e->dropped_budget = e->dropped_in_flight = e->dropped_queue = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, e->record_buffer);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, HEADER_BYTES, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* ---- Taking the readbacks that have landed --------------------------------------- */

static void queue_record(cpu_events_state *e, const unsigned char *bytes, uint64_t update) {
    if (e->queue_count == e->queue_capacity) {
        ++e->dropped_queue;
        return;
    }
    float words[8];
    memcpy(words, bytes, sizeof words);
    uint32_t id, packed;
    memcpy(&id, &words[3], sizeof id);
    memcpy(&packed, &words[7], sizeof packed);
    plume_particle_event *out = &e->queue[(e->queue_first + e->queue_count++) % e->queue_capacity];
    *out = (plume_particle_event){.position = {words[0], words[1], words[2]},
                                  .kind = packed & 0xFu,
                                  .velocity = {words[4], words[5], words[6]},
                                  .particle_id = id,
                                  .emitter = (packed >> 4) & 0xFu,
                                  .route = (packed >> 8) & 0xFu,
                                  .instance = packed >> 12,
                                  .update = update};
}

/* The oldest readback's records into the queue and its counts into the
 * drops, if its fence has signalled (checked without waiting); false if not. */
static bool take_oldest(system_state *s) {
    cpu_events_state *e = &s->cpu_events;
    cpu_events_readback *slot = &e->ring[e->ring_first];
    GLenum status = glClientWaitSync(slot->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    if (status != GL_ALREADY_SIGNALED && status != GL_CONDITION_SATISFIED) return false;
    glDeleteSync(slot->fence);
    slot->fence = NULL;
    e->ring_first = (e->ring_first + 1) % PLUME_EVENT_READBACK_DEPTH;
    --e->ring_count;
    const unsigned char *bytes = slot->mapped;
    if (!bytes) {
        glBindBuffer(GL_COPY_READ_BUFFER, slot->buffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, HEADER_BYTES, e->staging);
        bytes = e->staging;
    }
    uint32_t header[PLUME_CPU_EVENT_HEADER_WORDS];
    memcpy(header, bytes, sizeof header);
    uint32_t requested = header[PLUME_CPU_EVENT_REQUESTED], budget = s->desc.cpu_events.budget;
    uint32_t written = requested < budget ? requested : budget;
    if (!slot->mapped && written > 0) /* only the records there are */
        glGetBufferSubData(GL_COPY_READ_BUFFER, HEADER_BYTES, (GLsizeiptr)written * PLUME_CPU_EVENT_RECORD_BYTES,
                           e->staging + HEADER_BYTES);
    e->dropped_budget += requested - written;
    e->dropped_in_flight += header[PLUME_CPU_EVENT_SKIPPED] - e->skipped_seen;
    e->skipped_seen = header[PLUME_CPU_EVENT_SKIPPED];
    for (uint32_t i = 0; i < written; ++i)
        queue_record(e, bytes + HEADER_BYTES + (size_t)i * PLUME_CPU_EVENT_RECORD_BYTES, slot->update);
    return true;
}

/* Every landed readback, oldest first, up to the first still in flight.
 * Binds GL_COPY_READ_BUFFER without persistent mapping: the caller's scope
 * saved PLUME_SCOPE_COPY_BUFFERS. */
static void take_landed(system_state *s) {
    while (s->cpu_events.ring_count > 0 && take_oldest(s)) {
    }
}

/* ---- The update's passes -------------------------------------------------------- */

void cpu_events_set_routes(system_state *s, int route_count, const GLuint routes[][4]) {
    cpu_events_state *e = &s->cpu_events;
    if (!cpu_events_enabled(s)) return;
    for (int pass = 0; pass < CPU_EVENTS_PASSES; pass += 2) {
        glProgramUniform1i(e->programs[pass], e->at[pass].route_count, route_count);
        if (route_count > 0) glProgramUniform4uiv(e->programs[pass], e->at[pass].routes, route_count, &routes[0][0]);
    }
}

static void set_pass_uniforms(system_state *s, int pass, bool skip) {
    const cpu_events_state *e = &s->cpu_events;
    const plume_cpu_events_desc *d = &s->desc.cpu_events;
    GLuint program = e->programs[pass];
    const cpu_events_locations *l = &e->at[pass];
    glUseProgram(program);
    glProgramUniform1ui(program, l->capacity, s->desc.capacity);
    glProgramUniform1ui(program, l->groups, simulate_groups(s));
    glProgramUniform1ui(program, l->kinds, d->kinds);
    glProgramUniform1ui(program, l->emitters, d->source_emitters);
    glProgramUniform1ui(program, l->budget, d->budget);
    glProgramUniform1i(program, l->skip, skip);
}

/* The motion, traits and slot outcomes are still bound from simulate. */
void cpu_events_record(system_state *s, uint64_t update) {
    cpu_events_state *e = &s->cpu_events;
    if (!cpu_events_enabled(s)) return;
    take_landed(s);
    bool skip = e->ring_count == PLUME_EVENT_READBACK_DEPTH;
    uint32_t groups = simulate_groups(s);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_CPU_EVENTS, e->record_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_COUNTS, e->group_counts_buffer);
    set_pass_uniforms(s, 0, skip);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    set_pass_uniforms(s, 1, skip);
    glDispatchCompute(1, 1, 1);
    if (skip) {
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        return;
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    set_pass_uniforms(s, 2, skip);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    cpu_events_readback *slot = &e->ring[(e->ring_first + e->ring_count) % PLUME_EVENT_READBACK_DEPTH];
    glBindBuffer(GL_COPY_READ_BUFFER, e->record_buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, slot->buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, readback_bytes(s));
    if (slot->mapped) glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    slot->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    slot->update = update;
    ++e->ring_count;
}

/* ---- The poll ------------------------------------------------------------------- */

plume_result plume_system_poll_events(plume_context *context, plume_system handle, plume_particle_event *out,
                                      uint32_t max, plume_event_poll_info *info) {
    static const char *CALLER = "plume_system_poll_events";
    if (info) *info = (plume_event_poll_info){0};
    system_state *s = particles_find_system_with(context, handle, CALLER, info, "info");
    if (!s) return PLUME_ERROR_INVALID_ARGUMENT;
    if (!out && max > 0) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: out must not be NULL when max (%u) is above 0", CALLER, max);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (!cpu_events_enabled(s)) {
        plume_log(&s->env, PLUME_LOG_ERROR,
                  "%s: the system was created without cpu_events.kinds, so it reports no events", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (plume_check_gl_context(&s->env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    cpu_events_state *e = &s->cpu_events;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &s->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    take_landed(s);
    plume_gl_scope_end(&scope);
    uint32_t n = e->queue_count < max ? e->queue_count : max;
    for (uint32_t i = 0; i < n; ++i) out[i] = e->queue[(e->queue_first + i) % e->queue_capacity];
    e->queue_first = (e->queue_first + n) % e->queue_capacity;
    e->queue_count -= n;
    *info = (plume_event_poll_info){.delivered = n,
                                    .queued = e->queue_count,
                                    .in_flight = e->ring_count,
                                    .dropped_budget = e->dropped_budget,
                                    .dropped_in_flight = e->dropped_in_flight,
                                    .dropped_queue = e->dropped_queue};
    e->dropped_budget = e->dropped_in_flight = e->dropped_queue = 0;
    return plume_drain_gl_errors(&s->env, CALLER);
}
