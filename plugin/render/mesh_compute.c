/* The mesh draw's compute raster (mesh_compute.h). The raster reads each
 * mesh from its own buffers at every draw, the host's or plume's uploads,
 * through their layout (offsets and strides in words, the index type), so
 * a host that rewrites its mesh buffers sees the change as on the raster
 * back end. A mesh plume uploaded is read back once, at the first draw,
 * only to find whether it is closed (a host's mesh may change). The
 * per-pixel buffer grows to the largest viewport drawn and is kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/mesh_compute.h"
#include "render/mesh_lod.h"

static const char *const RASTER_UNIFORMS[] = {
    "u_pass",           "u_list",          "u_list_room",        "u_triangles",       "u_eye",
    "u_size",           "u_surface",       "u_alpha_cutoff",     "u_cull_back_faces", "u_depth_convention",
    "u_view_projection", "u_pixels",       "u_position_layout",  "u_normal_layout",   "u_texcoord_layout",
    "u_index_layout",   "u_box",           NULL};
enum { MR_PASS, MR_LIST, MR_LIST_ROOM, MR_TRIANGLES, MR_EYE, MR_SIZE, MR_SURFACE, MR_ALPHA_CUTOFF, MR_CULL_BACK_FACES,
       MR_DEPTH_CONVENTION, MR_VIEW_PROJECTION, MR_PIXELS, MR_POSITION_LAYOUT, MR_NORMAL_LAYOUT, MR_TEXCOORD_LAYOUT,
       MR_INDEX_LAYOUT, MR_BOX, MR_COUNT };
_Static_assert((int)MR_COUNT == (int)MESH_RASTER_UNIFORM_COUNT &&
                   sizeof RASTER_UNIFORMS / sizeof *RASTER_UNIFORMS == MR_COUNT + 1,
               "a name for each location");
static const char *const RESOLVE_UNIFORMS[] = {"u_origin", "u_size", "u_depth_convention", "u_pixels", "u_box", NULL};
_Static_assert(sizeof RESOLVE_UNIFORMS / sizeof *RESOLVE_UNIFORMS == MESH_RESOLVE_UNIFORM_COUNT + 1, "a name each");

/* The dispatch's most workgroups: the raster walks its list's jobs in
 * strides of the whole dispatch, so this only needs to fill the GPU. A
 * pixel's bytes: its depth key and two words of colour. */
enum { MOST_RASTER_GROUPS = 8192, PIXEL_BYTES = 12 };

static uint64_t viewport_pixels(const draw_target *target) {
    return (uint64_t)target->viewport[2] * (uint64_t)target->viewport[3];
}

/* A vertex's place on a grid of 2^-16 of its mesh's extent (a seam's
 * copies of a corner, computed apart, land together, -0 with +0). */
typedef struct placed_vertex {
    int32_t cell[3];
    uint32_t vertex;
} placed_vertex;

static int compare_places(const void *a, const void *b) {
    const int32_t *x = a, *y = b;
    for (int k = 0; k < 3; ++k)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

static int compare_edges(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether every edge of `edges` (sorted, `count`, each a << 32 | b) is
 * crossed as often each way. */
static bool edges_pair_up(const uint64_t *edges, size_t count) {
    for (size_t e = 0; e < count;) {
        size_t run = 1;
        while (e + run < count && edges[e + run] == edges[e]) ++run;
        uint64_t twin = edges[e] << 32 | edges[e] >> 32;
        const uint64_t *found = bsearch(&twin, edges, count, sizeof *edges, compare_edges);
        if (!found) return false;
        size_t first = (size_t)(found - edges), last = first;
        while (first > 0 && edges[first - 1] == twin) --first;
        while (last + 1 < count && edges[last + 1] == twin) ++last;
        if (last - first + 1 != run) return false;
        e += run;
    }
    return true;
}

/* Whether mesh `d` is closed and wound counter-clockwise seen from outside:
 * every edge, its ends matched by position (vertices split at hard edges or
 * seams are one corner), is crossed as often each way, and the signed volume
 * is positive (corners nearer than 2^-16 of its extent, as a seam's copies
 * computed apart, are one: no pixel centre of a mesh the compute raster
 * takes can pass between them). An opaque such mesh seen from outside (the compute raster
 * takes none whose sphere reaches the eye) hides all its faces turned away
 * behind those turned towards the eye: the raster skips them, half its
 * triangles and none of its pixels. Out of memory: false. */
static bool closed_outward(const plume_env *env, const mesh_data *d) {
    size_t triangles = d->indices / 3;
    placed_vertex *places = plume_alloc(env, sizeof *places * d->vertices);
    uint32_t *corner = plume_alloc(env, sizeof *corner * d->vertices);
    uint64_t *edges = plume_alloc(env, sizeof *edges * 3 * triangles);
    bool closed = places && corner && edges && triangles > 0;
    float extent = 0.0f;
    for (uint32_t i = 0; closed && i < 3 * d->vertices; ++i) extent = fmaxf(extent, fabsf(d->positions[i]));
    closed = closed && extent > 0.0f && extent < 1e30f;
    if (closed) {
        float cells = 65536.0f / extent; /* cells of the extent: at most 2^16 either way */
        for (uint32_t i = 0; i < d->vertices; ++i) {
            for (int k = 0; k < 3; ++k) places[i].cell[k] = (int32_t)lrintf(d->positions[3 * i + k] * cells);
            places[i].vertex = i;
        }
        qsort(places, d->vertices, sizeof *places, compare_places);
        for (uint32_t i = 0, first = 0; i < d->vertices; ++i) {
            if (i > 0 && compare_places(&places[i], &places[i - 1]) != 0) first = i;
            corner[places[i].vertex] = places[first].vertex;
        }
        size_t count = 0;
        double volume = 0.0;
        for (size_t t = 0; t < triangles; ++t) {
            const uint32_t *v = d->triangles + 3 * t;
            for (int k = 0; k < 3; ++k) {
                uint64_t a = corner[v[k]], b = corner[v[(k + 1) % 3]];
                if (a != b) edges[count++] = a << 32 | b;
            }
            const float *p = d->positions + 3 * v[0], *q = d->positions + 3 * v[1], *r = d->positions + 3 * v[2];
            volume += (double)p[0] * ((double)q[1] * r[2] - (double)q[2] * r[1]) -
                      (double)p[1] * ((double)q[0] * r[2] - (double)q[2] * r[0]) +
                      (double)p[2] * ((double)q[0] * r[1] - (double)q[1] * r[0]);
        }
        qsort(edges, count, sizeof *edges, compare_edges);
        closed = volume > 0.0 && edges_pair_up(edges, count);
    }
    plume_free(env, places);
    plume_free(env, corner);
    plume_free(env, edges);
    return closed;
}

/* The bytes of an index of `m` (0: not indexed). */
static uint32_t index_bytes(const particle_mesh *m) {
    return m->index_count ? mesh_index_bytes(m->index_type) : 0u;
}

/* Whether `m`'s indices, read a word at a time, end within their buffer (the
 * host keeps its size: plume_mesh.h). */
static bool indices_end_in_a_word(const particle_mesh *m) {
    if (!m->index_count) return true;
    GLint64 size = 0;
    glBindBuffer(GL_COPY_READ_BUFFER, m->indices);
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    uint64_t end = (uint64_t)m->index_offset + (uint64_t)m->index_count * index_bytes(m);
    return (end + 3) / 4 * 4 <= (uint64_t)size;
}

/* Whether each mesh plume uploaded is closed (read back once, then let go). */
static plume_result find_closed_meshes(const particle_view *v, mesh_compute *c) {
    for (uint32_t i = 0; i < v->mesh->count; ++i) {
        if (!v->mesh->meshes[i].uploaded) continue;
        mesh_data data;
        if (!mesh_read_data(v->env, &v->mesh->meshes[i], &data)) return PLUME_ERROR_OUT_OF_MEMORY;
        c->closed[i] = closed_outward(v->env, &data);
        mesh_free_data(v->env, &data);
    }
    return PLUME_OK;
}

plume_result mesh_compute_create(const particle_view *v, mesh_compute *c) {
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    plume_shader_stage raster = {GL_COMPUTE_SHADER, "render/mesh_raster.comp"};
    plume_result r = plume_build_program(v->env, "plume particles: mesh compute raster", &raster, 1, look,
                                         &c->raster_program);
    if (r != PLUME_OK) return r;
    particle_find_uniforms(c->raster_program, &c->raster_uniforms);
    plume_find_uniform_locations(c->raster_program, RASTER_UNIFORMS, c->raster_at);
    plume_shader_stage resolve[2] = {{GL_VERTEX_SHADER, "render/mesh_resolve.vert"},
                                     {GL_FRAGMENT_SHADER, "render/mesh_resolve.frag"}};
    r = plume_build_program(v->env, "plume particles: mesh compute resolve", resolve, 2, NULL, &c->resolve_program);
    if (r != PLUME_OK) return r;
    plume_find_uniform_locations(c->resolve_program, RESOLVE_UNIFORMS, c->resolve_at);
    glGenVertexArrays(1, &c->vertex_array);
    for (uint32_t i = 0; i < v->mesh->count; ++i) {
        const particle_mesh *m = &v->mesh->meshes[i];
        c->triangles[i] = (m->index_count ? m->index_count : m->vertex_count) / 3;
        c->takes[i] = c->triangles[i] > 0 && (uint64_t)v->desc->capacity * c->triangles[i] < (1ull << 31) &&
                      indices_end_in_a_word(m);
    }
    return find_closed_meshes(v, c);
}

uint32_t mesh_compute_gl_objects(const mesh_compute *c, plume_gl_object *out) {
    const plume_gl_object all[MESH_COMPUTE_GL_OBJECTS] = {{GL_PROGRAM, c->raster_program},
                                                          {GL_PROGRAM, c->resolve_program},
                                                          {GL_VERTEX_ARRAY, c->vertex_array},
                                                          {GL_BUFFER, c->pixel_buffer}};
    memcpy(out, all, sizeof all);
    return MESH_COMPUTE_GL_OBJECTS;
}

bool mesh_compute_takes(const mesh_compute *c, uint32_t mesh) {
    return c->takes[mesh];
}

bool mesh_compute_fits(const particle_view *v, const draw_target *target) {
    return PIXEL_BYTES * viewport_pixels(target) <= (uint64_t)plume_env_gl_caps(v->env).storage_block_bytes;
}

/* The per-pixel buffer holds `pixels`: a depth key each, then two words of
 * colour each (grown, never shrunk: a window resized back and forth keeps
 * its memory). */
static plume_result hold_pixels(const particle_view *v, mesh_compute *c, uint64_t pixels) {
    if (pixels <= c->pixels) return PLUME_OK;
    glDeleteBuffers(1, &c->pixel_buffer);
    c->pixel_buffer = plume_make_buffer(v->env, (GLsizeiptr)(PIXEL_BYTES * pixels), NULL, GL_DYNAMIC_COPY,
                                        "plume mesh compute raster: depth keys and colours");
    c->pixels = c->pixel_buffer ? pixels : 0;
    return c->pixels ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
}

static void set_raster_uniforms(const particle_view *v, const mesh_compute *c, const draw_frame *frame,
                                const draw_target *target, const float eye[3]) {
    const GLint *at = c->raster_at;
    particle_set_appearance_uniforms(v, &c->raster_uniforms);
    particle_set_light_uniforms(v, &c->raster_uniforms);
    glUniform1i(c->raster_uniforms.at[PU_HAS_TEXTURE], v->sprite_texture != 0 && !v->sprite_is_array);
    mat4 view_projection;
    glm_mat4_mul((vec4 *)frame->projection, (vec4 *)frame->view, view_projection);
    glUniformMatrix4fv(at[MR_VIEW_PROJECTION], 1, GL_FALSE, &view_projection[0][0]);
    glUniform3fv(at[MR_EYE], 1, eye);
    glUniform2i(at[MR_SIZE], target->viewport[2], target->viewport[3]);
    glUniform1ui(at[MR_PIXELS], (GLuint)viewport_pixels(target));
    glUniform1ui(at[MR_LIST_ROOM], v->desc->capacity);
    glUniform1ui(at[MR_SURFACE], v->desc->meshes.surface);
    glUniform1f(at[MR_ALPHA_CUTOFF], v->desc->meshes.alpha_cutoff);
    glUniform1ui(at[MR_DEPTH_CONVENTION], frame->depth_convention);
}

/* Mesh `i`'s buffers bound (an absent attribute: the positions' buffer,
 * unread) and their layouts in words; its triangles and faces. */
static void set_mesh(const particle_view *v, const mesh_compute *c, uint32_t i) {
    const particle_mesh *m = &v->mesh->meshes[i];
    const GLint *at = c->raster_at;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_POSITIONS, m->positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_NORMALS, m->normals ? m->normals : m->positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_TEXCOORDS,
                     m->texcoords ? m->texcoords : m->positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_INDICES, m->index_count ? m->indices : m->positions);
    glUniform2ui(at[MR_POSITION_LAYOUT], m->position_offset / 4, (GLuint)m->position_stride / 4);
    glUniform2ui(at[MR_NORMAL_LAYOUT], m->normal_offset / 4, m->normals ? (GLuint)m->normal_stride / 4 : 0u);
    glUniform2ui(at[MR_TEXCOORD_LAYOUT], m->texcoord_offset / 4, m->texcoords ? (GLuint)m->texcoord_stride / 4 : 0u);
    glUniform2ui(at[MR_INDEX_LAYOUT], index_bytes(m), m->index_offset);
    glUniform1ui(at[MR_TRIANGLES], c->triangles[i]);
    bool hidden = c->closed[i] && v->desc->meshes.surface == PLUME_MESH_OPAQUE;
    glUniform1i(at[MR_CULL_BACK_FACES], v->desc->meshes.lod.cull_back_faces || hidden);
}

plume_result mesh_compute_draw(const particle_view *v, mesh_compute *c, const draw_frame *frame,
                               const draw_target *target, const mesh_compute_buffers *buffers, const float eye[3]) {
    uint64_t pixels = viewport_pixels(target);
    plume_result r = hold_pixels(v, c, pixels);
    if (r != PLUME_OK) return r;
    /* Empty keys are 0: cleared without data, which no pixel-store state of the host's reaches. */
    const GLuint no_box[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT); /* after the last draw's atomics on both */
    glBindBuffer(GL_COPY_WRITE_BUFFER, c->pixel_buffer);
    glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, (GLsizeiptr)(4 * pixels), GL_RED_INTEGER,
                         GL_UNSIGNED_INT, NULL);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffers->args);
    GLuint box = buffers->first_list * PLUME_MESH_ARGS_WORDS + 4;
    glBufferSubData(GL_COPY_WRITE_BUFFER, 4 * box, sizeof no_box, no_box);
    glUseProgram(c->raster_program);
    set_raster_uniforms(v, c, frame, target, eye);
    glUniform1ui(c->raster_at[MR_BOX], box);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_INSTANCES, buffers->instances);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_LISTS, buffers->lists);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_ARGS, buffers->args);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_PIXELS, c->pixel_buffer);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    for (GLuint pass = 0; pass < 2; ++pass) {
        glUniform1ui(c->raster_at[MR_PASS], pass);
        for (uint32_t i = 0; i < v->mesh->count; ++i) {
            if (!c->takes[i]) continue;
            uint64_t jobs = (uint64_t)v->desc->capacity * c->triangles[i];
            uint64_t groups = (jobs + PLUME_MESH_RASTER_GROUP_SIZE - 1) / PLUME_MESH_RASTER_GROUP_SIZE;
            glUniform1ui(c->raster_at[MR_LIST], buffers->first_list + i);
            set_mesh(v, c, i);
            glDispatchCompute((GLuint)(groups < MOST_RASTER_GROUPS ? groups : MOST_RASTER_GROUPS), 1, 1);
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glUseProgram(c->resolve_program);
    glUniform2i(c->resolve_at[0], target->viewport[0], target->viewport[1]);
    glUniform2i(c->resolve_at[1], target->viewport[2], target->viewport[3]);
    glUniform1ui(c->resolve_at[2], frame->depth_convention);
    glUniform1ui(c->resolve_at[3], (GLuint)pixels);
    glUniform1ui(c->resolve_at[4], box);
    glBindVertexArray(c->vertex_array);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    return PLUME_OK;
}
