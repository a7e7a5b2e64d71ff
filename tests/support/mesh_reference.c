/* The mesh tests' meshes and CPU rasterizer (mesh_reference.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_reference.h"

static mesh_arrays allocate(uint32_t vertices, uint32_t indices) {
    mesh_arrays m = {vertices, indices, calloc(vertices * 3, sizeof(float)), calloc(vertices * 3, sizeof(float)),
                     calloc(vertices * 2, sizeof(float)), calloc(indices, sizeof(uint32_t))};
    return m;
}

mesh_arrays mesh_reference_cube(void) {
    mesh_arrays m = allocate(24, 36);
    for (int face = 0; face < 6; ++face) {
        int axis = face / 2;
        float sign = face % 2 ? -1.0f : 1.0f;
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        const float corners[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
        for (int c = 0; c < 4; ++c) {
            float *p = m.positions + 3 * (4 * face + c), *n = m.normals + 3 * (4 * face + c);
            p[axis] = 0.5f * sign;
            p[u] = corners[c][0] * sign;
            p[v] = corners[c][1];
            n[axis] = sign;
            m.texcoords[2 * (4 * face + c)] = corners[c][0] + 0.5f;
            m.texcoords[2 * (4 * face + c) + 1] = corners[c][1] + 0.5f;
        }
        const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; ++k) m.indices[6 * face + k] = 4 * (uint32_t)face + quad[k];
    }
    return m;
}

mesh_arrays mesh_reference_sphere(uint32_t rings, uint32_t segments) {
    mesh_arrays m = allocate((rings + 1) * (segments + 1), rings * segments * 6);
    const float pi = 3.14159265358979f;
    for (uint32_t r = 0; r <= rings; ++r)
        for (uint32_t s = 0; s <= segments; ++s) {
            uint32_t i = r * (segments + 1) + s;
            float theta = pi * (float)r / (float)rings, phi = 2.0f * pi * (float)s / (float)segments;
            float n[3] = {sinf(theta) * cosf(phi), cosf(theta), sinf(theta) * sinf(phi)};
            for (int k = 0; k < 3; ++k) m.positions[3 * i + k] = 0.5f * n[k], m.normals[3 * i + k] = n[k];
            m.texcoords[2 * i] = (float)s / (float)segments;
            m.texcoords[2 * i + 1] = (float)r / (float)rings;
        }
    uint32_t k = 0;
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t s = 0; s < segments; ++s) {
            uint32_t a = r * (segments + 1) + s, b = a + segments + 1;
            const uint32_t quad[6] = {a, a + 1, b, a + 1, b + 1, b}; /* counter-clockwise seen from outside */
            for (int q = 0; q < 6; ++q) m.indices[k++] = quad[q];
        }
    return m;
}

void mesh_reference_free(mesh_arrays *m) {
    free(m->positions);
    free(m->normals);
    free(m->texcoords);
    free(m->indices);
    *m = (mesh_arrays){0};
}

plume_mesh_desc mesh_reference_desc(const mesh_arrays *m) {
    return (plume_mesh_desc){.vertex_count = m->vertex_count, .index_count = m->index_count,
                             .position_data = m->positions, .normal_data = m->normals,
                             .texcoord_data = m->texcoords, .index_data = m->indices};
}

void mesh_reference_orientation_along(const float axis[3], float q[4]) {
    float length = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    float to[3] = {axis[0] / length, axis[1] / length, axis[2] / length};
    float raw[4] = {to[2], 0.0f, -to[0], 1.0f + to[1]};
    float n = sqrtf(raw[0] * raw[0] + raw[2] * raw[2] + raw[3] * raw[3]);
    for (int k = 0; k < 4; ++k) q[k] = raw[k] / n;
}

static void rotate(const float q[4], const float v[3], float out[3]) {
    /* v + 2 q.xyz x (q.xyz x v + w v), as the shaders' rotate_by */
    float t[3] = {q[1] * v[2] - q[2] * v[1] + q[3] * v[0], q[2] * v[0] - q[0] * v[2] + q[3] * v[1],
                  q[0] * v[1] - q[1] * v[0] + q[3] * v[2]};
    out[0] = v[0] + 2.0f * (q[1] * t[2] - q[2] * t[1]);
    out[1] = v[1] + 2.0f * (q[2] * t[0] - q[0] * t[2]);
    out[2] = v[2] + 2.0f * (q[0] * t[1] - q[1] * t[0]);
}

typedef struct screen_vertex {
    float x, y, z, w_inverse; /* window x, y, depth; 1 / clip w */
    float normal[3], to_eye[3];
} screen_vertex;

static screen_vertex transform(const mesh_instance *in, uint32_t v, const mat4 view, const mat4 projection,
                               const float eye[3], int width, int height) {
    const float *p = in->mesh->positions + 3 * v, *n = in->mesh->normals + 3 * v;
    float scaled[3] = {p[0] * in->scale[0], p[1] * in->scale[1], p[2] * in->scale[2]};
    float turned[3], normal_scaled[3] = {n[0] / in->scale[0], n[1] / in->scale[1], n[2] / in->scale[2]};
    rotate(in->orientation, scaled, turned);
    vec4 world = {turned[0] + in->position[0], turned[1] + in->position[1], turned[2] + in->position[2], 1.0f};
    vec4 eye_space, clip;
    glm_mat4_mulv((vec4 *)view, world, eye_space);
    glm_mat4_mulv((vec4 *)projection, eye_space, clip);
    screen_vertex s;
    s.w_inverse = 1.0f / clip[3];
    s.x = (clip[0] * s.w_inverse * 0.5f + 0.5f) * (float)width;
    s.y = (clip[1] * s.w_inverse * 0.5f + 0.5f) * (float)height;
    s.z = clip[2] * s.w_inverse * 0.5f + 0.5f;
    rotate(in->orientation, normal_scaled, s.normal);
    for (int k = 0; k < 3; ++k) s.to_eye[k] = eye[k] - world[k];
    return s;
}

static float edge(const screen_vertex *a, const screen_vertex *b, float x, float y) {
    return (b->x - a->x) * (y - a->y) - (b->y - a->y) * (x - a->x);
}

static void shade(const mesh_instance *in, const mesh_light *light, const float normal[3], const float to_eye[3],
                  float out[4]) {
    float length = sqrtf(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    float n[3] = {normal[0] / length, normal[1] / length, normal[2] / length};
    if (n[0] * to_eye[0] + n[1] * to_eye[1] + n[2] * to_eye[2] < 0.0f) n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
    float lambert = fmaxf(0.0f, n[0] * light->direction[0] + n[1] * light->direction[1] + n[2] * light->direction[2]);
    for (int k = 0; k < 3; ++k) out[k] = in->color[k] * (light->ambient[k] + light->color[k] * lambert);
    out[3] = 1.0f;
}

static void draw_triangle(const mesh_instance *in, const screen_vertex *t[3], const mesh_light *light, int width,
                          int height, float *rgba, float *depth) {
    float area = edge(t[0], t[1], t[2]->x, t[2]->y);
    if (area == 0.0f) return;
    float lo_x = fminf(t[0]->x, fminf(t[1]->x, t[2]->x)), hi_x = fmaxf(t[0]->x, fmaxf(t[1]->x, t[2]->x));
    float lo_y = fminf(t[0]->y, fminf(t[1]->y, t[2]->y)), hi_y = fmaxf(t[0]->y, fmaxf(t[1]->y, t[2]->y));
    for (int y = (int)fmaxf(0.0f, floorf(lo_y)); y < height && y <= (int)hi_y; ++y)
        for (int x = (int)fmaxf(0.0f, floorf(lo_x)); x < width && x <= (int)hi_x; ++x) {
            float px = (float)x + 0.5f, py = (float)y + 0.5f;
            float b[3] = {edge(t[1], t[2], px, py) / area, edge(t[2], t[0], px, py) / area,
                          edge(t[0], t[1], px, py) / area};
            if (b[0] < 0.0f || b[1] < 0.0f || b[2] < 0.0f) continue;
            float z = b[0] * t[0]->z + b[1] * t[1]->z + b[2] * t[2]->z;
            size_t i = (size_t)y * (size_t)width + (size_t)x;
            if (z < 0.0f || z >= depth[i]) continue;
            /* Perspective-correct attributes. */
            float w = b[0] * t[0]->w_inverse + b[1] * t[1]->w_inverse + b[2] * t[2]->w_inverse;
            float normal[3], to_eye[3];
            for (int k = 0; k < 3; ++k) {
                normal[k] = (b[0] * t[0]->w_inverse * t[0]->normal[k] + b[1] * t[1]->w_inverse * t[1]->normal[k] +
                             b[2] * t[2]->w_inverse * t[2]->normal[k]) / w;
                to_eye[k] = (b[0] * t[0]->w_inverse * t[0]->to_eye[k] + b[1] * t[1]->w_inverse * t[1]->to_eye[k] +
                             b[2] * t[2]->w_inverse * t[2]->to_eye[k]) / w;
            }
            depth[i] = z;
            shade(in, light, normal, to_eye, rgba + 4 * i);
        }
}

void mesh_reference_draw(const mesh_instance *instances, uint32_t count, const mat4 view, const mat4 projection,
                         const mesh_light *light, int width, int height, float *rgba, float *depth) {
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    const float eye[3] = {inverse[3][0], inverse[3][1], inverse[3][2]};
    for (uint32_t i = 0; i < count; ++i) {
        const mesh_instance *in = &instances[i];
        screen_vertex *vertices = malloc(sizeof *vertices * in->mesh->vertex_count);
        for (uint32_t v = 0; v < in->mesh->vertex_count; ++v)
            vertices[v] = transform(in, v, view, projection, eye, width, height);
        for (uint32_t k = 0; k + 2 < in->mesh->index_count; k += 3) {
            const screen_vertex *t[3] = {&vertices[in->mesh->indices[k]], &vertices[in->mesh->indices[k + 1]],
                                         &vertices[in->mesh->indices[k + 2]]};
            draw_triangle(in, t, light, width, height, rgba, depth);
        }
        free(vertices);
    }
}
