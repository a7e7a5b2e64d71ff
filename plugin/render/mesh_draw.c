/* The mesh draw path (since 1.3): a mesh system's particles as instanced
 * meshes, one indexed indirect draw per mesh whose instance count is the
 * system's drawn count (copied on the GPU from its state buffer: nothing
 * read back), its instances the drawn list in the update's order (back to
 * front where the system sorts); an instance of another mesh draws nothing
 * (mesh_draw.vert). Several opaque meshes are compacted first, a list per
 * mesh (mesh_compact.comp), so each mesh's draw runs its own particles.
 * By default an instance pass (mesh_instances.comp) first works out once
 * per particle what each vertex needs (its matrices, colour and emitted
 * light: the vertices then do two matrix rows of dot products instead of
 * the appearance curves and two quaternion turns each; it compacts too),
 * and the surface is compiled into the fragment shader (an opaque one has
 * no discard: the depth test runs before shading). The GPUs whose graphics
 * run on few of their processors gain most. The lab turns each off
 * (plume_lab_mesh_draw_set_options) to time it. Opaque and alpha-tested surfaces test and write the
 * bound framebuffer's depth with the host's depth function and blend
 * nothing; transparent ones test without writing and blend premultiplied.
 * Always at full resolution (the frame's draw_path and draw_resolution are
 * for sprites). The meshes' buffers are the system's (particles/mesh.c,
 * through the view); the program, a vertex array per mesh, the indirect
 * arguments and the sampler are this path's attachment, made on the first
 * draw and freed with the system. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw_tuning.h"
#include "render/mesh_compute.h"
#include "render/mesh_lod.h"

enum { MESH_ARGS_STRIDE = 4 * PLUME_MESH_ARGS_WORDS }; /* bytes per mesh's indirect command (5 words used) */

static const char *const MESH_DRAW_UNIFORMS[] = {
    "u_mesh", "u_has_normals", "u_has_texcoords", "u_scale_start", "u_scale_end", "u_surface", "u_alpha_cutoff",
    "u_mesh_count", "u_mesh_pick", "u_mesh_seed", "u_compacted", "u_list_first", "u_eye", NULL};
enum { MD_MESH, MD_HAS_NORMALS, MD_HAS_TEXCOORDS, MD_SCALE_START, MD_SCALE_END, MD_SURFACE, MD_ALPHA_CUTOFF,
       MD_MESH_COUNT, MD_MESH_PICK, MD_MESH_SEED, MD_COMPACTED, MD_LIST_FIRST, MD_EYE, MESH_DRAW_UNIFORM_COUNT };
/* The compaction's uniforms (mesh_compact.comp), in this order. */
static const char *const MESH_COMPACT_UNIFORMS[] = {"u_mesh_count", "u_mesh_pick", "u_mesh_seed", "u_list_room", NULL};
/* The instance pass's own (mesh_instances.comp), after the compaction's. */
static const char *const MESH_INSTANCE_UNIFORMS[] = {
    "u_mesh_count", "u_mesh_pick", "u_mesh_seed",     "u_list_room",     "u_scale_start",
    "u_scale_end",  "u_compact",   "u_compute_below", "u_compute_first", NULL};
enum { MI_SCALE_START = 4, MI_SCALE_END, MI_COMPACT, MI_COMPUTE_BELOW, MI_COMPUTE_FIRST, MESH_INSTANCE_UNIFORM_COUNT };
_Static_assert(sizeof MESH_DRAW_UNIFORMS / sizeof *MESH_DRAW_UNIFORMS == MESH_DRAW_UNIFORM_COUNT + 1,
               "a name for each location");

typedef struct mesh_draw_state {
    GLuint program;
    particle_uniforms uniforms;
    GLint at[MESH_DRAW_UNIFORM_COUNT];
    GLuint vertex_arrays[PLUME_GPU_MAX_MESHES];
    GLuint args_buffer; /* per mesh a DrawElementsIndirectCommand (or DrawArrays) at MESH_ARGS_STRIDE */
    GLuint sprite_sampler, depth_sampler;
    /* Several opaque meshes: the compaction into a list per mesh. */
    GLuint compact_program, lists_buffer;
    GLint compact_at[4];
    /* The instance pass (0: the lab turned it off). */
    GLuint instance_program, instances_buffer;
    particle_uniforms instance_uniforms;
    GLint instance_at[MESH_INSTANCE_UNIFORM_COUNT];
    uint32_t lab_off; /* MESH_DRAW_LAB_* bits: speed-ups left out */
    /* Levels of detail and culling (plume_mesh_lod), with the instance pass. */
    bool levels_on;
    mesh_levels levels;
    /* The compute raster of the meshes small on screen (mesh_compute.h), with
     * the instance pass, for opaque and alpha-tested surfaces; compute_now:
     * this draw's frame lets it. The lab's threshold (pixels; negative: the
     * module's) outlives the objects, as lab_off. */
    bool compute_possible, compute_now, lab_sets_compute_below;
    float lab_compute_below;
    mesh_compute compute;
} mesh_draw_state;

/* A mesh system draws through this path alone (never the sprites' paths,
 * whose attachments it never makes): half its bytes, the share the tiled
 * path takes of a sprite system's. */
_Static_assert(sizeof(mesh_draw_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 2, "fits its share of the system");

enum { MESH_DRAW_GL_OBJECTS = 8 + PLUME_GPU_MAX_MESHES + MESH_LEVEL_GL_OBJECTS + MESH_COMPUTE_GL_OBJECTS };

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const mesh_draw_state *m = state;
    plume_gl_object all[MESH_DRAW_GL_OBJECTS] = {
        {GL_PROGRAM, m->program},
        {GL_BUFFER, m->args_buffer},
        {GL_SAMPLER, m->sprite_sampler},
        {GL_SAMPLER, m->depth_sampler},
        {GL_PROGRAM, m->compact_program},
        {GL_BUFFER, m->lists_buffer},
        {GL_PROGRAM, m->instance_program},
        {GL_BUFFER, m->instances_buffer},
    };
    for (int i = 0; i < PLUME_GPU_MAX_MESHES; ++i) all[8 + i] = (plume_gl_object){GL_VERTEX_ARRAY, m->vertex_arrays[i]};
    mesh_levels_gl_objects(&m->levels, all + 8 + PLUME_GPU_MAX_MESHES);
    mesh_compute_gl_objects(&m->compute, all + 8 + PLUME_GPU_MAX_MESHES + MESH_LEVEL_GL_OBJECTS);
    return plume_list_named_gl_objects(all, MESH_DRAW_GL_OBJECTS, out, capacity);
}

static void release(void *state, plume_context *context) {
    plume_gl_object owned[MESH_DRAW_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(state, owned, MESH_DRAW_GL_OBJECTS));
}

static const particle_attachment_class MESH_DRAW_ATTACHMENT = {"mesh draw path", release, list_gl_objects};

/* A vertex array over the mesh's buffers (vertex buffer bindings, GL 4.3:
 * nothing is bound to GL_ARRAY_BUFFER) and the arguments' constant words. */
static void create_mesh_objects(const particle_mesh *mesh, GLuint vertex_array, uint32_t args[5]) {
    glBindVertexArray(vertex_array);
    const GLuint buffers[3] = {mesh->positions, mesh->normals, mesh->texcoords};
    const GLuint offsets[3] = {mesh->position_offset, mesh->normal_offset, mesh->texcoord_offset};
    const GLsizei strides[3] = {mesh->position_stride, mesh->normal_stride, mesh->texcoord_stride};
    for (GLuint a = 0; a < 3; ++a) {
        if (!buffers[a]) continue;
        glEnableVertexAttribArray(a);
        glVertexAttribFormat(a, a == 2 ? 2 : 3, GL_FLOAT, GL_FALSE, 0);
        glVertexAttribBinding(a, a);
        glBindVertexBuffer(a, buffers[a], offsets[a], strides[a]);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh->indices);
    if (mesh->index_count) {
        const uint32_t elements[5] = {mesh->index_count, 0, mesh->index_offset / mesh_index_bytes(mesh->index_type), 0, 0};
        memcpy(args, elements, sizeof elements);
    } else {
        const uint32_t arrays[5] = {mesh->vertex_count, 0, 0, 0, 0};
        memcpy(args, arrays, sizeof arrays);
    }
}

/* Several opaque meshes draw each its own particles: the compaction's
 * program and lists (a transparent system's meshes draw the whole list in
 * its back-to-front order instead, each skipping the others' particles).
 * Levels of detail compact too, into a list per mesh and level. */
static bool lists_by_mesh_or_level(const particle_view *v, const mesh_draw_state *m) {
    return (v->mesh->count > 1 && v->desc->meshes.surface != PLUME_MESH_TRANSPARENT) || m->levels_on;
}

/* Whether this draw compacts: as above, or a frame with the compute raster
 * (its lists). */
static bool compacts(const particle_view *v, const mesh_draw_state *m) {
    return lists_by_mesh_or_level(v, m) || m->compute_now;
}

/* The compute raster's threshold in pixels: the lab's, else the module's. */
static float compute_threshold(const mesh_draw_state *m) {
    return m->lab_sets_compute_below ? m->lab_compute_below : DRAW_TUNING.mesh_compute_below_pixels;
}

/* The first mesh's compute list: after the levels' lists, or the meshes'. */
static uint32_t compute_first(const particle_view *v, const mesh_draw_state *m) {
    return m->levels_on ? PLUME_MESH_LEVEL_LISTS : v->mesh->count;
}

/* The lists (and indirect commands) the instance pass or compaction fills. */
static uint32_t list_count(const particle_view *v, const mesh_draw_state *m) {
    return compute_first(v, m) + (m->compute_possible ? v->mesh->count : 0u);
}

/* The lists; the compaction's program where no instance pass compacts. */
static plume_result create_compaction(const particle_view *v, mesh_draw_state *m) {
    m->lists_buffer = plume_make_buffer(v->env, (GLsizeiptr)v->desc->capacity * 4 * list_count(v, m), NULL,
                                        GL_DYNAMIC_DRAW, "plume particles: mesh lists");
    if (m->instance_program) return PLUME_OK;
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/mesh_compact.comp"};
    plume_result result = plume_build_program(v->env, "plume particles: mesh compaction", &stage, 1, NULL,
                                              &m->compact_program);
    if (result != PLUME_OK) return result;
    plume_find_uniform_locations(m->compact_program, MESH_COMPACT_UNIFORMS, m->compact_at);
    return PLUME_OK;
}

static plume_result create_instance_pass(const particle_view *v, mesh_draw_state *m, const char *look) {
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/mesh_instances.comp"};
    plume_result result = plume_build_program(v->env, "plume particles: mesh instances", &stage, 1, look,
                                              &m->instance_program);
    if (result != PLUME_OK) return result;
    particle_find_uniforms(m->instance_program, &m->instance_uniforms);
    plume_find_uniform_locations(m->instance_program, MESH_INSTANCE_UNIFORMS, m->instance_at);
    mesh_levels_find_uniforms(&m->levels, m->instance_program);
    m->instances_buffer =
        plume_make_buffer(v->env, (GLsizeiptr)v->desc->capacity * 16 * PLUME_MESH_INSTANCE_VEC4S, NULL,
                          GL_DYNAMIC_DRAW, "plume particles: mesh instances");
    return PLUME_OK;
}

/* The coarse levels' vertex arrays (each mesh's vertices, its coarse
 * indices where it has them) and the arguments' constant words of the
 * coarse lists and the impostors' (a DrawArraysIndirectCommand: one
 * instance, the instance pass counts the points in word 0). */
static plume_result create_levels(const particle_view *v, mesh_draw_state *m,
                                  uint32_t (*args)[MESH_ARGS_STRIDE / 4]) {
    mesh_levels *l = &m->levels;
    plume_result result = mesh_levels_create(v, l);
    if (result != PLUME_OK) return result;
    glGenVertexArrays((GLsizei)v->mesh->count, l->coarse_arrays);
    for (uint32_t i = 0; i < v->mesh->count; ++i) {
        particle_mesh coarse = v->mesh->meshes[i];
        if (l->coarse_indices[i])
            coarse.indices = l->coarse_indices[i], coarse.index_count = l->coarse_index_count[i],
            coarse.index_type = GL_UNSIGNED_INT, coarse.index_offset = 0;
        create_mesh_objects(&coarse, l->coarse_arrays[i], args[PLUME_GPU_MAX_MESHES + i]);
    }
    args[PLUME_MESH_IMPOSTOR_LIST][1] = 1;
    return PLUME_OK;
}

static plume_result create(const particle_view *v, mesh_draw_state *m) {
    bool instances = !(m->lab_off & MESH_DRAW_LAB_NO_INSTANCE_PASS);
    plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, instances ? "render/mesh_instance_draw.vert" : "render/mesh_draw.vert"},
        {GL_FRAGMENT_SHADER, "render/mesh_draw.frag"},
    };
    char look[LOOK_DEFINES_SIZE], defines[LOOK_DEFINES_SIZE + 96];
    particles_look_defines(particles_look_features(v->desc), look);
    snprintf(defines, sizeof defines, "%s%s", look, instances ? "#define PLUME_MESH_INSTANCES\n" : "");
    if (!(m->lab_off & MESH_DRAW_LAB_NO_EARLY_DEPTH))
        snprintf(defines + strlen(defines), sizeof defines - strlen(defines), "#define PLUME_MESH_SURFACE %u\n",
                 (unsigned)v->desc->meshes.surface);
    plume_result result = plume_build_program(v->env, "plume particles: mesh draw", stages, 2, defines, &m->program);
    if (result != PLUME_OK) return result;
    if (instances && (result = create_instance_pass(v, m, look)) != PLUME_OK) return result;
    particle_find_uniforms(m->program, &m->uniforms);
    plume_find_uniform_locations(m->program, MESH_DRAW_UNIFORMS, m->at);
    glGenVertexArrays((GLsizei)v->mesh->count, m->vertex_arrays);
    uint32_t args[PLUME_MESH_MOST_LISTS][MESH_ARGS_STRIDE / 4] = {{0}};
    for (uint32_t i = 0; i < v->mesh->count; ++i)
        create_mesh_objects(&v->mesh->meshes[i], m->vertex_arrays[i], args[i]);
    m->levels_on = instances && mesh_levels_asked(v);
    if (m->levels_on && (result = create_levels(v, m, args)) != PLUME_OK) return result;
    m->compute_possible = instances && v->desc->meshes.surface != PLUME_MESH_TRANSPARENT;
    if (m->compute_possible && (result = mesh_compute_create(v, &m->compute)) != PLUME_OK) return result;
    m->args_buffer = plume_make_buffer(v->env, (GLsizeiptr)sizeof args[0] * list_count(v, m), args, GL_DYNAMIC_DRAW,
                                       "plume particles: mesh draw arguments");
    draw_create_samplers(&m->sprite_sampler, &m->depth_sampler);
    bool lists = lists_by_mesh_or_level(v, m) || m->compute_possible;
    if (lists && (result = create_compaction(v, m)) != PLUME_OK) return result;
    return plume_drain_gl_errors(v->env, "plume_system_draw (mesh draw objects)");
}

/* The system's mesh draw state, made on its first draw (NULL: not made, said). */
static mesh_draw_state *mesh_draw_of(const particle_view *v, plume_result *result) {
    mesh_draw_state *m = particle_view_attach(v, &MESH_DRAW_ATTACHMENT, sizeof *m);
    *result = m ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    if (!m || m->program) return m;
    if ((*result = create(v, m)) == PLUME_OK) return m;
    release(m, v->context); /* tried again at the next draw */
    *m = (mesh_draw_state){.lab_off = m->lab_off, .lab_sets_compute_below = m->lab_sets_compute_below,
                           .lab_compute_below = m->lab_compute_below};
    return NULL;
}

/* The depth and blend of the system's surface (plume_mesh_surface). */
static void set_surface_state(const plume_env *env, uint32_t surface) {
    glEnable(GL_DEPTH_TEST);
    if (surface == PLUME_MESH_TRANSPARENT) {
        draw_blend_particles_over_depth(env);
        return;
    }
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
}

/* The camera's place in the world: the view's inverse at the origin,
 * -transpose(rotation) x translation. */
static void camera_place(const mat4 view, vec3 eye) {
    for (int r = 0; r < 3; ++r) eye[r] = -(view[r][0] * view[3][0] + view[r][1] * view[3][1] + view[r][2] * view[3][2]);
}

static void set_mesh_uniforms(const particle_view *v, const mesh_draw_state *m) {
    const plume_mesh_particles *d = &v->desc->meshes;
    glUniform3fv(m->at[MD_SCALE_START], 1, d->scale_start);
    glUniform3fv(m->at[MD_SCALE_END], 1, d->scale_end);
    glUniform1ui(m->at[MD_SURFACE], d->surface);
    glUniform1f(m->at[MD_ALPHA_CUTOFF], d->alpha_cutoff);
    glUniform1ui(m->at[MD_MESH_COUNT], d->count);
    glUniform1ui(m->at[MD_MESH_PICK], d->pick);
    glUniform1ui(m->at[MD_MESH_SEED], v->desc->seed);
}

/* The instance pass's uniforms past the compaction's (which the caller set). */
static void set_instance_pass_uniforms(const particle_view *v, const mesh_draw_state *m) {
    particle_set_appearance_uniforms(v, &m->instance_uniforms);
    glUniform3fv(m->instance_at[MI_SCALE_START], 1, v->desc->meshes.scale_start);
    glUniform3fv(m->instance_at[MI_SCALE_END], 1, v->desc->meshes.scale_end);
    glUniform1i(m->instance_at[MI_COMPACT], compacts(v, m));
    float below[PLUME_GPU_MAX_MESHES] = {0}, threshold = compute_threshold(m);
    /* Under the size a mesh reaching the eye's plane is given (3e38): that one stays with the raster draw. */
    for (uint32_t i = 0; i < v->mesh->count && m->compute_now; ++i)
        below[i] = mesh_compute_takes(&m->compute, i) ? fminf(threshold, 1e30f) : 0.0f;
    glUniform1fv(m->instance_at[MI_COMPUTE_BELOW], PLUME_GPU_MAX_MESHES, below);
    glUniform1ui(m->instance_at[MI_COMPUTE_FIRST], compute_first(v, m));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SPIN, v->mesh->spin_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_INSTANCES, m->instances_buffer);
}

/* Each mesh's instance count, on the GPU: the drawn count, or (several
 * opaque meshes) its own particles', appended by the compaction or the
 * instance pass; then the instance pass. */
static void set_instance_counts(const particle_view *v, const mesh_draw_state *m, const draw_frame *frame,
                                const draw_target *target) {
    glBindBuffer(GL_COPY_READ_BUFFER, v->state.buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, m->args_buffer);
    const uint32_t zero = 0;
    for (uint32_t i = 0; i < list_count(v, m); ++i) {
        /* The impostors' command counts points (word 0), the others instances. */
        GLintptr instances = (GLintptr)(i * MESH_ARGS_STRIDE + (i == PLUME_MESH_IMPOSTOR_LIST ? 0 : 4));
        if (compacts(v, m) || i >= v->mesh->count) glBufferSubData(GL_COPY_WRITE_BUFFER, instances, 4, &zero);
        else glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, v->state.offset + STATE_DRAWN_COUNT_OFFSET,
                                 instances, 4);
    }
    GLuint pass = m->instance_program ? m->instance_program : m->compact_program;
    if (!pass || v->sort_bound == 0) return;
    const plume_mesh_particles *d = &v->desc->meshes;
    const GLint *at = m->instance_program ? m->instance_at : m->compact_at;
    glUseProgram(pass);
    glUniform1ui(at[0], d->count);
    glUniform1ui(at[1], d->pick);
    glUniform1ui(at[2], v->desc->seed);
    glUniform1ui(at[3], v->desc->capacity);
    if (m->instance_program) {
        set_instance_pass_uniforms(v, m);
        mesh_levels_set_instance_uniforms(v, &m->levels, frame, target, m->depth_sampler, m->compute_now);
    }
    particle_bind_storage(PLUME_BINDING_MOTION, v->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, v->traits);
    particle_view_bind_draw_list(v, PLUME_BINDING_DRAW_LIST);
    particle_bind_storage(PLUME_BINDING_STATE, v->state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_ARGS, m->args_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_LISTS, m->lists_buffer);
    glDispatchCompute((v->sort_bound + PLUME_MESH_COMPACT_GROUP_SIZE - 1) / PLUME_MESH_COMPACT_GROUP_SIZE, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

/* The instances of list `list` (its command at the same place): indexed
 * of `index_type`, or (0) not. */
static void draw_list(const particle_view *v, const mesh_draw_state *m, uint32_t list, GLuint vertex_array,
                      GLenum index_type) {
    glUniform1ui(m->at[MD_LIST_FIRST], list * v->desc->capacity);
    glBindVertexArray(vertex_array);
    const void *args = (const void *)(uintptr_t)(list * MESH_ARGS_STRIDE);
    if (index_type) glDrawElementsIndirect(GL_TRIANGLES, index_type, args);
    else glDrawArraysIndirect(GL_TRIANGLES, args);
}

static plume_result mesh_draw(const particle_view *v, const draw_frame *frame, const draw_target *target,
                              const draw_count *count, plume_gl_scope *scope) {
    (void)count;
    plume_gl_scope_save(scope, PLUME_SCOPE_COPY_BUFFERS);
    plume_result result;
    mesh_draw_state *m = mesh_draw_of(v, &result);
    if (!m) return result;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: meshes");
    m->compute_now = m->compute_possible && compute_threshold(m) > 0.0f &&
                     frame->desc->draw_path != PLUME_DRAW_PATH_RASTER && mesh_compute_fits(v, target);
    set_instance_counts(v, m, frame, target);
    glUseProgram(m->program);
    particle_set_appearance_uniforms(v, &m->uniforms);
    particle_set_view_uniforms(v, &m->uniforms, frame, 0, target->depth_size, m->depth_sampler);
    particle_set_light_uniforms(v, &m->uniforms);
    set_mesh_uniforms(v, m);
    vec3 eye;
    camera_place(frame->view, eye);
    glUniform3fv(m->at[MD_EYE], 1, eye);
    if (!v->sprite_is_array) draw_bind_sprite(v, m->sprite_sampler);
    glUniform1i(m->uniforms.at[PU_HAS_TEXTURE], v->sprite_texture != 0 && !v->sprite_is_array);
    particle_bind_storage(PLUME_BINDING_MOTION, v->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, v->traits);
    particle_view_bind_draw_list(v, PLUME_BINDING_DRAW_LIST);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SPIN, v->mesh->spin_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_LISTS, m->lists_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MESH_INSTANCES, m->instances_buffer);
    glUniform1i(m->at[MD_COMPACTED], compacts(v, m));
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, m->args_buffer);
    set_surface_state(v->env, v->desc->meshes.surface);
    const plume_mesh_lod *lod = &v->desc->meshes.lod;
    /* Back faces: the scope restores GL_CULL_FACE; its mode and the front face are kept here. */
    GLint cull_mode = GL_BACK, front_face = GL_CCW;
    if (lod->cull_back_faces) {
        glGetIntegerv(GL_CULL_FACE_MODE, &cull_mode);
        glGetIntegerv(GL_FRONT_FACE, &front_face);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glFrontFace(GL_CCW);
    }
    for (uint32_t i = 0; i < v->mesh->count; ++i) {
        const particle_mesh *mesh = &v->mesh->meshes[i];
        glUniform1ui(m->at[MD_MESH], i);
        glUniform1i(m->at[MD_HAS_NORMALS], mesh->normals != 0);
        glUniform1i(m->at[MD_HAS_TEXCOORDS], mesh->texcoords != 0);
        draw_list(v, m, i, m->vertex_arrays[i], mesh->index_count ? mesh->index_type : 0);
        if (m->levels_on && lod->coarse_below_pixels > 0.0f)
            draw_list(v, m, PLUME_GPU_MAX_MESHES + i, m->levels.coarse_arrays[i],
                      m->levels.coarse_indices[i] ? GL_UNSIGNED_INT : mesh->index_count ? mesh->index_type : 0);
    }
    if (lod->cull_back_faces) {
        glDisable(GL_CULL_FACE);
        glCullFace((GLenum)cull_mode);
        glFrontFace((GLenum)front_face);
    }
    if (m->levels_on && lod->impostor_below_pixels > 0.0f)
        mesh_levels_draw_impostors(v, &m->levels, frame, m->sprite_sampler, v->desc->capacity);
    if (m->compute_now) {
        const mesh_compute_buffers buffers = {m->args_buffer, m->lists_buffer, m->instances_buffer,
                                              compute_first(v, m)};
        result = mesh_compute_draw(v, &m->compute, frame, target, &buffers, eye);
    }
    glPopDebugGroup();
    return result;
}

const draw_path mesh_draw_path = {"mesh", mesh_draw};

plume_result mesh_draw_set_lab_options(const particle_view *v, uint32_t lab_off) {
    mesh_draw_state *m = particle_view_attach(v, &MESH_DRAW_ATTACHMENT, sizeof *m);
    if (!m) return PLUME_ERROR_OUT_OF_MEMORY;
    if (m->lab_off == lab_off) return PLUME_OK;
    release(m, v->context); /* made again, the new way, at the next draw */
    *m = (mesh_draw_state){.lab_off = lab_off, .lab_sets_compute_below = m->lab_sets_compute_below,
                           .lab_compute_below = m->lab_compute_below};
    return PLUME_OK;
}

plume_result mesh_draw_set_compute_below(const particle_view *v, float pixels) {
    mesh_draw_state *m = particle_view_attach(v, &MESH_DRAW_ATTACHMENT, sizeof *m);
    if (!m) return PLUME_ERROR_OUT_OF_MEMORY;
    m->lab_sets_compute_below = pixels >= 0.0f;
    m->lab_compute_below = pixels;
    return PLUME_OK;
}

uint32_t mesh_draw_read_compute_count(const particle_view *v) {
    mesh_draw_state *m = particle_view_attachment(v, &MESH_DRAW_ATTACHMENT);
    if (!m || !m->args_buffer || !m->compute_possible) return 0;
    uint32_t counts[PLUME_GPU_MAX_MESHES][MESH_ARGS_STRIDE / 4];
    glBindBuffer(GL_COPY_READ_BUFFER, m->args_buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, compute_first(v, m) * MESH_ARGS_STRIDE,
                       (GLsizeiptr)(v->mesh->count * MESH_ARGS_STRIDE), counts);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < v->mesh->count; ++i) sum += counts[i][1];
    return sum;
}

void mesh_draw_read_level_counts(const particle_view *v, uint32_t counts[3]) {
    counts[0] = counts[1] = counts[2] = 0;
    mesh_draw_state *m = particle_view_attachment(v, &MESH_DRAW_ATTACHMENT);
    if (!m || !m->args_buffer) return;
    uint32_t args[PLUME_MESH_MOST_LISTS][MESH_ARGS_STRIDE / 4] = {{0}};
    glBindBuffer(GL_COPY_READ_BUFFER, m->args_buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)sizeof args[0] * list_count(v, m), args);
    for (uint32_t i = 0; i < v->mesh->count; ++i) {
        counts[0] += args[i][1];
        if (m->levels_on) counts[1] += args[PLUME_GPU_MAX_MESHES + i][1];
    }
    if (m->levels_on) counts[2] = args[PLUME_MESH_IMPOSTOR_LIST][0];
}
