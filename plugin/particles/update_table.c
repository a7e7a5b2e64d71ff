/* The passes of a batch as dispatches over a table of systems (update_passes.h,
 * "update_table.c"; the shaders' side is
 * shaders/particles/particle_system_table.glsl).
 *
 * A system fits a table when its step needs nothing the table leaves out:
 * world space (no instance motion), sprites (no spin buffer), no collider,
 * attractor, vector field, depth collision or event route this update; and
 * its block lies within the first TABLE_PAGE_REACH bytes of its page (the
 * page is bound whole, within the GL's least storage block size). The
 * fitting systems are grouped by page, each a record of what its own
 * dispatches take from uniforms (its bases in the page, its first workgroup,
 * capacity, the particles it asks for, where its spawn batches and emitters
 * start, forces, time, sort and cull settings); the records of every page,
 * the step's spawn batches of every system and their emitters are planned
 * once an update, after the CPU's plan of each step, and uploaded together
 * once through the table's upload ring. Then each table pass (prepare,
 * emit, simulate, the compaction's scan and scatter) is one dispatch a page
 * of its table program (the pass's .comp with PLUME_SYSTEM_TABLE), each
 * workgroup taking or finding its record. Every slot of
 * every system gets the same arithmetic in the same workgroup as its own
 * dispatch would give it, so the particles are the same
 * (tests/particles/test_batch.c compares). The scatter writes each
 * system's live list into the table's scratch (the live list is a buffer of
 * the system's own, which a table cannot bind; a scratch the batch's, not a
 * range of each block, so a system never batched pays nothing for it): one
 * copy a system puts it where the sort and the draw read it. The programs are one per context (a look differs only
 * by its mesh, and mesh systems stay out), built at the first batch that has
 * a table; the table and its scratch live on the context's particle pool,
 * grown, never shrunk. The systems that do not fit run their own dispatches
 * (update_passes.c). */
#include <string.h>

#include "update_passes.h"

enum { TABLE_PAGE_REACH = 16 * 1024 * 1024 }; /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE's least */

/* SystemRecord in particle_system_table.glsl. */
typedef struct table_record {
    uint32_t bases[4];  /* motion vec4, state word, slot key, group count */
    uint32_t counts[4]; /* first workgroup, capacity, sort mode, sort key shift */
    uint32_t flags[4];  /* cull, bounds, particles requested, the live list's base in the scratch (in pairs) */
    float gravity_time[4], wind_drag[4], turbulence_radius[4];
    uint32_t emit[4];       /* first emit workgroup, first spawn batch, spawn batches, seed */
    uint32_t emit_bases[4]; /* traits, first emitter, tag emitter */
} table_record;
_Static_assert(sizeof(table_record) == 128, "a record is SystemRecord's size");

typedef union table_locations {
    struct {
        GLint first, count, dt, view, eye, cull_planes, cull_distance;
    };
    GLint at[7];
} table_locations;
static const char *const TABLE_UNIFORMS[] = {"u_table_first", "u_table_count", "u_dt", "u_view", "u_eye",
                                             "u_cull_planes", "u_cull_distance", NULL};
_Static_assert(PLUME_UNIFORM_NAMES_FIT(TABLE_UNIFORMS, table_locations), "a name for each location");

/* A table pass's workgroups: one a system, one a simulate workgroup of
 * each, or the emit pass's over each one's requested particles. */
typedef enum table_groups { GROUPS_SYSTEMS, GROUPS_SLOTS, GROUPS_EMITTED } table_groups;
#define TABLE_DEFINES "#define PLUME_SYSTEM_TABLE 1\n"
#define COMPACT_DEFINES "#define PARTICLE_TRAITS_ACCESS readonly\n#define COMPACT_SCAN "
static const struct {
    const char *label, *file, *defines;
    table_groups groups;
} TABLE_PROGRAMS[TABLE_PASSES] = {
    [TABLE_PREPARE] = {"plume particles: prepare over a table of systems", "particles/particle_prepare.comp",
                       TABLE_DEFINES, GROUPS_SYSTEMS},
    [TABLE_EMIT] = {"plume particles: emit over a table of systems", "particles/particle_emit.comp", TABLE_DEFINES,
                    GROUPS_EMITTED},
    [TABLE_SIMULATE] = {"plume particles: simulate over a table of systems", "particles/particle_simulate.comp",
                        TABLE_DEFINES, GROUPS_SLOTS},
    [TABLE_COMPACT_SCAN] = {"plume particles: compact scan over a table of systems", "particles/particle_compact.comp",
                            TABLE_DEFINES COMPACT_DEFINES "1\n", GROUPS_SYSTEMS},
    [TABLE_COMPACT_SCATTER] = {"plume particles: compact scatter over a table of systems",
                               "particles/particle_compact.comp", TABLE_DEFINES COMPACT_DEFINES "0\n", GROUPS_SLOTS},
};

/* The systems of one page: records [first, first + count) of the upload. */
typedef struct table_page {
    GLuint buffer;
    GLintptr reach; /* past the last block of its systems */
    uint32_t first, count, groups, emit_groups;
    bool culls;
} table_page;

/* The update's one upload: the records, then the spawn batches, then the
 * emitters, each from an offset the GL binds. */
enum { UPLOAD_RECORDS, UPLOAD_BATCHES, UPLOAD_EMITTERS, UPLOAD_PARTS };
typedef struct table_upload {
    unsigned char *bytes;
    size_t room;
    GLintptr offsets[UPLOAD_PARTS];
    GLsizeiptr sizes[UPLOAD_PARTS];
} table_upload;

struct update_table {
    GLuint programs[TABLE_PASSES]; /* 0 until the first table */
    table_locations at[TABLE_PASSES];
    plume_upload_ring ring;
    GLuint upload_buffer;    /* this update's upload */
    GLuint live_scratch;     /* the scatter's live lists, every tabled system's capacity of pairs */
    GLsizeiptr live_scratch_bytes;
    GLint alignment;         /* GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT */
    system_state **fitting;  /* this update's tabled systems, page by page */
    /* The systems whose live lists wait in the scratch (those still marked
     * live_list_pending): copied before the scratch is written again. */
    system_state **pending;
    uint32_t pending_count;
    bool defer_copies;       /* GL 4.5's named copies: a waiting copy binds nothing */
    table_page *pages;
    table_upload upload;
    uint32_t room, fit, page_count;
    bool ran[TABLE_PASSES];  /* this update's passes that ran as tables */
    uint64_t dispatches[TABLE_PASSES], systems[TABLE_PASSES]; /* so far: the lab's counts */
};

/* The table's GL objects into `all` (room for TABLE_OBJECTS); returns how many. */
enum { TABLE_OBJECTS = TABLE_PASSES + 1 + PLUME_UPLOAD_RING };
static uint32_t table_objects(const update_table *table, plume_gl_object all[TABLE_OBJECTS]) {
    for (int p = 0; p < TABLE_PASSES; ++p) all[p] = (plume_gl_object){GL_PROGRAM, table->programs[p]};
    all[TABLE_PASSES] = (plume_gl_object){GL_BUFFER, table->live_scratch};
    return TABLE_PASSES + 1 + plume_upload_ring_list(&table->ring, all + TABLE_PASSES + 1, PLUME_UPLOAD_RING);
}

void update_table_free(const plume_env *env, update_table *table) {
    if (!table) return;
    plume_gl_object owned[TABLE_OBJECTS];
    uint32_t n = table_objects(table, owned);
    plume_upload_ring_forget(&table->ring);
    plume_delete_gl_objects(env, owned, n);
    plume_free(env, table->fitting);
    plume_free(env, table->pending);
    plume_free(env, table->pages);
    plume_free(env, table->upload.bytes);
    plume_free(env, table);
}

uint32_t update_table_list(const update_table *table, plume_gl_object *out, uint32_t capacity) {
    if (!table) return 0;
    plume_gl_object all[TABLE_OBJECTS];
    return plume_list_named_gl_objects(all, table_objects(table, all), out, capacity);
}

#ifdef PLUME_LAB
#include "plume_lab.h"
static uint32_t lab_tables = PLUME_LAB_TABLE_ALL;
void plume_lab_batch_tables(uint32_t passes) { lab_tables = passes & PLUME_LAB_TABLE_ALL; }
void plume_lab_batch_simulate_table(bool on) {
    lab_tables = on ? lab_tables | PLUME_LAB_TABLE_SIMULATE : lab_tables & ~(uint32_t)PLUME_LAB_TABLE_SIMULATE;
}
static bool lab_table_on(table_pass pass) {
    static const uint32_t SWITCH[TABLE_PASSES] = {PLUME_LAB_TABLE_PREPARE, PLUME_LAB_TABLE_EMIT,
                                                  PLUME_LAB_TABLE_SIMULATE, PLUME_LAB_TABLE_COMPACTION,
                                                  PLUME_LAB_TABLE_COMPACTION};
    return (lab_tables & SWITCH[pass]) != 0;
}
#else
static bool lab_table_on(table_pass pass) {
    (void)pass;
    return true;
}
#endif

static bool fits(system_state *s, const plume_frame_desc *frame) {
    return !s->fragment && s->desc.simulation_space != PLUME_SPACE_LOCAL && s->desc.meshes.count == 0 &&
           s->pool_block.offset + s->pool_block.size <= TABLE_PAGE_REACH && world_quiet_in_simulate(s, frame);
}

/* Room for `count` systems' list and pages (false: out of memory). */
static bool grow(const plume_env *env, update_table *t, uint32_t count) {
    if (t->room >= count) return true;
    system_state **fitting = plume_realloc(env, t->fitting, sizeof *fitting * count);
    if (fitting) t->fitting = fitting;
    system_state **pending = plume_realloc(env, t->pending, sizeof *pending * count);
    if (pending) t->pending = pending;
    table_page *pages = plume_realloc(env, t->pages, sizeof *pages * count);
    if (pages) t->pages = pages;
    if (!fitting || !pending || !pages) return false;
    t->room = count;
    return true;
}

/* The pool's table, its programs built and room for `count` systems; NULL
 * where memory or a build failed (the systems then run their own). */
static update_table *ready_table(plume_context *context, uint32_t count) {
    const plume_env *env = plume_context_env(context);
    update_table **slot = particle_pool_table(context);
    if (!slot) return NULL;
    if (!*slot && !(*slot = plume_alloc(env, sizeof **slot))) return NULL;
    update_table *t = *slot;
    if (!t->programs[TABLE_PASSES - 1]) {
        for (int p = 0; p < TABLE_PASSES; ++p) {
            if (t->programs[p]) continue;
            plume_shader_stage stage = {GL_COMPUTE_SHADER, TABLE_PROGRAMS[p].file};
            if (plume_build_program(env, TABLE_PROGRAMS[p].label, &stage, 1, TABLE_PROGRAMS[p].defines,
                                    &t->programs[p]) != PLUME_OK)
                return NULL;
            plume_find_uniform_locations(t->programs[p], TABLE_UNIFORMS, t->at[p].at);
        }
        plume_upload_ring_create(env, &t->ring, (GLsizeiptr)sizeof(table_record) * count, NULL,
                                 "plume particles: update table");
        glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &t->alignment);
        if (t->alignment < 16) t->alignment = 16;
        t->defer_copies = plume_env_gl_caps(env).direct_state_access;
    }
    return grow(env, t, count) ? t : NULL;
}

/* The system's record; its first workgroups and where its batches and
 * emitters start, the caller's. */
static table_record record_of(const system_state *s) {
    const plume_forces *f = &s->desc.forces;
    return (table_record){
        .bases = {(uint32_t)(s->motion.offset / 16), (uint32_t)(s->state.offset / 4),
                  (uint32_t)(s->slot_keys.offset / PLUME_PAIR_BYTES),
                  (uint32_t)(s->group_counts.offset / PLUME_GROUP_COUNT_BYTES)},
        .counts = {0, s->desc.capacity, (uint32_t)s->desc.sort_mode, particles_sort_key_shift(&s->desc)},
        .flags = {s->update_culls, bounds_grown(s), s->requested, 0},
        .gravity_time = {f->gravity[0], f->gravity[1], f->gravity[2], (float)s->time},
        .wind_drag = {f->wind[0], f->wind[1], f->wind[2], f->drag},
        .turbulence_radius = {f->turbulence, f->turbulence_scale, f->turbulence_speed,
                              mesh_cull_radius(s, s->cull_radius)},
        .emit = {0, 0, s->spawn.batch_count, s->desc.seed},
        .emit_bases = {(uint32_t)(s->traits.offset / PLUME_TRAITS_BYTES), 0, world_tags_emitter(s)},
    };
}

/* The systems of `fitting` from `first` on that share its page, moved
 * together in the list's order; returns the page. */
static table_page group_page(update_table *t, uint32_t first) {
    table_page page = {.buffer = t->fitting[first]->pool_block.buffer, .first = first};
    for (uint32_t i = first; i < t->fit; ++i) {
        system_state *s = t->fitting[i];
        if (s->pool_block.buffer != page.buffer) continue;
        uint32_t at = first + page.count++;
        memmove(&t->fitting[at + 1], &t->fitting[at], sizeof *t->fitting * (i - at));
        t->fitting[at] = s;
        page.groups += particles_simulate_groups(s);
        GLintptr end = s->pool_block.offset + s->pool_block.size;
        if (end > page.reach) page.reach = end;
        page.culls = page.culls || s->update_culls;
        s->in_table = true;
    }
    return page;
}

update_table *update_table_choose(system_state *const *systems, uint32_t count, const plume_frame_desc *frame) {
    for (uint32_t i = 0; i < count; ++i) systems[i]->in_table = false;
    if (count < 2) return NULL; /* one system: its own dispatches are the same ones */
    update_table *t = ready_table(systems[0]->context, count);
    if (!t) return NULL;
    memset(t->ran, 0, sizeof t->ran);
    t->fit = t->page_count = 0;
    t->upload_buffer = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (fits(systems[i], frame)) t->fitting[t->fit++] = systems[i];
    if (t->fit < 2) return NULL;
    for (uint32_t done = 0; done < t->fit; done += t->pages[t->page_count++].count)
        t->pages[t->page_count] = group_page(t, done);
    return t;
}

bool update_table_takes_emit(const update_table *t, const system_state *s) {
    return t && s->in_table && lab_table_on(TABLE_EMIT);
}

/* The emitters a system's batches name: up to the last of them. */
static uint32_t emitters_named(const system_state *s) {
    uint32_t most = 0;
    for (uint32_t b = 0; b < s->spawn.batch_count; ++b)
        if (s->spawn.batches[b].emitter + 1 > most) most = s->spawn.batches[b].emitter + 1;
    return most;
}

/* Room for `bytes` in the upload (false: out of memory). */
static bool upload_room(const plume_env *env, table_upload *u, size_t bytes) {
    if (u->room >= bytes) return true;
    size_t room = u->room ? u->room : 4096;
    while (room < bytes) room *= 2;
    unsigned char *grown = plume_realloc(env, u->bytes, room);
    if (!grown) return false;
    u->bytes = grown;
    u->room = room;
    return true;
}

/* The update's records, spawn batches and emitters laid out in the upload
 * (the batches and emitters of systems whose emit runs in the table only). */
static bool lay_out_upload(const plume_env *env, update_table *t) {
    table_upload *u = &t->upload;
    uint32_t batches = 0, emitters = 0;
    for (uint32_t i = 0; i < t->fit; ++i) {
        if (!update_table_takes_emit(t, t->fitting[i])) continue;
        batches += t->fitting[i]->spawn.batch_count;
        emitters += emitters_named(t->fitting[i]);
    }
    u->sizes[UPLOAD_RECORDS] = (GLsizeiptr)sizeof(table_record) * t->fit;
    u->sizes[UPLOAD_BATCHES] = (GLsizeiptr)sizeof(spawn_batch) * batches;
    u->sizes[UPLOAD_EMITTERS] = (GLsizeiptr)sizeof(float) * EMITTER_GPU_FLOATS * emitters;
    GLintptr end = 0;
    for (int part = 0; part < UPLOAD_PARTS; ++part) {
        u->offsets[part] = (end + t->alignment - 1) / t->alignment * t->alignment;
        end = u->offsets[part] + u->sizes[part];
    }
    return upload_room(env, u, (size_t)end);
}

/* A scratch of at least `bytes` (grown, never shrunk; false: no buffer). */
static bool grow_live_scratch(update_table *t, GLsizeiptr bytes) {
    if (t->live_scratch_bytes >= bytes) return true;
    const plume_env *env = plume_context_env(t->fitting[0]->context);
    GLsizeiptr size = t->live_scratch_bytes ? t->live_scratch_bytes : 64 * 1024;
    while (size < bytes) size *= 2;
    if (t->live_scratch) glDeleteBuffers(1, &t->live_scratch);
    t->live_scratch = plume_make_gpu_buffer(env, size, "plume particles: a batch's live lists");
    t->live_scratch_bytes = t->live_scratch ? size : 0;
    return t->live_scratch != 0;
}

/* The live lists still waiting in the scratch (systems that this update
 * does not step: a step clears the mark), copied out before it is
 * written again. */
static void settle_pending(update_table *t) {
    for (uint32_t i = 0; i < t->pending_count; ++i) particles_settle_live_list(t->pending[i]);
    t->pending_count = 0;
}

bool update_table_upload(update_table *t) {
    if (!t) return false;
    settle_pending(t);
    table_upload *u = &t->upload;
    if (!lay_out_upload(plume_context_env(t->fitting[0]->context), t)) return false;
    table_record *records = (table_record *)(u->bytes + u->offsets[UPLOAD_RECORDS]);
    spawn_batch *batches = (spawn_batch *)(u->bytes + u->offsets[UPLOAD_BATCHES]);
    float(*emitters)[EMITTER_GPU_FLOATS] = (float(*)[EMITTER_GPU_FLOATS])(u->bytes + u->offsets[UPLOAD_EMITTERS]);
    uint32_t batch_count = 0, emitter_count = 0, live_pairs = 0;
    for (uint32_t p = 0; p < t->page_count; ++p) {
        table_page *page = &t->pages[p];
        uint32_t groups = 0;
        page->emit_groups = 0;
        for (uint32_t i = page->first; i < page->first + page->count; ++i) {
            system_state *s = t->fitting[i];
            table_record r = record_of(s);
            r.counts[0] = groups;
            r.flags[3] = live_pairs;
            live_pairs += s->desc.capacity;
            r.emit[0] = page->emit_groups;
            groups += particles_simulate_groups(s);
            if (update_table_takes_emit(t, s)) {
                r.emit[1] = batch_count;
                r.emit_bases[1] = emitter_count;
                page->emit_groups += (s->requested + PLUME_EMIT_GROUP_SIZE - 1) / PLUME_EMIT_GROUP_SIZE;
                if (s->spawn.batch_count > 0) /* none planned: no array yet */
                    memcpy(batches + batch_count, s->spawn.batches, sizeof *batches * s->spawn.batch_count);
                batch_count += s->spawn.batch_count;
                for (uint32_t e = 0, named = emitters_named(s); e < named; ++e)
                    particles_pack_emitter(&s->desc.emitters[e], emitters[emitter_count++]);
            }
            memcpy(&records[i], &r, sizeof r);
        }
    }
    if (!grow_live_scratch(t, (GLsizeiptr)live_pairs * PLUME_PAIR_BYTES)) return false;
    GLintptr end = u->offsets[UPLOAD_EMITTERS] + u->sizes[UPLOAD_EMITTERS];
    t->upload_buffer = plume_upload_ring_write(&t->ring, GL_SHADER_STORAGE_BUFFER, end, u->bytes);
    return t->upload_buffer != 0;
}

/* The frame's uniforms of the simulate table. */
static void set_frame_uniforms(const update_table *t, const plume_frame_desc *frame, const mat4 view,
                               const mat4 projection) {
    GLuint p = t->programs[TABLE_SIMULATE];
    const table_locations *at = &t->at[TABLE_SIMULATE];
    glProgramUniform1f(p, at->dt, frame->dt);
    glProgramUniformMatrix4fv(p, at->view, 1, GL_FALSE, &view[0][0]);
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    glProgramUniform3f(p, at->eye, inverse[3][0], inverse[3][1], inverse[3][2]);
    bool culls = false;
    for (uint32_t i = 0; i < t->page_count; ++i) culls = culls || t->pages[i].culls;
    if (!culls) return;
    float planes[PLUME_CULL_PLANES][4];
    particles_frustum_planes(view, projection, planes);
    glProgramUniform4fv(p, at->cull_planes, PLUME_CULL_PLANES, &planes[0][0]);
    glProgramUniform1f(p, at->cull_distance, frame->cull_distance);
}

/* What every table pass reads: the page whole at each range's binding, the
 * update's records where simulate's local motion goes (particle_system_table.glsl),
 * the spawn batches and emitters where the emit pass reads its own, the
 * live lists' scratch at the draw list's number (particle_compact.comp). */
static void bind_page(const update_table *t, const table_page *page) {
    static const GLuint PAGE_BINDINGS[] = {PLUME_BINDING_MOTION, PLUME_BINDING_TRAITS, PLUME_BINDING_STATE,
                                           PLUME_BINDING_SLOT_KEYS, PLUME_BINDING_GROUP_COUNTS};
    for (size_t b = 0; b < sizeof PAGE_BINDINGS / sizeof PAGE_BINDINGS[0]; ++b)
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PAGE_BINDINGS[b], page->buffer, 0, page->reach);
    static const GLuint UPLOAD_BINDINGS[UPLOAD_PARTS] = {PLUME_BINDING_LOCAL_MOTION, PLUME_BINDING_SPAWN_BATCHES,
                                                         PLUME_BINDING_EMITTERS};
    for (int part = 0; part < UPLOAD_PARTS; ++part)
        if (t->upload.sizes[part] > 0)
            glBindBufferRange(GL_SHADER_STORAGE_BUFFER, UPLOAD_BINDINGS[part], t->upload_buffer,
                              t->upload.offsets[part], t->upload.sizes[part]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, t->live_scratch);
}

bool update_table_dispatch(update_table *t, table_pass pass, const plume_frame_desc *frame, const mat4 view,
                           const mat4 projection) {
    if (!t || !t->upload_buffer || !lab_table_on(pass)) return false;
    GLuint p = t->programs[pass];
    glUseProgram(p);
    if (pass == TABLE_SIMULATE) set_frame_uniforms(t, frame, view, projection);
    for (uint32_t i = 0; i < t->page_count; ++i) {
        const table_page *page = &t->pages[i];
        table_groups kind = TABLE_PROGRAMS[pass].groups;
        uint32_t groups = kind == GROUPS_SYSTEMS ? page->count : kind == GROUPS_SLOTS ? page->groups : page->emit_groups;
        if (groups == 0) continue; /* no system of the page emits */
        bind_page(t, page);
        glProgramUniform1ui(p, t->at[pass].first, page->first);
        glProgramUniform1ui(p, t->at[pass].count, page->count);
        particles_dispatch(groups);
        ++t->dispatches[pass];
        t->systems[pass] += page->count;
    }
    t->ran[pass] = true;
    return true;
}

uint32_t update_table_fit(const update_table *t) { return t ? t->fit : 0; }

bool update_table_ran(const update_table *t, const system_state *s, table_pass pass) {
    return t && s->in_table && t->ran[pass];
}

void update_table_finish_live_lists(update_table *t) {
    if (!t || !t->ran[TABLE_COMPACT_SCATTER]) return;
    if (!t->defer_copies) glBindBuffer(GL_COPY_READ_BUFFER, t->live_scratch);
    const table_record *records = (const table_record *)(t->upload.bytes + t->upload.offsets[UPLOAD_RECORDS]);
    for (uint32_t i = 0; i < t->fit; ++i) {
        system_state *s = t->fitting[i];
        /* The drawn count is at most the bound (0: nothing to copy). */
        if (s->sort_bound == 0) continue;
        s->live_scratch_first = records[i].flags[3];
        if (t->defer_copies) {
            s->live_list_pending = true;
            t->pending[t->pending_count++] = s;
            continue;
        }
        glBindBuffer(GL_COPY_WRITE_BUFFER, s->live_list_buffer);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
                            (GLintptr)s->live_scratch_first * PLUME_PAIR_BYTES, 0,
                            (GLsizeiptr)s->sort_bound * PLUME_PAIR_BYTES);
    }
}

void particles_settle_live_list(system_state *s) {
    if (!s->live_list_pending) return;
    s->live_list_pending = false;
    update_table **slot = particle_pool_table(s->context);
    if (!slot || !*slot) return; /* marked only by a table */
    glCopyNamedBufferSubData((*slot)->live_scratch, s->live_list_buffer,
                             (GLintptr)s->live_scratch_first * PLUME_PAIR_BYTES, 0,
                             (GLsizeiptr)s->sort_bound * PLUME_PAIR_BYTES);
}

void update_table_forget(system_state *s) {
    update_table **slot = particle_pool_table(s->context);
    update_table *t = slot ? *slot : NULL;
    s->live_list_pending = false;
    for (uint32_t i = 0; t && i < t->pending_count; ++i)
        if (t->pending[i] == s) t->pending[i--] = t->pending[--t->pending_count];
}

void update_table_counts(const update_table *table, uint64_t dispatches[TABLE_PASSES],
                         uint64_t systems[TABLE_PASSES]) {
    for (int p = 0; p < TABLE_PASSES; ++p) {
        dispatches[p] = table ? table->dispatches[p] : 0;
        systems[p] = table ? table->systems[p] : 0;
    }
}
_Static_assert(TABLE_PASSES == sizeof((particle_pool_usage_counts *)0)->table_pass_dispatches / sizeof(uint64_t),
               "the pool's counts have one a table pass");

uint32_t update_table_pages(const update_table *table) { return table ? table->page_count : 0; }
