/* The simulate pass of a batch as one dispatch over a table of systems
 * (particles_internal.h, "simulate_table.c"; the shader's side is
 * shaders/particles/particle_system_table.glsl).
 *
 * A system fits a table when its step needs nothing the table leaves out:
 * world space (no instance motion), sprites (no spin buffer), no collider,
 * attractor, vector field, depth collision or event route this update; and
 * its block lies within the first TABLE_PAGE_REACH bytes of its page (the
 * page is bound whole, within the GL's least storage block size). The
 * fitting systems of one page go into one table, each a record of what
 * its own dispatch takes from uniforms (its bases in the page, its first
 * workgroup, capacity, forces, time, sort and cull settings), uploaded once
 * through the pool's upload ring; one dispatch of the table program then
 * runs every system's workgroups, each finding its record by binary search
 * over the first workgroups. Every slot of every system gets the same
 * arithmetic in the same workgroup as its own dispatch would give it, so the
 * particles are the same (tests/particles/test_batch.c compares). The
 * table's program is one per context (a look differs only by its mesh, and
 * mesh systems stay out), built at the first batch that has a table. The
 * systems that do not fit run their own dispatch (simulate.c). */
#include <string.h>

#include "particles_internal.h"

enum { TABLE_PAGE_REACH = 16 * 1024 * 1024 }; /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE's least */

/* SystemRecord in particle_system_table.glsl. */
typedef struct table_record {
    uint32_t bases[4];  /* motion vec4, state word, slot key, group count */
    uint32_t counts[4]; /* first workgroup, capacity, sort mode, sort key shift */
    uint32_t flags[4];  /* cull, bounds */
    float gravity_time[4], wind_drag[4], turbulence_radius[4];
} table_record;
_Static_assert(sizeof(table_record) == 96, "a record is SystemRecord's size");

typedef union table_locations {
    struct {
        GLint dt, view, eye, cull_planes, cull_distance, table_count;
    };
    GLint at[6];
} table_locations;
static const char *const TABLE_UNIFORMS[] = {"u_dt", "u_view", "u_eye", "u_cull_planes", "u_cull_distance",
                                             "u_table_count", NULL};

struct simulate_table {
    GLuint program;     /* 0 until the first table */
    table_locations at;
    plume_upload_ring ring;
    table_record *records;
    uint32_t room;
    uint64_t dispatches, systems; /* so far: the lab's counts */
};

void simulate_table_free(const plume_env *env, simulate_table *table) {
    if (!table) return;
    plume_gl_object owned[1 + PLUME_UPLOAD_RING] = {{GL_PROGRAM, table->program}};
    uint32_t n = 1 + plume_upload_ring_list(&table->ring, owned + 1, PLUME_UPLOAD_RING);
    plume_upload_ring_forget(&table->ring);
    plume_delete_gl_objects(env, owned, n);
    plume_free(env, table->records);
    plume_free(env, table);
}

uint32_t simulate_table_list(const simulate_table *table, plume_gl_object *out, uint32_t capacity) {
    if (!table) return 0;
    plume_gl_object all[1 + PLUME_UPLOAD_RING] = {{GL_PROGRAM, table->program}};
    uint32_t n = 1 + plume_upload_ring_list(&table->ring, all + 1, PLUME_UPLOAD_RING);
    return plume_list_named_gl_objects(all, n, out, capacity);
}

#ifdef PLUME_LAB
#include "plume_lab.h"
static bool lab_table_off;
void plume_lab_batch_simulate_table(bool on) { lab_table_off = !on; }
#else
enum { lab_table_off = 0 };
#endif

static bool fits(system_state *s, const plume_frame_desc *frame) {
    return !s->fragment && s->desc.simulation_space != PLUME_SPACE_LOCAL && s->desc.meshes.count == 0 &&
           s->pool_block.offset + s->pool_block.size <= TABLE_PAGE_REACH && world_quiet_in_simulate(s, frame);
}

/* The pool's table, its program built and `count` records' room; NULL
 * where memory or the build failed (the systems then run their own). */
static simulate_table *ready_table(plume_context *context, uint32_t count) {
    const plume_env *env = plume_context_env(context);
    simulate_table **slot = particle_pool_table(context);
    if (!slot) return NULL;
    if (!*slot && !(*slot = plume_alloc(env, sizeof **slot))) return NULL;
    simulate_table *t = *slot;
    if (!t->program) {
        plume_shader_stage stage = {GL_COMPUTE_SHADER, "particles/particle_simulate.comp"};
        if (plume_build_program(env, "plume particles: simulate over a table of systems", &stage, 1,
                                "#define PLUME_SYSTEM_TABLE 1\n", &t->program) != PLUME_OK)
            return NULL;
        plume_find_uniform_locations(t->program, TABLE_UNIFORMS, t->at.at);
        plume_upload_ring_create(env, &t->ring, (GLsizeiptr)sizeof(table_record) * count, NULL,
                                 "plume particles: simulate table");
    }
    if (t->room < count) {
        table_record *grown = plume_realloc(env, t->records, sizeof *grown * count);
        if (!grown) return NULL;
        t->records = grown;
        t->room = count;
    }
    return t;
}

static table_record record_of(const system_state *s, uint32_t first_group) {
    const plume_forces *f = &s->desc.forces;
    bool boxed = s->bounds.wanted || s->desc.self_shadow.strength > 0.0f;
    return (table_record){
        .bases = {(uint32_t)(s->motion.offset / 16), (uint32_t)(s->state.offset / 4),
                  (uint32_t)(s->slot_keys.offset / PLUME_PAIR_BYTES),
                  (uint32_t)(s->group_counts.offset / PLUME_GROUP_COUNT_BYTES)},
        .counts = {first_group, s->desc.capacity, (uint32_t)s->desc.sort_mode, particles_sort_key_shift(&s->desc)},
        .flags = {s->update_culls, boxed && !s->bounds.lab_disabled, 0, 0},
        .gravity_time = {f->gravity[0], f->gravity[1], f->gravity[2], (float)s->time},
        .wind_drag = {f->wind[0], f->wind[1], f->wind[2], f->drag},
        .turbulence_radius = {f->turbulence, f->turbulence_scale, f->turbulence_speed,
                              mesh_cull_radius(s, s->cull_radius)},
    };
}

/* One page's table: its records, the frame's uniforms, one dispatch. */
static void dispatch_page(simulate_table *t, system_state *const *page, uint32_t count,
                          const plume_frame_desc *frame, const mat4 view, const mat4 projection) {
    uint32_t groups = 0;
    GLintptr reach = 0;
    bool culls = false;
    for (uint32_t i = 0; i < count; ++i) {
        t->records[i] = record_of(page[i], groups);
        groups += particles_simulate_groups(page[i]);
        GLintptr end = page[i]->pool_block.offset + page[i]->pool_block.size;
        if (end > reach) reach = end;
        culls = culls || page[i]->update_culls;
    }
    GLuint buffer = page[0]->pool_block.buffer;
    static const GLuint PAGE_BINDINGS[] = {PLUME_BINDING_MOTION, PLUME_BINDING_TRAITS, PLUME_BINDING_STATE,
                                           PLUME_BINDING_SLOT_KEYS, PLUME_BINDING_GROUP_COUNTS};
    for (size_t b = 0; b < sizeof PAGE_BINDINGS / sizeof PAGE_BINDINGS[0]; ++b)
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PAGE_BINDINGS[b], buffer, 0, reach);
    GLuint records = plume_upload_ring_write(&t->ring, GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)sizeof *t->records * count,
                                             t->records);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LOCAL_MOTION, records);
    GLuint p = t->program;
    glUseProgram(p);
    glProgramUniform1f(p, t->at.dt, frame->dt);
    glProgramUniformMatrix4fv(p, t->at.view, 1, GL_FALSE, &view[0][0]);
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    glProgramUniform3f(p, t->at.eye, inverse[3][0], inverse[3][1], inverse[3][2]);
    if (culls) {
        float planes[PLUME_CULL_PLANES][4];
        particles_frustum_planes(view, projection, planes);
        glProgramUniform4fv(p, t->at.cull_planes, PLUME_CULL_PLANES, &planes[0][0]);
        glProgramUniform1f(p, t->at.cull_distance, frame->cull_distance);
    }
    glProgramUniform1ui(p, t->at.table_count, count);
    glDispatchCompute(groups, 1, 1);
    ++t->dispatches;
    t->systems += count;
}

void simulate_table_counts(const simulate_table *table, uint64_t *dispatches, uint64_t *systems) {
    *dispatches = table ? table->dispatches : 0;
    *systems = table ? table->systems : 0;
}

uint32_t simulate_table_run(system_state *const *systems, uint32_t count, const plume_frame_desc *frame,
                            const mat4 view, const mat4 projection, system_state **fitting) {
    uint32_t fit = 0;
    for (uint32_t i = 0; i < count; ++i) {
        systems[i]->table_simulated = false;
        if (fits(systems[i], frame)) fitting[fit++] = systems[i];
    }
    if (fit < 2 || lab_table_off) return 0; /* one system: its own dispatch is the same one */
    simulate_table *t = ready_table(systems[0]->context, fit);
    if (!t) return 0;
    /* A page at a time, in the list's order within it. */
    uint32_t done = 0;
    while (done < fit) {
        GLuint page = fitting[done]->pool_block.buffer;
        uint32_t same = done;
        for (uint32_t i = done; i < fit; ++i)
            if (fitting[i]->pool_block.buffer == page) {
                system_state *s = fitting[i];
                memmove(&fitting[same + 1], &fitting[same], sizeof *fitting * (i - same));
                fitting[same++] = s;
            }
        dispatch_page(t, fitting + done, same - done, frame, view, projection);
        for (uint32_t i = done; i < same; ++i) fitting[i]->table_simulated = true;
        done = same;
    }
    return fit;
}
