#include "scene.h"

#include <cglm/cglm.h>
#include <math.h>
#include <stdlib.h>

#include "gl_util.h"

typedef struct mesh {
    GLuint vertex_array, vertex_buffer, index_buffer;
    GLsizei index_count;
} mesh;

typedef enum mesh_kind { MESH_PLANE, MESH_BOX, MESH_SPHERE, MESH_COUNT } mesh_kind;

typedef struct scene_object {
    mesh_kind mesh;
    vec3 position;
    vec3 scale;          /* box: half extents; sphere: radius; plane: half size */
    float yaw;           /* radians about +y */
    vec3 color;          /* linear albedo */
    bool checker;        /* a faint checker pattern (the ground) */
} scene_object;

struct scene {
    mesh meshes[MESH_COUNT];
    GLuint program;
    GLint model_location, normal_matrix_location, view_projection_location, eye_location;
    GLint color_location, checker_location, sky_location;
    GLuint light_buffer;    /* SCENE_LIGHT_SOURCES ranges of plume_lights_bytes(SCENE_LIGHTS_PER_SOURCE) */
    GLint light_stride;     /* bytes between ranges: aligned for storage and uniform blocks */
};

/* The sky, the sun (towards it, not normalised; its colour) and the
 * ground's bounce: the shader's ambient term is mixed from the ground's and
 * the sky's by the normal's height. By day, or by night (scene_use_night: a
 * dim moon, so that light from particles shows). */
typedef struct daylight {
    float sky[3], to_sun[3], sun[3], ground[3];
} daylight;
static const daylight DAY = {{0.22f, 0.36f, 0.62f}, {0.45f, 1.0f, 0.3f}, {2.6f, 2.392f, 2.08f}, {0.08f, 0.07f, 0.06f}};
static const daylight NIGHT = {{0.012f, 0.018f, 0.04f}, {-0.5f, 1.0f, -0.4f}, {0.05f, 0.06f, 0.1f}, {0.01f, 0.01f, 0.012f}};
static const daylight *light_now = &DAY;
#define SKY (light_now->sky)
#define TO_SUN (light_now->to_sun)
#define SUN (light_now->sun)
#define GROUND (light_now->ground)

void scene_use_night(bool night) { light_now = night ? &NIGHT : &DAY; }
static const float CHIMNEY_TOP[3] = {0.0f, 2.2f, 0.0f};

/* The wind blows towards +x (and a little +z): the pillar and the tall
 * sphere stand in the column's way, so its soft fade against them shows. */
static const scene_object OBJECTS[] = {
    {MESH_PLANE, {0, 0, 0}, {60, 1, 60}, 0, {0.12f, 0.13f, 0.10f}, true},
    {MESH_BOX, {0, 1.1f, 0}, {0.4f, 1.1f, 0.4f}, 0, {0.30f, 0.09f, 0.06f}, false},           /* chimney */
    {MESH_BOX, {-1.5f, 0.4f, 1.1f}, {0.4f, 0.4f, 0.4f}, 0.35f, {0.36f, 0.22f, 0.09f}, false}, /* crates */
    {MESH_BOX, {-0.9f, 0.25f, 1.9f}, {0.25f, 0.25f, 0.25f}, -0.2f, {0.36f, 0.22f, 0.09f}, false},
    {MESH_BOX, {3.6f, 2.75f, -0.6f}, {0.35f, 2.75f, 0.35f}, 0.4f, {0.22f, 0.24f, 0.28f}, false}, /* pillar */
    {MESH_SPHERE, {1.9f, 0.75f, -1.3f}, {0.75f, 0.75f, 0.75f}, 0, {0.55f, 0.33f, 0.05f}, false},
    {MESH_SPHERE, {-2.3f, 0.5f, -0.7f}, {0.5f, 0.5f, 0.5f}, 0, {0.04f, 0.25f, 0.28f}, false},
    {MESH_SPHERE, {1.5f, 3.6f, -0.3f}, {0.45f, 0.45f, 0.45f}, 0, {0.40f, 0.40f, 0.44f}, false}, /* in the smoke */
};

static const char *VERTEX_SHADER =
    "layout(location = 0) in vec3 a_position;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "uniform mat4 u_model;\n"
    "uniform mat3 u_normal_matrix;\n"
    "uniform mat4 u_view_projection;\n"
    "out vec3 v_world;\n"
    "out vec3 v_normal;\n"
    "void main() {\n"
    "    vec4 world = u_model * vec4(a_position, 1.0);\n"
    "    v_world = world.xyz;\n"
    "    v_normal = u_normal_matrix * a_normal;\n"
    "    gl_Position = u_view_projection * world;\n"
    "}\n";

/* Lambert sun + a sky/ground hemisphere ambient + the particles' point
 * lights, distance fog. The lights are plume_lights.h's layout read as
 * std140 uniform blocks (every member a vec4: the same bytes as std430), so
 * the scene runs on GL 3.3 too; plume_system_write_lights ends with the
 * uniform barrier. Each light falls off as the inverse square, windowed to
 * zero at its radius. */
static const char *FRAGMENT_SHADER =
    "#define LIGHTS_PER_SOURCE 16\n"
    "layout(std140) uniform PlumeLights0 { uvec4 header; vec4 lights[2 * LIGHTS_PER_SOURCE]; } fire_lights;\n"
    "layout(std140) uniform PlumeLights1 { uvec4 header; vec4 lights[2 * LIGHTS_PER_SOURCE]; } shown_lights;\n"
    "vec3 point_light(vec4 position_radius, vec3 color, vec3 world, vec3 n) {\n"
    "    vec3 to_light = position_radius.xyz - world;\n"
    "    float d2 = dot(to_light, to_light);\n"
    "    float window = clamp(1.0 - d2 / max(position_radius.w * position_radius.w, 1e-6), 0.0, 1.0);\n"
    "    float facing = max(dot(n, to_light * inversesqrt(max(d2, 1e-8))), 0.0);\n"
    "    return color * facing * window * window / (d2 + 0.3);\n"
    "}\n"
    "#define ADD_LIGHTS(block, sum) for (uint i = 0u; i < min(block.header.x, uint(LIGHTS_PER_SOURCE)); ++i) "
    "sum += point_light(block.lights[2u * i], block.lights[2u * i + 1u].rgb, v_world, n);\n"
    "in vec3 v_world;\n"
    "in vec3 v_normal;\n"
    "uniform vec3 u_eye;\n"
    "uniform vec3 u_color;\n"
    "uniform bool u_checker;\n"
    "uniform vec3 u_sky;\n"
    "uniform vec3 u_to_sun;\n"
    "uniform vec3 u_sun;\n"
    "uniform vec3 u_ground;\n"
    "out vec4 out_color;\n"
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    vec3 to_sun = normalize(u_to_sun);\n"
    "    vec3 albedo = u_color;\n"
    "    if (u_checker) {\n"
    "        vec2 cell = floor(v_world.xz);\n"
    "        albedo *= mod(cell.x + cell.y, 2.0) < 1.0 ? 1.0 : 0.86;\n"
    "    }\n"
    "    vec3 sun = u_sun * max(dot(n, to_sun), 0.0);\n"
    "    vec3 ambient = mix(u_ground, u_sky * 0.7, n.y * 0.5 + 0.5);\n"
    "    vec3 particles = vec3(0.0);\n"
    "    ADD_LIGHTS(fire_lights, particles)\n"
    "    ADD_LIGHTS(shown_lights, particles)\n"
    "    vec3 lit = albedo * (sun + ambient + particles);\n"
    "    float d = distance(v_world, u_eye);\n"
    "    float fog = 1.0 - exp(-0.0009 * d * d);\n"
    "    out_color = vec4(mix(lit, u_sky, fog), 1.0);\n"
    "}\n";

typedef struct vertex {
    float position[3];
    float normal[3];
} vertex;

static void mesh_upload(mesh *m, const vertex *vertices, GLsizei vertex_count, const GLuint *indices,
                        GLsizei index_count) {
    glGenVertexArrays(1, &m->vertex_array);
    glGenBuffers(1, &m->vertex_buffer);
    glGenBuffers(1, &m->index_buffer);
    glBindVertexArray(m->vertex_array);
    glBindBuffer(GL_ARRAY_BUFFER, m->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof *vertices * (size_t)vertex_count), vertices, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof *indices * (size_t)index_count), indices,
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)(3 * sizeof(float)));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    m->index_count = index_count;
}

/* A unit square in xz facing +y (scaled by the object's half size). */
static void make_plane(mesh *m) {
    const vertex vertices[4] = {
        {{-1, 0, -1}, {0, 1, 0}}, {{1, 0, -1}, {0, 1, 0}}, {{1, 0, 1}, {0, 1, 0}}, {{-1, 0, 1}, {0, 1, 0}}};
    const GLuint indices[6] = {0, 2, 1, 0, 3, 2};
    mesh_upload(m, vertices, 4, indices, 6);
}

/* The cube [-1, 1]^3, four vertices per face so each face has its normal. */
static void make_box(mesh *m) {
    vertex vertices[24];
    GLuint indices[36];
    for (int face = 0; face < 6; ++face) {
        int axis = face / 2;
        float sign = face % 2 ? -1.0f : 1.0f;
        int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
        static const float CORNERS[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int c = 0; c < 4; ++c) {
            vertex *v = &vertices[face * 4 + c];
            v->position[axis] = sign;
            v->position[u_axis] = CORNERS[c][0];
            v->position[v_axis] = CORNERS[c][1] * sign; /* keeps the winding outward on both sides */
            v->normal[0] = v->normal[1] = v->normal[2] = 0;
            v->normal[axis] = sign;
        }
        const GLuint quad[6] = {0, 1, 2, 0, 2, 3};
        for (int i = 0; i < 6; ++i) indices[face * 6 + i] = (GLuint)(face * 4) + quad[i];
    }
    mesh_upload(m, vertices, 24, indices, 36);
}

enum { SPHERE_SLICES = 32, SPHERE_STACKS = 20 };

static void make_sphere(mesh *m) {
    vertex vertices[(SPHERE_SLICES + 1) * (SPHERE_STACKS + 1)];
    GLuint indices[SPHERE_SLICES * SPHERE_STACKS * 6];
    int n = 0;
    for (int stack = 0; stack <= SPHERE_STACKS; ++stack) {
        float polar = GLM_PIf * (float)stack / SPHERE_STACKS;
        for (int slice = 0; slice <= SPHERE_SLICES; ++slice) {
            float azimuth = 2.0f * GLM_PIf * (float)slice / SPHERE_SLICES;
            vertex *v = &vertices[n++];
            v->normal[0] = sinf(polar) * cosf(azimuth);
            v->normal[1] = cosf(polar);
            v->normal[2] = -sinf(polar) * sinf(azimuth);
            for (int k = 0; k < 3; ++k) v->position[k] = v->normal[k];
        }
    }
    int i = 0;
    for (int stack = 0; stack < SPHERE_STACKS; ++stack)
        for (int slice = 0; slice < SPHERE_SLICES; ++slice) {
            GLuint a = (GLuint)(stack * (SPHERE_SLICES + 1) + slice), b = a + SPHERE_SLICES + 1;
            const GLuint quad[6] = {a, b, a + 1, a + 1, b, b + 1};
            for (int k = 0; k < 6; ++k) indices[i++] = quad[k];
        }
    mesh_upload(m, vertices, n, indices, i);
}

bool scene_create(scene **out) {
    *out = NULL;
    scene *s = calloc(1, sizeof *s);
    if (!s) return false;
    s->program = demo_program_create("demo scene", VERTEX_SHADER, FRAGMENT_SHADER);
    if (!s->program) {
        free(s);
        return false;
    }
    s->model_location = glGetUniformLocation(s->program, "u_model");
    s->normal_matrix_location = glGetUniformLocation(s->program, "u_normal_matrix");
    s->view_projection_location = glGetUniformLocation(s->program, "u_view_projection");
    s->eye_location = glGetUniformLocation(s->program, "u_eye");
    s->color_location = glGetUniformLocation(s->program, "u_color");
    s->checker_location = glGetUniformLocation(s->program, "u_checker");
    s->sky_location = glGetUniformLocation(s->program, "u_sky");
    GLint uniform_alignment = 256, storage_alignment = 1;
    glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &uniform_alignment);
    if (epoxy_gl_version() >= 43) glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &storage_alignment);
    GLint alignment = uniform_alignment > storage_alignment ? uniform_alignment : storage_alignment;
    GLint bytes = (GLint)plume_lights_bytes(SCENE_LIGHTS_PER_SOURCE);
    s->light_stride = (bytes + alignment - 1) / alignment * alignment;
    void *zeros = calloc(SCENE_LIGHT_SOURCES, (size_t)s->light_stride);
    glGenBuffers(1, &s->light_buffer);
    glBindBuffer(GL_UNIFORM_BUFFER, s->light_buffer);
    glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)SCENE_LIGHT_SOURCES * s->light_stride, zeros, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    free(zeros);
    glUniformBlockBinding(s->program, glGetUniformBlockIndex(s->program, "PlumeLights0"), 0);
    glUniformBlockBinding(s->program, glGetUniformBlockIndex(s->program, "PlumeLights1"), 1);
    make_plane(&s->meshes[MESH_PLANE]);
    make_box(&s->meshes[MESH_BOX]);
    make_sphere(&s->meshes[MESH_SPHERE]);
    *out = s;
    return true;
}

void scene_destroy(scene *s) {
    if (!s) return;
    for (int k = 0; k < MESH_COUNT; ++k) {
        glDeleteVertexArrays(1, &s->meshes[k].vertex_array);
        glDeleteBuffers(1, &s->meshes[k].vertex_buffer);
        glDeleteBuffers(1, &s->meshes[k].index_buffer);
    }
    glDeleteProgram(s->program);
    glDeleteBuffers(1, &s->light_buffer);
    free(s);
}

void scene_draw(const scene *s, const float view_projection[16], const float eye[3]) {
    glUseProgram(s->program);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glUniformMatrix4fv(s->view_projection_location, 1, GL_FALSE, view_projection);
    glUniform3fv(s->eye_location, 1, eye);
    glUniform3fv(s->sky_location, 1, SKY);
    glUniform3fv(glGetUniformLocation(s->program, "u_to_sun"), 1, TO_SUN);
    glUniform3fv(glGetUniformLocation(s->program, "u_sun"), 1, SUN);
    glUniform3fv(glGetUniformLocation(s->program, "u_ground"), 1, GROUND);
    GLsizeiptr light_bytes = (GLsizeiptr)plume_lights_bytes(SCENE_LIGHTS_PER_SOURCE);
    for (int k = 0; k < SCENE_LIGHT_SOURCES; ++k)
        glBindBufferRange(GL_UNIFORM_BUFFER, (GLuint)k, s->light_buffer, (GLintptr)k * s->light_stride, light_bytes);
    for (size_t k = 0; k < sizeof OBJECTS / sizeof OBJECTS[0]; ++k) {
        const scene_object *o = &OBJECTS[k];
        mat4 model;
        glm_translate_make(model, (float *)o->position);
        glm_rotate_y(model, o->yaw, model);
        glm_scale(model, (float *)o->scale);
        mat3 normal_matrix;
        glm_mat4_pick3(model, normal_matrix);
        glm_mat3_inv(normal_matrix, normal_matrix);
        glm_mat3_transpose(normal_matrix);
        glUniformMatrix4fv(s->model_location, 1, GL_FALSE, (const float *)model);
        glUniformMatrix3fv(s->normal_matrix_location, 1, GL_FALSE, (const float *)normal_matrix);
        glUniform3fv(s->color_location, 1, o->color);
        glUniform1i(s->checker_location, o->checker);
        const mesh *m = &s->meshes[o->mesh];
        glBindVertexArray(m->vertex_array);
        glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL);
    }
    glBindVertexArray(0);
    glDisable(GL_CULL_FACE);
}

plume_lights_desc scene_light_range(const scene *s, int source) {
    return (plume_lights_desc){.buffer = s->light_buffer, .offset = (uint32_t)(source * s->light_stride),
                               .max_lights = SCENE_LIGHTS_PER_SOURCE};
}

void scene_clear_lights(const scene *s, int source) {
    const uint32_t none[4] = {0, 0, 0, 0};
    glBindBuffer(GL_UNIFORM_BUFFER, s->light_buffer);
    glBufferSubData(GL_UNIFORM_BUFFER, (GLintptr)source * s->light_stride, sizeof none, none);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
}

void scene_sky_color(float out_rgb[3]) {
    for (int k = 0; k < 3; ++k) out_rgb[k] = SKY[k];
}

void scene_light(float to_sun[3], float sun[3], float ambient[3]) {
    for (int k = 0; k < 3; ++k) {
        to_sun[k] = TO_SUN[k];
        sun[k] = SUN[k];
        /* What the scene's ambient gives a vertical surface (n.y = 0). */
        ambient[k] = 0.5f * (GROUND[k] + 0.7f * SKY[k]);
    }
}

/* Where a ray meets an object: the box's slab test in its own frame (turned
 * by yaw), the sphere's quadratic, the plane's height; the nearest hit in
 * front of the origin. */
static bool object_ray_hit(const scene_object *o, const vec3 origin, const vec3 direction, float *t_out, vec3 normal) {
    if (o->mesh == MESH_PLANE) {
        if (fabsf(direction[1]) < 1e-6f) return false;
        float t = (o->position[1] - origin[1]) / direction[1];
        if (t <= 0.0f) return false;
        float x = origin[0] + t * direction[0] - o->position[0], z = origin[2] + t * direction[2] - o->position[2];
        if (fabsf(x) > o->scale[0] || fabsf(z) > o->scale[2]) return false;
        *t_out = t;
        glm_vec3_copy((vec3){0, 1, 0}, normal);
        return true;
    }
    if (o->mesh == MESH_SPHERE) {
        vec3 to_origin;
        glm_vec3_sub((float *)origin, (float *)o->position, to_origin);
        float b = glm_vec3_dot(to_origin, (float *)direction);
        float c = glm_vec3_dot(to_origin, to_origin) - o->scale[0] * o->scale[0];
        float disc = b * b - c;
        if (disc < 0.0f) return false;
        float t = -b - sqrtf(disc);
        if (t <= 0.0f) return false;
        *t_out = t;
        for (int k = 0; k < 3; ++k) normal[k] = (to_origin[k] + t * direction[k]) / o->scale[0];
        return true;
    }
    /* The box: origin and direction turned into its frame (the inverse yaw). */
    float c = cosf(o->yaw), s = sinf(o->yaw);
    vec3 local_origin, local_direction, offset;
    glm_vec3_sub((float *)origin, (float *)o->position, offset);
    local_origin[0] = c * offset[0] - s * offset[2];
    local_origin[1] = offset[1];
    local_origin[2] = s * offset[0] + c * offset[2];
    local_direction[0] = c * direction[0] - s * direction[2];
    local_direction[1] = direction[1];
    local_direction[2] = s * direction[0] + c * direction[2];
    float t_near = -INFINITY, t_far = INFINITY;
    int near_axis = 0;
    float near_sign = 1.0f;
    for (int k = 0; k < 3; ++k) {
        if (fabsf(local_direction[k]) < 1e-9f) {
            if (fabsf(local_origin[k]) > o->scale[k]) return false;
            continue;
        }
        float t0 = (-o->scale[k] - local_origin[k]) / local_direction[k];
        float t1 = (o->scale[k] - local_origin[k]) / local_direction[k];
        float sign = -1.0f;
        if (t0 > t1) {
            float swap = t0;
            t0 = t1;
            t1 = swap;
            sign = 1.0f;
        }
        if (t0 > t_near) {
            t_near = t0;
            near_axis = k;
            near_sign = sign;
        }
        if (t1 < t_far) t_far = t1;
    }
    if (t_near > t_far || t_near <= 0.0f) return false;
    *t_out = t_near;
    vec3 local_normal = {0, 0, 0};
    local_normal[near_axis] = near_sign;
    /* Back to the world: the yaw. */
    normal[0] = c * local_normal[0] + s * local_normal[2];
    normal[1] = local_normal[1];
    normal[2] = -s * local_normal[0] + c * local_normal[2];
    return true;
}

bool scene_ray_hit(const float origin[3], const float direction[3], float out_point[3], float out_normal[3]) {
    float best = INFINITY;
    for (size_t k = 0; k < sizeof OBJECTS / sizeof OBJECTS[0]; ++k) {
        float t;
        vec3 normal;
        if (object_ray_hit(&OBJECTS[k], origin, direction, &t, normal) && t < best) {
            best = t;
            for (int i = 0; i < 3; ++i) {
                out_point[i] = origin[i] + t * direction[i];
                out_normal[i] = normal[i];
            }
        }
    }
    return best < INFINITY;
}

void scene_pillar(float out_base[3], float *out_height) {
    const scene_object *pillar = &OBJECTS[4];
    out_base[0] = pillar->position[0];
    out_base[1] = 0.0f;
    out_base[2] = pillar->position[2];
    *out_height = 2.0f * pillar->scale[1];
}

void scene_chimney_top(float out[3]) {
    for (int k = 0; k < 3; ++k) out[k] = CHIMNEY_TOP[k];
}
