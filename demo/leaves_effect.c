/* Autumn leaves: two leaf meshes (a broad one and a narrow one: an outline
 * fanned from the midrib, folded a little along it and curled at the tip,
 * flat-shaded, one face: the draw lights whichever side faces the eye),
 * blown off the top of the pillar. Strong drag against the air and
 * turbulence make them flutter and drift with the wind rather than fall;
 * they spin slowly about random axes, and the ground and the scene's depth
 * stop them, friction laying them flat. Their colour turns from yellow
 * through orange to brown over their life, so leaves born at different
 * times show the autumn's range at once. Opaque: they write depth. */
#include "leaves_effect.h"

#include <math.h>
#include <string.h>

enum { OUTLINE = 9, TRIANGLES = 4 * (OUTLINE - 1), VERTICES = 3 * TRIANGLES };

typedef struct leaf_mesh {
    float positions[VERTICES][3], normals[VERTICES][3];
} leaf_mesh;

/* The leaf in its x-z plane, the stem at z = -0.5, the tip at z = +0.5, its
 * face +y: half-width `width` at the widest, the sides folded up by `fold`
 * (y per unit of x) and the tip curled down by `curl`. */
static void leaf_point(float along, float side, float width, float fold, float curl, float out[3]) {
    float half = width * sinf(3.14159265f * powf(along, 0.8f)); /* round at the stem, pointed at the tip */
    float x = side * half, z = along - 0.5f;
    out[0] = x;
    out[1] = fold * fabsf(x) - curl * along * along;
    out[2] = z;
}

static void add_triangle(leaf_mesh *m, int *t, const float *a, const float *b, const float *c) {
    float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const float *corners[3] = {a, b, c};
    for (int j = 0; j < 3; ++j) {
        memcpy(m->positions[3 * *t + j], corners[j], sizeof m->positions[0]);
        for (int k = 0; k < 3; ++k) m->normals[3 * *t + j][k] = length > 0.0f ? n[k] / length : 0.0f;
    }
    ++*t;
}

/* Strips between the midrib and each edge, OUTLINE points along. */
static void make_leaf(leaf_mesh *m, float width, float fold, float curl) {
    float rib[OUTLINE][3], left[OUTLINE][3], right[OUTLINE][3];
    for (int i = 0; i < OUTLINE; ++i) {
        float along = (float)i / (OUTLINE - 1);
        leaf_point(along, 0.0f, width, fold, curl, rib[i]);
        leaf_point(along, -1.0f, width, fold, curl, left[i]);
        leaf_point(along, 1.0f, width, fold, curl, right[i]);
    }
    int t = 0;
    for (int i = 0; i + 1 < OUTLINE; ++i) {
        add_triangle(m, &t, rib[i], rib[i + 1], left[i + 1]);
        add_triangle(m, &t, rib[i], left[i + 1], left[i]);
        add_triangle(m, &t, rib[i], right[i], right[i + 1]);
        add_triangle(m, &t, rib[i], right[i + 1], rib[i + 1]);
    }
}

plume_system_desc leaves_desc(uint32_t capacity, uint32_t seed, const float top[3]) {
    static leaf_mesh broad, narrow;
    make_leaf(&broad, 0.36f, 0.25f, 0.12f);
    make_leaf(&narrow, 0.2f, 0.35f, 0.2f);
    const plume_collision_desc land = {.restitution = 0.05f, .friction = 0.9f, .rest_speed = 0.6f};
    const float lifetime = 14.0f;
    plume_system_desc desc = {
        .capacity = capacity,
        .seed = seed,
        .lit = true,
        .emitters[0] = {.shape = PLUME_SHAPE_BOX, .extents = {0.7f, 0.2f, 0.7f}, .direction = {0.3f, 1, 0.1f},
                        .spread = 1.4f, .rate = (float)capacity / lifetime, .lifetime = {lifetime * 0.5f, lifetime},
                        .speed = {0.2f, 1.0f}, .size = {0.2f, 0.32f}},
        .forces = {.gravity = {0, -2.0f, 0}, .wind = {0.45f, 0, 0.2f}, .drag = 1.5f, .turbulence = 2.6f,
                   .turbulence_scale = 2.2f, .turbulence_speed = 0.35f},
        /* Lit by a bright sun: the colours are darker than they look. */
        .appearance = {.color_over_life = {5,
                                           {{0.0f, {0.78f, 0.58f, 0.10f, 1}},
                                            {0.12f, {0.80f, 0.36f, 0.06f, 1}},
                                            {0.3f, {0.66f, 0.16f, 0.05f, 1}},
                                            {0.55f, {0.45f, 0.20f, 0.07f, 1}},
                                            {1.0f, {0.30f, 0.19f, 0.10f, 1}}}},
                       .size_over_life = {4, {{0.0f, 0.0f}, {0.04f, 1.0f}, {0.92f, 1.0f}, {1.0f, 0.0f}}}},
        .world = {.colliders[0] = {.shape = PLUME_COLLIDER_PLANE, .position = {0, 0.02f, 0}, .collision = land},
                  .depth_collision = {.enabled = true, .thickness = 0.3f, .collision = land}},
        .meshes = {.count = 2,
                   .pick = PLUME_MESH_PICK_RANDOM,
                   .angular_speed = {1.0f, 4.5f},
                   .angular_drag = 0.25f},
    };
    const plume_mesh_desc meshes[2] = {
        {.vertex_count = VERTICES, .position_data = &broad.positions[0][0], .normal_data = &broad.normals[0][0]},
        {.vertex_count = VERTICES, .position_data = &narrow.positions[0][0], .normal_data = &narrow.normals[0][0]},
    };
    memcpy(desc.meshes.meshes, meshes, sizeof meshes);
    memcpy(desc.emitters[0].position, top, sizeof desc.emitters[0].position);
    desc.emitters[0].position[1] += 0.2f;
    return desc;
}
