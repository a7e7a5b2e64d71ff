/* The mesh draw's compute raster (mesh_compute.h). The meshes are copied
 * once, at the system's first draw, into one buffer of vertices (position,
 * normal, texture coordinates: what the raster draw would read, +z and the
 * texture's centre where the mesh has none) and one of indices: a host's
 * buffers may have any layout and index type, which a shader would
 * otherwise decode at every triangle. The per-pixel buffers grow to the
 * largest viewport drawn and are kept. */
#include <string.h>

#include "render/mesh_compute.h"
#include "render/mesh_lod.h"

static const char *const RASTER_UNIFORMS[] = {
    "u_pass", "u_list",    "u_list_room",    "u_vertex_first",    "u_index_first",      "u_triangles",       "u_eye",
    "u_size", "u_surface", "u_alpha_cutoff", "u_cull_back_faces", "u_depth_convention", "u_view_projection", NULL};
enum { MR_PASS, MR_LIST, MR_LIST_ROOM, MR_VERTEX_FIRST, MR_INDEX_FIRST, MR_TRIANGLES, MR_EYE, MR_SIZE, MR_SURFACE,
       MR_ALPHA_CUTOFF, MR_CULL_BACK_FACES, MR_DEPTH_CONVENTION, MR_VIEW_PROJECTION, MR_COUNT };
_Static_assert((int)MR_COUNT == (int)MESH_RASTER_UNIFORM_COUNT &&
                   sizeof RASTER_UNIFORMS / sizeof *RASTER_UNIFORMS == MR_COUNT + 1,
               "a name for each location");
static const char *const RESOLVE_UNIFORMS[] = {"u_origin", "u_size", "u_depth_convention", NULL};
_Static_assert(sizeof RESOLVE_UNIFORMS / sizeof *RESOLVE_UNIFORMS == MESH_RESOLVE_UNIFORM_COUNT + 1, "a name each");

/* The dispatch's most workgroups: the raster walks its list's jobs in
 * strides of the whole dispatch, so this only needs to fill the GPU. */
enum { MOST_RASTER_GROUPS = 8192, VERTEX_FLOATS = 8 };

/* Mesh `d`'s vertices as the raster reads them: 2 vec4s, position and u,
 * normal and v. */
static void pack_vertices(const mesh_data *d, float *out) {
    for (uint32_t v = 0; v < d->vertices; ++v) {
        float *o = out + (size_t)VERTEX_FLOATS * v;
        memcpy(o, d->positions + 3 * v, 12);
        static const float up[3] = {0.0f, 0.0f, 1.0f};
        memcpy(o + 4, d->normals ? d->normals + 3 * v : up, 12);
        o[3] = d->texcoords ? d->texcoords[2 * v] : 0.5f;
        o[7] = d->texcoords ? d->texcoords[2 * v + 1] : 0.5f;
    }
}

/* Every mesh read back and packed into the two copies. */
static plume_result copy_meshes(const particle_view *v, mesh_compute *c) {
    mesh_data data[PLUME_GPU_MAX_MESHES] = {{0}};
    uint32_t vertices = 0, indices = 0;
    plume_result r = PLUME_OK;
    for (uint32_t i = 0; i < v->mesh->count && r == PLUME_OK; ++i) {
        if (!mesh_read_data(v->env, &v->mesh->meshes[i], true, &data[i])) r = PLUME_ERROR_OUT_OF_MEMORY;
        c->vertex_first[i] = vertices, c->index_first[i] = indices, c->triangles[i] = data[i].indices / 3;
        vertices += data[i].vertices, indices += data[i].indices;
    }
    float *packed = r == PLUME_OK ? plume_alloc(v->env, sizeof(float) * VERTEX_FLOATS * vertices) : NULL;
    uint32_t *joined = r == PLUME_OK ? plume_alloc(v->env, sizeof(uint32_t) * indices) : NULL;
    if (r == PLUME_OK && (!packed || !joined)) r = PLUME_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < v->mesh->count && r == PLUME_OK; ++i) {
        pack_vertices(&data[i], packed + (size_t)VERTEX_FLOATS * c->vertex_first[i]);
        memcpy(joined + c->index_first[i], data[i].triangles, sizeof(uint32_t) * data[i].indices);
    }
    if (r == PLUME_OK) {
        c->vertices = plume_make_buffer(v->env, (GLsizeiptr)(sizeof(float) * VERTEX_FLOATS * vertices), packed,
                                        GL_STATIC_DRAW, "plume mesh compute raster: vertices");
        c->indices = plume_make_buffer(v->env, (GLsizeiptr)(sizeof(uint32_t) * indices), joined, GL_STATIC_DRAW,
                                       "plume mesh compute raster: indices");
    }
    plume_free(v->env, packed);
    plume_free(v->env, joined);
    for (uint32_t i = 0; i < v->mesh->count; ++i) mesh_free_data(v->env, &data[i]);
    return r;
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
    return copy_meshes(v, c);
}

uint32_t mesh_compute_gl_objects(const mesh_compute *c, plume_gl_object *out) {
    const plume_gl_object all[MESH_COMPUTE_GL_OBJECTS] = {
        {GL_PROGRAM, c->raster_program}, {GL_PROGRAM, c->resolve_program}, {GL_VERTEX_ARRAY, c->vertex_array},
        {GL_BUFFER, c->vertices},        {GL_BUFFER, c->indices},          {GL_BUFFER, c->depth_keys},
        {GL_BUFFER, c->colours}};
    memcpy(out, all, sizeof all);
    return MESH_COMPUTE_GL_OBJECTS;
}

bool mesh_compute_takes(const particle_view *v, const mesh_compute *c, uint32_t mesh) {
    return c->triangles[mesh] > 0 && (uint64_t)v->desc->capacity * c->triangles[mesh] < (1ull << 31);
}

/* The per-pixel buffers hold `pixels` (grown, never shrunk: a window
 * resized back and forth keeps its memory). */
static plume_result hold_pixels(const particle_view *v, mesh_compute *c, uint64_t pixels) {
    if (pixels <= c->pixels) return PLUME_OK;
    GLuint old[2] = {c->depth_keys, c->colours};
    glDeleteBuffers(2, old);
    c->depth_keys = plume_make_buffer(v->env, (GLsizeiptr)(4 * pixels), NULL, GL_DYNAMIC_COPY,
                                      "plume mesh compute raster: depth keys");
    c->colours = plume_make_buffer(v->env, (GLsizeiptr)(8 * pixels), NULL, GL_DYNAMIC_COPY,
                                   "plume mesh compute raster: colours");
    c->pixels = c->depth_keys && c->colours ? pixels : 0;
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
    glUniform1ui(at[MR_LIST_ROOM], v->desc->capacity);
    glUniform1ui(at[MR_SURFACE], v->desc->meshes.surface);
    glUniform1f(at[MR_ALPHA_CUTOFF], v->desc->meshes.alpha_cutoff);
    glUniform1i(at[MR_CULL_BACK_FACES], v->desc->meshes.lod.cull_back_faces);
    glUniform1ui(at[MR_DEPTH_CONVENTION], frame->depth_convention);
}

plume_result mesh_compute_draw(const particle_view *v, mesh_compute *c, const draw_frame *frame,
                               const draw_target *target, const mesh_compute_buffers *buffers, const float eye[3]) {
    uint64_t pixels = (uint64_t)target->viewport[2] * (uint64_t)target->viewport[3];
    plume_result r = hold_pixels(v, c, pixels);
    if (r != PLUME_OK) return r;
    const GLuint empty = PLUME_MESH_EMPTY_KEY, no_box[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0};
    glBindBuffer(GL_COPY_WRITE_BUFFER, c->depth_keys);
    glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, (GLsizeiptr)(4 * pixels), GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &empty);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffers->args);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 4 * PLUME_MESH_COMPUTE_BOX, sizeof no_box, no_box);
    glUseProgram(c->raster_program);
    set_raster_uniforms(v, c, frame, target, eye);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_INSTANCES, buffers->instances);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_LISTS, buffers->lists);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_ARGS, buffers->args);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_VERTICES, c->vertices);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_INDICES, c->indices);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_DEPTH_KEYS, c->depth_keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_COLOURS, c->colours);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    for (GLuint pass = 0; pass < 2; ++pass) {
        glUniform1ui(c->raster_at[MR_PASS], pass);
        for (uint32_t i = 0; i < v->mesh->count; ++i) {
            if (!mesh_compute_takes(v, c, i)) continue;
            uint64_t jobs = (uint64_t)v->desc->capacity * c->triangles[i];
            uint64_t groups = (jobs + PLUME_MESH_RASTER_GROUP_SIZE - 1) / PLUME_MESH_RASTER_GROUP_SIZE;
            glUniform1ui(c->raster_at[MR_LIST], PLUME_MESH_COMPUTE_LIST(i));
            glUniform1ui(c->raster_at[MR_VERTEX_FIRST], c->vertex_first[i]);
            glUniform1ui(c->raster_at[MR_INDEX_FIRST], c->index_first[i]);
            glUniform1ui(c->raster_at[MR_TRIANGLES], c->triangles[i]);
            glDispatchCompute((GLuint)(groups < MOST_RASTER_GROUPS ? groups : MOST_RASTER_GROUPS), 1, 1);
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glUseProgram(c->resolve_program);
    glUniform2i(c->resolve_at[0], target->viewport[0], target->viewport[1]);
    glUniform2i(c->resolve_at[1], target->viewport[2], target->viewport[3]);
    glUniform1ui(c->resolve_at[2], frame->depth_convention);
    glBindVertexArray(c->vertex_array);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    return PLUME_OK;
}
