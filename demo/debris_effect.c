/* Rock debris from a blast: two rock meshes (a chunk and a flat chip: a
 * sphere's vertices pushed in and out by a hash, flat-shaded facets), thrown
 * up and out, tumbling fast; the ground (a plane) and the scene's depth
 * bounce them with friction, which turns their slide into a roll until they
 * rest. Opaque: drawn before the smoke, they write depth. */
#include "debris_effect.h"

#include <math.h>
#include <string.h>

enum { RINGS = 4, SEGMENTS = 7, TRIANGLES = RINGS * SEGMENTS * 2, VERTICES = 3 * TRIANGLES };

typedef struct rock_mesh {
    float positions[VERTICES][3], normals[VERTICES][3];
} rock_mesh;

static float jitter(uint32_t v, uint32_t seed) {
    uint32_t h = (v + 1u) * 2654435761u ^ seed * 0x9E3779B9u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (float)(h & 0xFFFFu) / 65535.0f;
}

/* A lumpy sphere of radius about 0.5, squashed by `squash` in y; flat
 * facets (three vertices a triangle, the facet's normal). */
static void make_rock(rock_mesh *m, uint32_t seed, float squash) {
    float grid[RINGS + 1][SEGMENTS + 1][3];
    const float pi = 3.14159265f;
    for (int r = 0; r <= RINGS; ++r)
        for (int s = 0; s <= SEGMENTS; ++s) {
            uint32_t id = (r == 0 || r == RINGS) ? (uint32_t)r * 1000u : (uint32_t)(r * SEGMENTS + s % SEGMENTS);
            float radius = 0.5f * (0.75f + 0.25f * jitter(id, seed));
            float theta = pi * (float)r / RINGS, phi = 2.0f * pi * (float)s / SEGMENTS;
            grid[r][s][0] = radius * sinf(theta) * cosf(phi);
            grid[r][s][1] = radius * cosf(theta) * squash;
            grid[r][s][2] = radius * sinf(theta) * sinf(phi);
        }
    int t = 0;
    for (int r = 0; r < RINGS; ++r)
        for (int s = 0; s < SEGMENTS; ++s) {
            const float *quad[4] = {grid[r][s], grid[r + 1][s], grid[r + 1][s + 1], grid[r][s + 1]};
            const int triangles[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int k = 0; k < 2; ++k, ++t) {
                const float *a = quad[triangles[k][0]], *b = quad[triangles[k][1]], *c = quad[triangles[k][2]];
                float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
                float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
                float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                const float *corners[3] = {a, b, c};
                for (int j = 0; j < 3; ++j) {
                    memcpy(m->positions[3 * t + j], corners[j], sizeof m->positions[0]);
                    for (int k2 = 0; k2 < 3; ++k2) m->normals[3 * t + j][k2] = length > 0.0f ? n[k2] / length : 0.0f;
                }
            }
        }
}

plume_system_desc debris_desc(uint32_t capacity, uint32_t seed, const float position[3]) {
    static rock_mesh chunk, chip;
    make_rock(&chunk, 7u, 0.85f);
    make_rock(&chip, 19u, 0.45f);
    /* The ground plane lifted by a rock's half height: their centres rest
     * there, their bottoms on the ground. */
    const plume_collision_desc bounce = {.restitution = 0.35f, .friction = 0.5f, .rest_speed = 0.8f};
    uint32_t burst = capacity / 4 > 0 ? capacity / 4 : 1;
    plume_system_desc desc = {
        .capacity = capacity,
        .seed = seed,
        .lit = true,
        .emitters[0] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.2f}, .direction = {0, 1, 0}, .spread = 1.0f,
                        .burst_count = burst * 2 / 3, .burst_interval = 4.0f, .lifetime = {7.5f, 8.0f},
                        .speed = {3.0f, 8.0f}, .size = {0.22f, 0.45f}},
        .emitters[1] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.2f}, .direction = {0, 1, 0}, .spread = 1.2f,
                        .burst_count = burst / 3, .burst_interval = 4.0f, .lifetime = {7.5f, 8.0f},
                        .speed = {4.0f, 10.0f}, .size = {0.12f, 0.25f}},
        .forces = {.gravity = {0, -9.8f, 0}, .drag = 0.05f},
        .appearance = {.color_over_life = {2, {{0.0f, {0.30f, 0.25f, 0.21f, 1}}, {1.0f, {0.30f, 0.26f, 0.22f, 1}}}},
                       .size_over_life = {3, {{0.0f, 1.0f}, {0.9f, 1.0f}, {1.0f, 0.0f}}}},
        .world = {.colliders[0] = {.shape = PLUME_COLLIDER_PLANE, .position = {0, 0.09f, 0}, .collision = bounce},
                  .depth_collision = {.enabled = true, .thickness = 0.4f, .collision = bounce}},
        .meshes = {.count = 2,
                   .pick = PLUME_MESH_PICK_BY_EMITTER,
                   .angular_speed = {3.0f, 14.0f},
                   .angular_drag = 0.4f,
                   .scale_start = {1.0f, 0.8f, 0.9f},
                   .scale_end = {1.0f, 0.8f, 0.9f}},
    };
    const plume_mesh_desc meshes[2] = {
        {.vertex_count = VERTICES, .position_data = &chunk.positions[0][0], .normal_data = &chunk.normals[0][0]},
        {.vertex_count = VERTICES, .position_data = &chip.positions[0][0], .normal_data = &chip.normals[0][0]},
    };
    memcpy(desc.meshes.meshes, meshes, sizeof meshes);
    for (int e = 0; e < 2; ++e) memcpy(desc.emitters[e].position, position, sizeof desc.emitters[e].position);
    return desc;
}
