/* Mesh particles (plume_mesh.h, since 1.3), the particle part's share: the
 * descriptor's checks (no GL, so that plume_system_desc_check runs them),
 * the checks of the host's buffers against the GL at creation, the meshes
 * plume uploads, the spin buffer (a quaternion and an angular velocity per
 * slot, made only for mesh systems: a sprite system's records stay 64 bytes
 * a particle) and the simulate pass's mesh uniforms. The draw is render/'s
 * (mesh_draw.c), which reads the meshes through the particle view. */
#include <math.h>
#include <string.h>

#include "particles_internal.h"

_Static_assert(PLUME_GPU_MAX_MESHES == PLUME_MAX_MESHES, "the shaders' mesh count is the API's");
_Static_assert(PLUME_BINDING_SPIN >= PLUME_SCOPE_OPTIONAL_SSBO_SLOT &&
                   PLUME_BINDING_SPIN < PLUME_SCOPE_OPTIONAL_SSBO_SLOT + PLUME_SCOPE_OPTIONAL_SSBO_SLOTS,
               "the update's and the mesh draw's scopes restore the spin binding (PLUME_SCOPE_OPTIONAL_SSBO)");

enum { MESH_MAX_VERTICES = 1 << 24, MESH_MAX_STRIDE = 2048 /* GL_MAX_VERTEX_ATTRIB_STRIDE's least */ };

static const char *const MESH_UNIFORMS[] = {"u_mesh_count",  "u_mesh_pick",     "u_mesh_start",   "u_mesh_seed",
                                            "u_mesh_radius", "u_angular_speed", "u_angular_drag", NULL};
_Static_assert(sizeof MESH_UNIFORMS / sizeof *MESH_UNIFORMS - 1 <= sizeof ((mesh_state *)0)->at / sizeof(GLint),
               "a location for each name");

/* "caller: meshes.meshes[i].field why" */
static plume_result refuse_mesh(const plume_env *env, const char *caller, int mesh, const char *field,
                                const char *why) {
    if (mesh < 0) plume_log(env, PLUME_LOG_ERROR, "%s: meshes.%s %s", caller, field, why);
    else plume_log(env, PLUME_LOG_ERROR, "%s: meshes.meshes[%d].%s %s", caller, mesh, field, why);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

static uint32_t index_bytes(GLenum type) {
    return type == GL_UNSIGNED_BYTE ? 1u : type == GL_UNSIGNED_SHORT ? 2u : 4u;
}

static bool described(const plume_mesh_desc *m) {
    return m->vertex_count || m->index_count || m->position_data || m->positions.buffer || m->index_data ||
           m->indices.buffer;
}

/* A host attribute's offset and stride: 4-byte aligned, the stride at least
 * the element (or 0) and within the GL's least vertex stride limit. */
static plume_result check_layout(const plume_env *env, const char *caller, int i, const char *field,
                                 const plume_mesh_buffer *b, uint32_t element, uint32_t alignment) {
    if (b->offset % alignment || b->stride % alignment)
        return refuse_mesh(env, caller, i, field, "offset and stride must be multiples of the element's alignment");
    if (b->stride != 0 && (b->stride < element || b->stride > MESH_MAX_STRIDE))
        return refuse_mesh(env, caller, i, field, "stride must be 0 or from the element's size to 2048 bytes");
    return PLUME_OK;
}

static plume_result resolve_mesh(const plume_env *env, const char *caller, int i, plume_mesh_desc *m) {
    if (m->vertex_count < 3 || m->vertex_count > MESH_MAX_VERTICES)
        return refuse_mesh(env, caller, i, "vertex_count", "must be 3 .. 2^24");
    if (m->index_count % 3 != 0) return refuse_mesh(env, caller, i, "index_count", "must be a multiple of 3");
    if (m->index_count == 0 && m->vertex_count % 3 != 0)
        return refuse_mesh(env, caller, i, "vertex_count", "must be a multiple of 3 without indices (index_count 0)");
    if (m->index_type == 0) m->index_type = GL_UNSIGNED_INT;
    if (m->index_type != GL_UNSIGNED_BYTE && m->index_type != GL_UNSIGNED_SHORT && m->index_type != GL_UNSIGNED_INT)
        return refuse_mesh(env, caller, i, "index_type", "must be 0, GL_UNSIGNED_BYTE, _SHORT or _INT");
    if (m->position_data) {
        if (m->positions.buffer || m->normals.buffer || m->texcoords.buffer || m->indices.buffer)
            return refuse_mesh(env, caller, i, "position_data", "is given with host buffers: one or the other");
        if (m->index_count && !m->index_data)
            return refuse_mesh(env, caller, i, "index_data", "is NULL with index_count > 0");
        for (uint32_t v = 0; v < m->vertex_count * 3; ++v)
            if (!isfinite(m->position_data[v])) return refuse_mesh(env, caller, i, "position_data", "is not finite");
        for (uint32_t k = 0; k < m->index_count; ++k)
            if (m->index_data[k] >= m->vertex_count) {
                plume_log(env, PLUME_LOG_ERROR, "%s: meshes.meshes[%d].index_data[%u] is %u, past vertex_count %u",
                          caller, i, k, m->index_data[k], m->vertex_count);
                return PLUME_ERROR_INVALID_ARGUMENT;
            }
        m->index_type = GL_UNSIGNED_INT;
        return PLUME_OK;
    }
    if (m->normal_data || m->texcoord_data || m->index_data)
        return refuse_mesh(env, caller, i, "position_data", "is NULL while other data is given");
    if (!m->positions.buffer) return refuse_mesh(env, caller, i, "positions.buffer", "is 0 without position_data");
    if (m->index_count && !m->indices.buffer)
        return refuse_mesh(env, caller, i, "indices.buffer", "is 0 with index_count > 0");
    plume_result r;
    if ((r = check_layout(env, caller, i, "positions", &m->positions, 12, 4)) ||
        (r = check_layout(env, caller, i, "normals", &m->normals, 12, 4)) ||
        (r = check_layout(env, caller, i, "texcoords", &m->texcoords, 8, 4)))
        return r;
    if (m->indices.offset % index_bytes(m->index_type))
        return refuse_mesh(env, caller, i, "indices.offset", "must be a multiple of the index type's size");
    return PLUME_OK;
}

static bool finite_non_negative(const float *values, int count) {
    for (int k = 0; k < count; ++k)
        if (!isfinite(values[k]) || values[k] < 0.0f) return false;
    return true;
}

static bool lod_asked(const plume_mesh_lod *lod) {
    return lod->coarse_below_pixels != 0.0f || lod->impostor_below_pixels != 0.0f || lod->cull || lod->cull_back_faces;
}

static plume_result resolve_lod(const plume_env *env, const char *caller, const plume_mesh_particles *m) {
    const float thresholds[2] = {m->lod.coarse_below_pixels, m->lod.impostor_below_pixels};
    if (!finite_non_negative(thresholds, 2))
        return refuse_mesh(env, caller, -1, "lod", "coarse_below_pixels and impostor_below_pixels must be finite and >= 0");
    if (lod_asked(&m->lod) && m->surface == PLUME_MESH_TRANSPARENT)
        return refuse_mesh(env, caller, -1, "lod",
                           "is set on a transparent surface: its levels' lists would lose the back-to-front order");
    return PLUME_OK;
}

plume_result particles_resolve_meshes(const plume_env *env, const char *caller, plume_system_desc *desc) {
    plume_mesh_particles *m = &desc->meshes;
    if (m->count == 0) {
        for (int i = 0; i < PLUME_MAX_MESHES; ++i)
            if (described(&m->meshes[i]))
                return refuse_mesh(env, caller, -1, "count",
                                   "is 0 while meshes are described: 0 meshes draw sprites; set count to draw them");
        if (lod_asked(&m->lod)) return refuse_mesh(env, caller, -1, "lod", "is set with count 0 (sprites)");
        return PLUME_OK;
    }
    if (m->count > PLUME_MAX_MESHES) return refuse_mesh(env, caller, -1, "count", "must be 0 .. PLUME_MAX_MESHES (4)");
    if (desc->trail.points > 0)
        return refuse_mesh(env, caller, -1, "count", "is over 0 with a trail (trail.points): a mesh system draws no trail");
    plume_result r;
    for (uint32_t i = 0; i < m->count; ++i)
        if ((r = resolve_mesh(env, caller, (int)i, &m->meshes[i])) != PLUME_OK) return r;
    if (m->pick > PLUME_MESH_PICK_BY_EMITTER) return refuse_mesh(env, caller, -1, "pick", "is not a plume_mesh_pick");
    if (m->surface > PLUME_MESH_TRANSPARENT)
        return refuse_mesh(env, caller, -1, "surface", "is not a plume_mesh_surface");
    if (m->start_orientation > PLUME_MESH_START_ALONG_VELOCITY)
        return refuse_mesh(env, caller, -1, "start_orientation", "is not a plume_mesh_start");
    if (!finite_non_negative(&m->alpha_cutoff, 1) || m->alpha_cutoff > 1.0f)
        return refuse_mesh(env, caller, -1, "alpha_cutoff", "must be in 0 .. 1");
    if (m->alpha_cutoff == 0.0f) m->alpha_cutoff = 0.5f;
    float speed[2] = {m->angular_speed.min, m->angular_speed.max};
    if (!finite_non_negative(speed, 2) || speed[0] > speed[1])
        return refuse_mesh(env, caller, -1, "angular_speed", "must be finite with 0 <= min <= max");
    if (!finite_non_negative(&m->angular_drag, 1))
        return refuse_mesh(env, caller, -1, "angular_drag", "must be finite and >= 0");
    if (!finite_non_negative(m->scale_start, 3) || !finite_non_negative(m->scale_end, 3))
        return refuse_mesh(env, caller, -1, "scale_start", "and scale_end must be finite and >= 0");
    if (m->scale_start[0] == 0.0f && m->scale_start[1] == 0.0f && m->scale_start[2] == 0.0f)
        m->scale_start[0] = m->scale_start[1] = m->scale_start[2] = 1.0f;
    if (m->scale_end[0] == 0.0f && m->scale_end[1] == 0.0f && m->scale_end[2] == 0.0f)
        m->scale_end[0] = m->scale_end[1] = m->scale_end[2] = 1.0f;
    return resolve_lod(env, caller, m);
}

/* ---- Creation: the GL's checks, the uploads, the spin buffer ------------------- */

/* A host buffer named in `field`: a buffer, and `bytes` from `offset` within
 * its size. Binds GL_COPY_READ_BUFFER. */
static plume_result check_host_buffer(const plume_env *env, int i, const char *field, GLuint buffer, uint64_t end) {
    static const char *CALLER = "plume_system_create";
    if (!glIsBuffer(buffer)) {
        plume_log(env, PLUME_LOG_ERROR, "%s: meshes.meshes[%d].%s.buffer %u is not a GL buffer", CALLER, i, field,
                  buffer);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    GLint64 size = 0;
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    if (end > (uint64_t)size) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: meshes.meshes[%d].%s's layout reaches byte %llu, past the buffer's GL_BUFFER_SIZE %lld", CALLER,
                  i, field, (unsigned long long)end, (long long)size);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

/* The layout's last byte + 1 for `count` elements of `element` bytes. */
static uint64_t layout_end(const plume_mesh_buffer *b, uint32_t count, uint32_t element) {
    uint32_t stride = b->stride ? b->stride : element;
    return (uint64_t)b->offset + (uint64_t)stride * (count - 1) + element;
}

/* Reads `bytes` from `offset` of the bound GL_COPY_READ_BUFFER. */
static void *read_range(const plume_env *env, GLuint buffer, uint64_t offset, uint64_t bytes) {
    void *data = plume_alloc(env, (size_t)bytes);
    if (!data) return NULL;
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, data);
    return data;
}

/* The host's indices read once and checked below vertex_count. */
static plume_result check_host_indices(const plume_env *env, int i, const plume_mesh_desc *m) {
    uint32_t size = index_bytes(m->index_type);
    unsigned char *data = read_range(env, m->indices.buffer, m->indices.offset, (uint64_t)m->index_count * size);
    if (!data) return PLUME_ERROR_OUT_OF_MEMORY;
    plume_result r = PLUME_OK;
    for (uint32_t k = 0; k < m->index_count && r == PLUME_OK; ++k) {
        uint32_t index = size == 1 ? data[k] : size == 2 ? ((const uint16_t *)data)[k] : ((const uint32_t *)data)[k];
        if (index >= m->vertex_count) {
            plume_log(env, PLUME_LOG_ERROR,
                      "plume_system_create: meshes.meshes[%d].indices.buffer's index %u is %u, past vertex_count %u", i,
                      k, index, m->vertex_count);
            r = PLUME_ERROR_INVALID_ARGUMENT;
        }
    }
    plume_free(env, data);
    return r;
}

/* The farthest vertex from the origin, positions read back from the host's
 * buffer (once, at creation: it sizes the culling sphere). */
static float host_radius(const plume_env *env, const plume_mesh_desc *m, plume_result *r) {
    uint32_t stride = m->positions.stride ? m->positions.stride : 12;
    uint64_t bytes = layout_end(&m->positions, m->vertex_count, 12) - m->positions.offset;
    unsigned char *data = read_range(env, m->positions.buffer, m->positions.offset, bytes);
    *r = data ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    float radius = 0.0f;
    for (uint32_t v = 0; data && v < m->vertex_count; ++v) {
        float p[3];
        memcpy(p, data + (size_t)v * stride, sizeof p);
        float d = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (d > radius || !isfinite(d)) radius = isfinite(d) ? d : INFINITY;
    }
    plume_free(env, data);
    return radius;
}

static plume_result check_host_mesh(system_state *s, int i, const plume_mesh_desc *m, particle_mesh *out) {
    plume_result r;
    if ((r = check_host_buffer(&s->env, i, "positions", m->positions.buffer, layout_end(&m->positions, m->vertex_count, 12))) ||
        (m->normals.buffer && (r = check_host_buffer(&s->env, i, "normals", m->normals.buffer,
                                                     layout_end(&m->normals, m->vertex_count, 12)))) ||
        (m->texcoords.buffer && (r = check_host_buffer(&s->env, i, "texcoords", m->texcoords.buffer,
                                                       layout_end(&m->texcoords, m->vertex_count, 8)))) ||
        (m->index_count && (r = check_host_buffer(&s->env, i, "indices", m->indices.buffer,
                                                  (uint64_t)m->indices.offset +
                                                      (uint64_t)m->index_count * index_bytes(m->index_type)))) ||
        (m->index_count && (r = check_host_indices(&s->env, i, m))))
        return r;
    s->mesh.radius[i] = host_radius(&s->env, m, &r);
    if (r != PLUME_OK) return r;
    *out = (particle_mesh){
        .positions = m->positions.buffer, .normals = m->normals.buffer, .texcoords = m->texcoords.buffer,
        .indices = m->index_count ? m->indices.buffer : 0,
        .position_offset = m->positions.offset, .normal_offset = m->normals.offset,
        .texcoord_offset = m->texcoords.offset, .index_offset = m->indices.offset,
        .position_stride = (GLsizei)(m->positions.stride ? m->positions.stride : 12),
        .normal_stride = (GLsizei)(m->normals.stride ? m->normals.stride : 12),
        .texcoord_stride = (GLsizei)(m->texcoords.stride ? m->texcoords.stride : 8),
    };
    return PLUME_OK;
}

static GLuint upload(const system_state *s, const void *data, size_t bytes, const char *label) {
    return data ? plume_make_buffer(&s->env, (GLsizeiptr)bytes, data, GL_STATIC_DRAW, label) : 0;
}

static void upload_mesh(system_state *s, int i, const plume_mesh_desc *m, particle_mesh *out) {
    GLuint *own = s->mesh.uploaded[i];
    own[0] = upload(s, m->position_data, (size_t)m->vertex_count * 12, "plume mesh: positions");
    own[1] = upload(s, m->normal_data, (size_t)m->vertex_count * 12, "plume mesh: normals");
    own[2] = upload(s, m->texcoord_data, (size_t)m->vertex_count * 8, "plume mesh: texture coordinates");
    own[3] = m->index_count ? upload(s, m->index_data, (size_t)m->index_count * 4, "plume mesh: indices") : 0;
    float radius = 0.0f;
    for (uint32_t v = 0; v < m->vertex_count; ++v) {
        const float *p = m->position_data + 3 * v;
        float d = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (d > radius) radius = d;
    }
    s->mesh.radius[i] = radius;
    *out = (particle_mesh){.positions = own[0], .normals = own[1], .texcoords = own[2], .indices = own[3],
                           .position_stride = 12, .normal_stride = 12, .texcoord_stride = 8, .uploaded = true};
}

plume_result mesh_create(system_state *s) {
    plume_mesh_particles *m = &s->desc.meshes;
    if (m->count == 0) return PLUME_OK;
    plume_result r;
    for (uint32_t i = 0; i < m->count; ++i) {
        plume_mesh_desc *d = &m->meshes[i];
        particle_mesh *out = &s->mesh.view.meshes[i];
        if (d->position_data) upload_mesh(s, (int)i, d, out);
        else if ((r = check_host_mesh(s, (int)i, d, out)) != PLUME_OK) return r;
        out->vertex_count = d->vertex_count;
        out->index_count = d->index_count;
        out->index_type = d->index_type;
        out->radius = s->mesh.radius[i];
        d->position_data = d->normal_data = d->texcoord_data = NULL;
        d->index_data = NULL;
    }
    s->mesh.view.spin_buffer = plume_make_buffer(&s->env, (GLsizeiptr)s->desc.capacity * PLUME_SPIN_BYTES, NULL,
                                                 GL_DYNAMIC_DRAW, "plume particles: spins");
    s->mesh.view.count = m->count;
    plume_find_uniform_locations(s->simulate_program, MESH_UNIFORMS, s->mesh.at);
    return plume_drain_gl_errors(&s->env, "plume_system_create (meshes)");
}

uint32_t mesh_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    enum { OBJECTS = 1 + 4 * PLUME_GPU_MAX_MESHES };
    plume_gl_object all[OBJECTS] = {{GL_BUFFER, s->mesh.view.spin_buffer}};
    for (int i = 0; i < PLUME_GPU_MAX_MESHES; ++i)
        for (int k = 0; k < 4; ++k) all[1 + 4 * i + k] = (plume_gl_object){GL_BUFFER, s->mesh.uploaded[i][k]};
    return plume_list_named_gl_objects(all, OBJECTS, out, capacity);
}

/* A mesh particle's reach from its centre, given the sprite's radius (a
 * quad's half diagonal at the largest size) and the meshes' farthest vertex. */
static float reach_of(const plume_system_desc *desc, float quad_radius, float vertex_reach) {
    const plume_mesh_particles *m = &desc->meshes;
    float stretch = particles_largest_stretch(desc);
    float size = quad_radius / (0.5f * sqrtf(1.0f + stretch * stretch)); /* the largest size */
    float scale = 0.0f;
    for (int k = 0; k < 3; ++k) scale = fmaxf(scale, fmaxf(m->scale_start[k], m->scale_end[k]));
    return size * scale * vertex_reach;
}

float mesh_cull_radius(const system_state *s, float quad_radius) {
    if (s->mesh.view.count == 0) return quad_radius;
    float reach = 0.0f;
    for (uint32_t i = 0; i < s->mesh.view.count; ++i) reach = fmaxf(reach, s->mesh.radius[i]);
    return reach_of(&s->desc, quad_radius, reach);
}

bool particles_desc_mesh_reach(const plume_system_desc *desc, float quad_radius, float *out) {
    const plume_mesh_particles *m = &desc->meshes;
    *out = quad_radius;
    if (m->count == 0) return true;
    float reach = 0.0f;
    for (uint32_t i = 0; i < m->count; ++i) {
        const plume_mesh_desc *mesh = &m->meshes[i];
        if (!mesh->position_data) return false; /* the host's buffers: only the GL knows */
        for (uint32_t v = 0; v < mesh->vertex_count; ++v) {
            const float *p = mesh->position_data + 3 * v;
            reach = fmaxf(reach, sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        }
    }
    *out = reach_of(desc, quad_radius, reach);
    return true;
}

void mesh_prepare_simulate(system_state *s) {
    if (s->mesh.view.count == 0) return;
    const plume_mesh_particles *m = &s->desc.meshes;
    GLuint sim = s->simulate_program;
    const GLint *at = s->mesh.at;
    glProgramUniform1ui(sim, at[0], m->count);
    glProgramUniform1ui(sim, at[1], m->pick);
    glProgramUniform1ui(sim, at[2], m->start_orientation);
    glProgramUniform1ui(sim, at[3], s->desc.seed);
    glProgramUniform1fv(sim, at[4], PLUME_GPU_MAX_MESHES, s->mesh.radius);
    glProgramUniform2f(sim, at[5], m->angular_speed.min, m->angular_speed.max);
    glProgramUniform1f(sim, at[6], m->angular_drag);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SPIN, s->mesh.view.spin_buffer);
}

void mesh_reset(system_state *s) {
    if (!s->mesh.view.spin_buffer) return;
    /* Through the SSBO bindings, which every call's scope restores. */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SPIN, s->mesh.view.spin_buffer);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
}
