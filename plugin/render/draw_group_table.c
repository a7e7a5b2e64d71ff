/* A draw group's gathers over tables of systems (draw_group_internal.h;
 * the shader is shaders/render/draw_group_table.comp), the pattern of the
 * batch update's tables (particles/update_table.c).
 *
 * Each system's own gather costs the CPU a copy of its drawn count, its
 * bindings, some forty appearance uniforms and a dispatch: at two hundred
 * small systems, most of a frame. A system whose particles lie in one page
 * of the context's particle pool (every compute-path system's do) and that
 * draws sprites only (a trail system's segments have a gather of their own)
 * gets instead a record in the group's table, written once when the group is
 * made: a pool block never moves and an appearance never changes, so a draw
 * uploads nothing. The records are ordered by page; per page one dispatch
 * copies the systems' drawn counts into the group's state (before the
 * prepare pass scans them) and one gathers them, a workgroup a system, the
 * page bound whole. So a draw's GL calls grow with the pages, not with the
 * systems. Where fewer than two systems fit, the group has no table. */
#include <string.h>

#include "render/draw_group_internal.h"

enum {
    /* A tabled system's gather is one workgroup walking its slots: past
     * this capacity its own dispatch (a workgroup per 256 drawn) is faster. */
    TABLE_MOST_CAPACITY = 4096,
    TABLE_COUNTS_GROUP_SIZE = 64 /* draw_group_table.comp's counts variant */
};

/* TableLook in draw_group_table.comp (std430). */
typedef struct table_look {
    float size_times[PLUME_MAX_CURVE_KEYS], size_values[PLUME_MAX_CURVE_KEYS];
    float opacity_times[PLUME_MAX_CURVE_KEYS], opacity_values[PLUME_MAX_CURVE_KEYS];
    float additive_times[PLUME_MAX_CURVE_KEYS], additive_values[PLUME_MAX_CURVE_KEYS];
    float color_times[PLUME_MAX_CURVE_KEYS], color_values[PLUME_MAX_CURVE_KEYS][4];
    float emissive_times[PLUME_MAX_CURVE_KEYS], emissive_values[PLUME_MAX_CURVE_KEYS][4];
    int32_t counts[4];   /* keys: size, opacity, additive, colour */
    uint32_t look[4];    /* emissive keys, orientation, flipbook columns, rows */
    uint32_t system[4];  /* frame blend, index in the group, first record, capacity */
    float orientation_axis[4], stretch[4];
    uint32_t place[4];   /* bases in the page: motion vec4, traits record, slot key, state word */
} table_look;
_Static_assert(sizeof(table_look) == 608 && PLUME_MAX_CURVE_KEYS == PLUME_GPU_MAX_CURVE_KEYS,
               "a record is TableLook's size");

/* The gather's uniforms: the camera's in set_gather_camera's order first. */
enum {
    TG_VIEW, TG_CAMERA_RIGHT, TG_CAMERA_UP, TG_EYE, TG_BY_DISTANCE, TG_LIGHT_DIRECTION, TG_TABLE_FIRST,
    TG_TABLE_COUNT, TG_SYSTEM_COUNT, TG_UNIFORMS
};
static const char *const GATHER_NAMES[TG_UNIFORMS + 1] = {
    "u_view", "u_camera_right", "u_camera_up", "u_eye", "u_by_distance", "u_light_direction", "u_table_first",
    "u_table_count", "u_system_count", NULL};
enum { TC_TABLE_FIRST, TC_TABLE_COUNT, TC_UNIFORMS };
static const char *const COUNT_NAMES[TC_UNIFORMS + 1] = {"u_table_first", "u_table_count", NULL};

typedef struct table_page {
    GLuint buffer;
    GLsizeiptr reach; /* the page's bytes its systems' ranges reach: bound from 0 */
    uint32_t first, count;
} table_page;

struct group_table {
    GLuint count_program, gather_program, looks_buffer;
    GLint count_at[TC_UNIFORMS], gather_at[TG_UNIFORMS];
    uint32_t page_count, systems;
    table_page *pages;
    bool *tabled; /* per system of the group */
};

#ifdef PLUME_LAB
#include "plume_lab.h"
static bool lab_table_off;
void plume_lab_batch_draw_table(bool on) { lab_table_off = !on; }
#else
enum { lab_table_off = 0 };
#endif

static uint32_t list_table(const group_table *t, plume_gl_object out[3]) {
    out[0] = (plume_gl_object){GL_PROGRAM, t->count_program};
    out[1] = (plume_gl_object){GL_PROGRAM, t->gather_program};
    out[2] = (plume_gl_object){GL_BUFFER, t->looks_buffer};
    return 3;
}

uint32_t group_table_list_gl_objects(const group_state *g, plume_gl_object *out, uint32_t capacity) {
    if (!g->table) return 0;
    plume_gl_object all[3];
    return plume_list_named_gl_objects(all, list_table(g->table, all), out, capacity);
}

void group_table_free(group_state *g) {
    if (!g->table) return;
    plume_gl_object owned[3];
    plume_delete_gl_objects(&g->env, owned, list_table(g->table, owned));
    plume_free(&g->env, g->table);
    g->table = NULL;
}

bool group_table_gathers(const group_state *g, uint32_t i) {
    return g->table && !lab_table_off && g->table->tabled[i];
}

/* Whether `v`'s storage can be read from its page bound whole, as words of
 * each record's size, within the GL's largest block. */
static bool fits(const particle_view *v, GLint64 largest_block) {
    const particle_range ranges[4] = {v->motion, v->traits, v->slot_keys, v->state};
    const GLintptr units[4] = {16, PLUME_TRAITS_BYTES, PLUME_PAIR_BYTES, 4};
    if (v->trail.entries || v->desc->capacity > TABLE_MOST_CAPACITY) return false;
    for (int k = 0; k < 4; ++k)
        if (!ranges[k].size || ranges[k].buffer != v->motion.buffer || ranges[k].offset % units[k] ||
            ranges[k].offset + ranges[k].size > largest_block)
            return false;
    return true;
}

static void copy_curve(const plume_curve *c, float times[PLUME_MAX_CURVE_KEYS], float values[PLUME_MAX_CURVE_KEYS],
                       int32_t *count) {
    for (uint32_t k = 0; k < c->key_count; ++k) {
        times[k] = c->keys[k].time;
        values[k] = c->keys[k].value;
    }
    *count = (int32_t)c->key_count;
}

static void copy_gradient(const plume_gradient *c, float times[PLUME_MAX_CURVE_KEYS],
                          float values[PLUME_MAX_CURVE_KEYS][4]) {
    for (uint32_t k = 0; k < c->key_count; ++k) {
        times[k] = c->keys[k].time;
        memcpy(values[k], c->keys[k].rgba, sizeof values[k]);
    }
}

/* What particle_set_appearance_uniforms gives the gather, and where the
 * system's ranges start in its page. */
static table_look look_of(const group_state *g, const particle_view *v, uint32_t index) {
    const plume_system_desc *d = v->desc;
    const plume_appearance *a = &d->appearance;
    table_look r;
    memset(&r, 0, sizeof r);
    copy_curve(&a->size_over_life, r.size_times, r.size_values, &r.counts[0]);
    copy_curve(&a->opacity_over_life, r.opacity_times, r.opacity_values, &r.counts[1]);
    plume_curve additive = particles_additive_curve(d);
    copy_curve(&additive, r.additive_times, r.additive_values, &r.counts[2]);
    copy_gradient(&a->color_over_life, r.color_times, r.color_values);
    r.counts[3] = (int32_t)a->color_over_life.key_count;
    copy_gradient(&d->emissive_over_life, r.emissive_times, r.emissive_values);
    memcpy(r.look, (uint32_t[4]){d->emissive_over_life.key_count, d->orientation, a->texture.columns, a->texture.rows},
           sizeof r.look);
    memcpy(r.system, (uint32_t[4]){!a->texture.disable_frame_blend, index, g->first_record[index], d->capacity},
           sizeof r.system);
    memcpy(r.orientation_axis, d->orientation_axis, sizeof d->orientation_axis);
    memcpy(r.stretch, (float[4]){d->stretch_factor, d->stretch_limits.min, d->stretch_limits.max, 0.0f},
           sizeof r.stretch);
    memcpy(r.place,
           (uint32_t[4]){(uint32_t)(v->motion.offset / 16), (uint32_t)(v->traits.offset / PLUME_TRAITS_BYTES),
                         (uint32_t)(v->slot_keys.offset / PLUME_PAIR_BYTES), (uint32_t)(v->state.offset / 4)},
           sizeof r.place);
    return r;
}

static GLsizeiptr reach_of(const particle_view *v) {
    const particle_range ranges[4] = {v->motion, v->traits, v->slot_keys, v->state};
    GLsizeiptr reach = 0;
    for (int k = 0; k < 4; ++k)
        if (ranges[k].offset + ranges[k].size > reach) reach = ranges[k].offset + ranges[k].size;
    return reach;
}

/* The fitting systems' records, page by page (pages in the order of their
 * first system, systems in the group's order within a page). */
static plume_result fill_pages(group_state *g, group_table *t, const particle_view *views, table_look *looks) {
    uint32_t written = 0;
    for (uint32_t i = 0; i < g->system_count; ++i) {
        if (!t->tabled[i]) continue;
        GLuint page = views[i].motion.buffer;
        bool seen = false;
        for (uint32_t p = 0; p < t->page_count && !seen; ++p) seen = t->pages[p].buffer == page;
        if (seen) continue;
        table_page *out = &t->pages[t->page_count++];
        *out = (table_page){.buffer = page, .first = written};
        for (uint32_t j = i; j < g->system_count; ++j) {
            if (!t->tabled[j] || views[j].motion.buffer != page) continue;
            looks[written++] = look_of(g, &views[j], j);
            GLsizeiptr reach = reach_of(&views[j]);
            if (reach > out->reach) out->reach = reach;
        }
        out->count = written - out->first;
    }
    g->table = t;
    g->table->looks_buffer = plume_make_gpu_buffer(&g->env, (GLsizeiptr)(sizeof *looks * written),
                                                   "plume draw group: table of systems");
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)(sizeof *looks * written), looks);
    return PLUME_OK;
}

static plume_result build_table_programs(group_state *g, group_table *t) {
    char look[LOOK_DEFINES_SIZE], gather_defines[LOOK_DEFINES_SIZE + 48];
    particles_look_defines(g->look, look);
    strcpy(gather_defines, "#define GROUP_TABLE_COUNTS 0\n");
    strcat(gather_defines, look);
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/draw_group_table.comp"};
    plume_result r;
    if ((r = plume_build_program(&g->env, "plume draw group: table counts", &stage, 1, "#define GROUP_TABLE_COUNTS 1\n",
                                 &t->count_program)) ||
        (r = plume_build_program(&g->env, "plume draw group: table gather", &stage, 1, gather_defines,
                                 &t->gather_program)))
        return r;
    plume_find_uniform_locations(t->count_program, COUNT_NAMES, t->count_at);
    plume_find_uniform_locations(t->gather_program, GATHER_NAMES, t->gather_at);
    return PLUME_OK;
}

plume_result group_table_make(group_state *g, const particle_view *views) {
    GLint64 largest_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &largest_block);
    uint32_t fit = 0;
    for (uint32_t i = 0; i < g->system_count; ++i) fit += fits(&views[i], largest_block);
    if (fit < 2) return PLUME_OK;
    size_t bytes = sizeof(group_table) + sizeof(table_page) * fit + sizeof(bool) * g->system_count;
    group_table *t = plume_alloc(&g->env, bytes);
    table_look *looks = plume_alloc(&g->env, sizeof *looks * fit);
    if (!t || !looks) {
        plume_free(&g->env, t);
        plume_free(&g->env, looks);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    memset(t, 0, bytes);
    t->pages = (table_page *)(t + 1);
    t->tabled = (bool *)(t->pages + fit);
    t->systems = fit;
    for (uint32_t i = 0; i < g->system_count; ++i) t->tabled[i] = fits(&views[i], largest_block);
    plume_result r = fill_pages(g, t, views, looks);
    plume_free(&g->env, looks);
    return r == PLUME_OK ? build_table_programs(g, t) : r;
}

void group_table_copy_counts(group_state *g) {
    const group_table *t = g->table;
    if (!t || lab_table_off) return;
    GLuint p = t->count_program;
    glUseProgram(p);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, t->looks_buffer);
    for (uint32_t i = 0; i < t->page_count; ++i) {
        const table_page *page = &t->pages[i];
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_STATE, page->buffer, 0, page->reach);
        glProgramUniform1ui(p, t->count_at[TC_TABLE_FIRST], page->first);
        glProgramUniform1ui(p, t->count_at[TC_TABLE_COUNT], page->count);
        glDispatchCompute((page->count + TABLE_COUNTS_GROUP_SIZE - 1) / TABLE_COUNTS_GROUP_SIZE, 1, 1);
    }
    g->gathered.dispatches += t->page_count;
}

void group_table_gather(group_state *g, const vec4 *view, const mat4 inverse_view, const frame_light *light) {
    const group_table *t = g->table;
    if (!t || lab_table_off) return;
    GLuint p = t->gather_program;
    group_set_gather_camera(g, p, &t->gather_at[TG_VIEW], view, inverse_view, light);
    glProgramUniform1ui(p, t->gather_at[TG_SYSTEM_COUNT], g->system_count);
    glUseProgram(p);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, t->looks_buffer);
    for (uint32_t i = 0; i < t->page_count; ++i) {
        const table_page *page = &t->pages[i];
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MOTION, page->buffer, 0, page->reach);
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAITS, page->buffer, 0, page->reach);
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_EMITTERS, page->buffer, 0, page->reach);
        glProgramUniform1ui(p, t->gather_at[TG_TABLE_FIRST], page->first);
        glProgramUniform1ui(p, t->gather_at[TG_TABLE_COUNT], page->count);
        glDispatchCompute(page->count, 1, 1);
    }
    g->gathered.dispatches += t->page_count;
    g->gathered.table_pages = t->page_count;
    g->gathered.table_systems = t->systems;
}
