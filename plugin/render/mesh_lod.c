/* The mesh draw's levels of detail and culling (mesh_lod.h). The coarse
 * mesh is derived, not asked of the host: every mesh then has one (old
 * effect files and host buffers included) and it shares the mesh's vertex
 * buffers, so a level costs one index buffer. Vertex clustering: the mesh's
 * box cut into cubes, the vertices of a cube (and of one normal direction
 * of six where the mesh has hard edges, so that they stay hard) merged onto
 * the one nearest their mean, the triangles left with three corners kept;
 * the finest grid from 8 cubes along the longest side down to 3 (2 leaves
 * no closed surface) that leaves at most a third of the triangles, else two
 * thirds (an 80-triangle rock: 48). A mesh that does not get there (a cube
 * of 12 triangles) draws itself at the coarse level. Clustering halves a
 * mesh of hundreds of triangles at little cost to its picture, but cannot
 * make a good 20-triangle rock of an 80-triangle one: there the impostors
 * and the culling pay. */
#include <math.h>
#include <string.h>

#include "render/mesh_lod.h"

enum { FINEST_GRID = 8, COARSEST_GRID = 3, NORMAL_BUCKETS = 6 };
enum { MAX_CELLS = FINEST_GRID * FINEST_GRID * FINEST_GRID * NORMAL_BUCKETS };

static const char *const LEVEL_UNIFORMS[] = {
    "u_levels", "u_coarse_below", "u_impostor_below", "u_cull", "u_depth_cull", "u_frustum_planes",
    "u_mesh_radius", "u_view", "u_projection", "u_inverse_projection", "u_viewport_height", "u_depth_convention",
    "u_cull_depth", "u_viewport", "u_depth_size", NULL};
enum { ML_LEVELS, ML_COARSE_BELOW, ML_IMPOSTOR_BELOW, ML_CULL, ML_DEPTH_CULL, ML_FRUSTUM_PLANES, ML_MESH_RADIUS,
       ML_VIEW, ML_PROJECTION, ML_INVERSE_PROJECTION, ML_VIEWPORT_HEIGHT, ML_DEPTH_CONVENTION,
       ML_CULL_DEPTH, ML_VIEWPORT, ML_DEPTH_SIZE };
_Static_assert(sizeof LEVEL_UNIFORMS / sizeof *LEVEL_UNIFORMS == MESH_LEVEL_UNIFORM_COUNT + 1, "a name for each");
static const char *const IMPOSTOR_UNIFORMS[] = {"u_list_first", "u_surface", "u_alpha_cutoff", NULL};
_Static_assert(sizeof IMPOSTOR_UNIFORMS / sizeof *IMPOSTOR_UNIFORMS == MESH_IMPOSTOR_UNIFORM_COUNT + 1, "a name each");

bool mesh_levels_asked(const particle_view *v) {
    const plume_mesh_lod *lod = &v->desc->meshes.lod;
    return lod->coarse_below_pixels > 0.0f || lod->impostor_below_pixels > 0.0f || lod->cull;
    /* cull_back_faces alone is a raster state of the draw: no lists. */
}

/* ---- The coarse mesh ---------------------------------------------------------- */

/* `count` elements of 3 floats from a vertex buffer's layout. */
static float *read_vectors(const plume_env *env, GLuint buffer, GLuint offset, GLsizei stride, uint32_t count) {
    size_t bytes = (size_t)stride * (count - 1) + 12;
    unsigned char *raw = plume_alloc(env, bytes);
    float *out = plume_alloc(env, (size_t)count * 12);
    if (raw && out) {
        glBindBuffer(GL_COPY_READ_BUFFER, buffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, offset, (GLsizeiptr)bytes, raw);
        for (uint32_t v = 0; v < count; ++v) memcpy(out + 3 * v, raw + (size_t)v * (size_t)stride, 12);
    }
    plume_free(env, raw);
    if (!raw) plume_free(env, out);
    return raw ? out : NULL;
}

static uint32_t *read_triangles(const plume_env *env, const particle_mesh *m, uint32_t count) {
    uint32_t *out = plume_alloc(env, (size_t)count * 4);
    if (!out || !m->index_count) {
        for (uint32_t k = 0; out && k < count; ++k) out[k] = k;
        return out;
    }
    uint32_t size = mesh_index_bytes(m->index_type);
    unsigned char *raw = plume_alloc(env, (size_t)count * size);
    if (!raw) {
        plume_free(env, out);
        return NULL;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, m->indices);
    glGetBufferSubData(GL_COPY_READ_BUFFER, m->index_offset, (GLsizeiptr)count * size, raw);
    for (uint32_t k = 0; k < count; ++k)
        out[k] = size == 1 ? raw[k] : size == 2 ? ((const uint16_t *)raw)[k] : ((const uint32_t *)raw)[k];
    plume_free(env, raw);
    return out;
}

static int compare_positions(const void *a, const void *b) {
    return memcmp(a, b, 12);
}

/* Whether two vertices share a position with different normals (a hard
 * edge: a cube's faces); then clustering keeps normals of different
 * directions apart, else a smooth mesh's vertices merge freely. */
static bool has_hard_edges(const plume_env *env, const mesh_data *d) {
    if (!d->normals) return false;
    float (*sorted)[6] = plume_alloc(env, sizeof(float[6]) * d->vertices);
    if (!sorted) return true;
    for (uint32_t v = 0; v < d->vertices; ++v) {
        memcpy(sorted[v], d->positions + 3 * v, 12);
        memcpy(sorted[v] + 3, d->normals + 3 * v, 12);
    }
    qsort(sorted, d->vertices, sizeof sorted[0], compare_positions);
    bool hard = false;
    for (uint32_t v = 1; v < d->vertices && !hard; ++v)
        hard = memcmp(sorted[v], sorted[v - 1], 12) == 0 && memcmp(sorted[v] + 3, sorted[v - 1] + 3, 12) != 0;
    plume_free(env, sorted);
    return hard;
}

void mesh_free_data(const plume_env *env, mesh_data *d) {
    plume_free(env, d->positions);
    plume_free(env, d->normals);
    plume_free(env, d->triangles);
}

bool mesh_read_data(const plume_env *env, const particle_mesh *m, mesh_data *d) {
    *d = (mesh_data){.vertices = m->vertex_count, .indices = m->index_count ? m->index_count : m->vertex_count};
    d->positions = read_vectors(env, m->positions, m->position_offset, m->position_stride, m->vertex_count);
    if (m->normals) d->normals = read_vectors(env, m->normals, m->normal_offset, m->normal_stride, m->vertex_count);
    d->triangles = read_triangles(env, m, d->indices);
    if (d->positions && d->triangles && (d->normals || !m->normals)) return true;
    mesh_free_data(env, d);
    return false;
}

/* Which of six directions (the largest axis and its sign) a normal is nearest. */
static uint32_t normal_bucket(const float *n) {
    int axis = fabsf(n[0]) >= fabsf(n[1]) && fabsf(n[0]) >= fabsf(n[2]) ? 0 : fabsf(n[1]) >= fabsf(n[2]) ? 1 : 2;
    return (uint32_t)axis * 2u + (n[axis] < 0.0f);
}

typedef struct cluster_grid {
    float low[3], cell;
    int cubes;
    bool by_normal; /* cells split by normal_bucket */
} cluster_grid;

static uint32_t cell_of(const mesh_data *d, const cluster_grid *g, uint32_t v) {
    uint32_t key = 0;
    for (int k = 0; k < 3; ++k) {
        int c = (int)((d->positions[3 * v + k] - g->low[k]) / g->cell);
        key = key * (uint32_t)g->cubes + (uint32_t)(c < 0 ? 0 : c >= g->cubes ? g->cubes - 1 : c);
    }
    return key * NORMAL_BUCKETS + (g->by_normal ? normal_bucket(d->normals + 3 * v) : 0u);
}

/* Merges each cell's vertices onto the one nearest their mean (`merged`
 * per cell) and writes the triangles whose corners stay apart to `out`
 * (NULL: counted only); returns their index count. */
static uint32_t cluster(const plume_env *env, const mesh_data *d, const cluster_grid *g, uint32_t *merged,
                        uint32_t *out) {
    float (*sum)[4] = plume_alloc(env, sizeof(float[4]) * MAX_CELLS);
    float *nearest = plume_alloc(env, sizeof(float) * MAX_CELLS);
    uint32_t kept = 0;
    if (sum && nearest) {
        for (uint32_t v = 0; v < d->vertices; ++v) {
            float *s = sum[cell_of(d, g, v)];
            for (int k = 0; k < 3; ++k) s[k] += d->positions[3 * v + k];
            s[3] += 1.0f;
        }
        for (uint32_t c = 0; c < MAX_CELLS; ++c) nearest[c] = INFINITY;
        for (uint32_t v = 0; v < d->vertices; ++v) {
            uint32_t c = cell_of(d, g, v);
            float distance = 0.0f;
            for (int k = 0; k < 3; ++k) distance += powf(d->positions[3 * v + k] - sum[c][k] / sum[c][3], 2.0f);
            if (distance < nearest[c]) nearest[c] = distance, merged[c] = v;
        }
        for (uint32_t t = 0; t + 2 < d->indices; t += 3) {
            uint32_t corner[3];
            for (int k = 0; k < 3; ++k) corner[k] = merged[cell_of(d, g, d->triangles[t + (uint32_t)k])];
            if (corner[0] == corner[1] || corner[1] == corner[2] || corner[0] == corner[2]) continue;
            if (out) memcpy(out + kept, corner, sizeof corner);
            kept += 3;
        }
    }
    plume_free(env, sum);
    plume_free(env, nearest);
    return kept;
}

/* The coarse index buffer of `m` (0: it keeps its own). */
static plume_result make_coarse(const plume_env *env, const particle_mesh *m, GLuint *buffer, uint32_t *count) {
    mesh_data d;
    if (!mesh_read_data(env, m, &d)) return PLUME_ERROR_OUT_OF_MEMORY;
    cluster_grid g = {.low = {INFINITY, INFINITY, INFINITY}, .by_normal = has_hard_edges(env, &d)};
    float high[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < d.vertices; ++v)
        for (int k = 0; k < 3; ++k) {
            g.low[k] = fminf(g.low[k], d.positions[3 * v + k]);
            high[k] = fmaxf(high[k], d.positions[3 * v + k]);
        }
    float longest = fmaxf(high[0] - g.low[0], fmaxf(high[1] - g.low[1], high[2] - g.low[2]));
    uint32_t *merged = plume_alloc(env, sizeof(uint32_t) * MAX_CELLS);
    uint32_t *kept = plume_alloc(env, sizeof(uint32_t) * d.indices);
    plume_result r = merged && kept ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    /* The finest grid that leaves a third of the triangles, else the finest that leaves two thirds. */
    int chosen = 0, fallback = 0;
    for (g.cubes = FINEST_GRID; r == PLUME_OK && longest > 0.0f && isfinite(longest) && g.cubes >= COARSEST_GRID; --g.cubes) {
        g.cell = longest / (float)g.cubes;
        uint32_t n = cluster(env, &d, &g, merged, NULL);
        if (n > 0 && 3 * n <= 2 * d.indices && !fallback) fallback = g.cubes;
        if (n > 0 && 3 * n <= d.indices) {
            chosen = g.cubes;
            break;
        }
    }
    g.cubes = chosen ? chosen : fallback;
    if (g.cubes) {
        g.cell = longest / (float)g.cubes;
        *count = cluster(env, &d, &g, merged, kept);
        *buffer = plume_make_buffer(env, (GLsizeiptr)*count * 4, kept, GL_STATIC_DRAW, "plume mesh: coarse indices");
    }
    plume_free(env, merged);
    plume_free(env, kept);
    mesh_free_data(env, &d);
    return r;
}

void mesh_levels_find_uniforms(mesh_levels *l, GLuint instance_program) {
    plume_find_uniform_locations(instance_program, LEVEL_UNIFORMS, l->instance_at);
}

plume_result mesh_levels_create(const particle_view *v, mesh_levels *l) {
    plume_result r = PLUME_OK;
    if (v->desc->meshes.lod.coarse_below_pixels > 0.0f)
        for (uint32_t i = 0; i < v->mesh->count && r == PLUME_OK; ++i)
            r = make_coarse(v->env, &v->mesh->meshes[i], &l->coarse_indices[i], &l->coarse_index_count[i]);
    if (r != PLUME_OK || v->desc->meshes.lod.impostor_below_pixels <= 0.0f) return r;
    plume_shader_stage stages[2] = {{GL_VERTEX_SHADER, "render/mesh_impostor.vert"},
                                    {GL_FRAGMENT_SHADER, "render/mesh_impostor.frag"}};
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    r = plume_build_program(v->env, "plume particles: mesh impostors", stages, 2, look, &l->impostor_program);
    if (r != PLUME_OK) return r;
    particle_find_uniforms(l->impostor_program, &l->impostor_uniforms);
    plume_find_uniform_locations(l->impostor_program, IMPOSTOR_UNIFORMS, l->impostor_at);
    return PLUME_OK;
}

uint32_t mesh_levels_gl_objects(const mesh_levels *l, plume_gl_object *out) {
    out[0] = (plume_gl_object){GL_PROGRAM, l->impostor_program};
    for (int i = 0; i < PLUME_GPU_MAX_MESHES; ++i) {
        out[1 + 2 * i] = (plume_gl_object){GL_BUFFER, l->coarse_indices[i]};
        out[2 + 2 * i] = (plume_gl_object){GL_VERTEX_ARRAY, l->coarse_arrays[i]};
    }
    return MESH_LEVEL_GL_OBJECTS;
}

/* ---- Each draw ------------------------------------------------------------------ */

/* What measures a particle on screen: its mesh's radius, the camera, the viewport's height. */
static void set_size_uniforms(const particle_view *v, const GLint *at, const draw_frame *frame,
                              const draw_target *target) {
    float radius[PLUME_GPU_MAX_MESHES] = {0};
    for (uint32_t i = 0; i < v->mesh->count; ++i) radius[i] = v->mesh->meshes[i].radius;
    glUniform1fv(at[ML_MESH_RADIUS], PLUME_GPU_MAX_MESHES, radius);
    /* The whole matrices' addresses: GCC, having merged &m[0][0] with the
     * matrix the frustum's planes read later, would take it for one row. */
    glUniformMatrix4fv(at[ML_VIEW], 1, GL_FALSE, (const GLfloat *)frame->view);
    glUniformMatrix4fv(at[ML_PROJECTION], 1, GL_FALSE, (const GLfloat *)frame->projection);
    glUniform1f(at[ML_VIEWPORT_HEIGHT], (float)target->viewport[3]);
}

void mesh_levels_set_instance_uniforms(const particle_view *v, const mesh_levels *l, const draw_frame *frame,
                                       const draw_target *target, GLuint depth_sampler, bool sizes) {
    const GLint *at = l->instance_at;
    const plume_mesh_lod *lod = &v->desc->meshes.lod;
    bool asked = mesh_levels_asked(v), depth_cull = asked && lod->cull && target->depth_texture != 0;
    glUniform1i(at[ML_LEVELS], asked);
    if (asked || sizes) set_size_uniforms(v, at, frame, target);
    if (!asked) return;
    glUniform1f(at[ML_COARSE_BELOW], lod->coarse_below_pixels);
    glUniform1f(at[ML_IMPOSTOR_BELOW], lod->impostor_below_pixels);
    glUniform1i(at[ML_CULL], lod->cull);
    glUniform1i(at[ML_DEPTH_CULL], depth_cull);
    float planes[PLUME_CULL_PLANES][4];
    particles_frustum_planes(frame->view, frame->projection, planes);
    glUniform4fv(at[ML_FRUSTUM_PLANES], PLUME_CULL_PLANES, &planes[0][0]);
    if (!depth_cull) return;
    mat4 inverse;
    glm_mat4_inv((vec4 *)frame->projection, inverse);
    glUniformMatrix4fv(at[ML_INVERSE_PROJECTION], 1, GL_FALSE, &inverse[0][0]);
    glUniform1ui(at[ML_DEPTH_CONVENTION], frame->depth_convention);
    glUniform1i(at[ML_CULL_DEPTH], 1);
    glUniform4f(at[ML_VIEWPORT], (float)target->viewport[0], (float)target->viewport[1], (float)target->viewport[2],
                (float)target->viewport[3]);
    glUniform2fv(at[ML_DEPTH_SIZE], 1, target->depth_size);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, target->depth_texture);
    glBindSampler(1, depth_sampler);
    glActiveTexture(GL_TEXTURE0);
}

void mesh_levels_draw_impostors(const particle_view *v, const mesh_levels *l, const draw_frame *frame,
                                GLuint sprite_sampler, uint32_t list_room) {
    glUseProgram(l->impostor_program);
    particle_set_appearance_uniforms(v, &l->impostor_uniforms);
    particle_set_light_uniforms(v, &l->impostor_uniforms);
    glUniformMatrix4fv(l->impostor_uniforms.at[PU_VIEW], 1, GL_FALSE, &frame->view[0][0]);
    glUniformMatrix4fv(l->impostor_uniforms.at[PU_PROJECTION], 1, GL_FALSE, &frame->projection[0][0]);
    if (!v->sprite_is_array) draw_bind_sprite(v, sprite_sampler);
    glUniform1i(l->impostor_uniforms.at[PU_HAS_TEXTURE], v->sprite_texture != 0 && !v->sprite_is_array);
    glUniform1ui(l->impostor_at[0], PLUME_MESH_IMPOSTOR_LIST * list_room);
    glUniform1ui(l->impostor_at[1], v->desc->meshes.surface);
    glUniform1f(l->impostor_at[2], v->desc->meshes.alpha_cutoff);
    GLboolean point_size = glIsEnabled(GL_PROGRAM_POINT_SIZE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(l->coarse_arrays[0]); /* no attribute is read: any vertex array */
    glDrawArraysIndirect(GL_POINTS, (const void *)(uintptr_t)(PLUME_MESH_IMPOSTOR_LIST * 4 * PLUME_MESH_ARGS_WORDS));
    if (!point_size) glDisable(GL_PROGRAM_POINT_SIZE);
}
