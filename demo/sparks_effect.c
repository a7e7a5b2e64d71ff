/* Sparks from a grinder: hot, fast, tiny, falling under gravity; they bounce
 * off the ground (a plane, so they never fall through it off-screen) and off
 * whatever the camera sees (the scene's depth buffer: crates, spheres, the
 * chimney), losing speed to friction, and each landing throws two smaller,
 * shorter-lived sparks (a collision event) that bounce too. Each spark
 * draws a streak behind it: a trail of its last positions, narrowing and
 * fading towards its end; sparks and streaks add their light. */
#include "sparks_effect.h"

#include <string.h>

/* Seconds a spark lives; the grinder's rate fills a third of the capacity,
 * the landings' children (two per impact, short-lived) about as much again:
 * room is left, so no event is dropped and the same steps give the same
 * picture. */
static const plume_range LIFETIME = {1.0f, 1.8f};

plume_system_desc sparks_desc(uint32_t capacity, uint32_t seed, const float position[3]) {
    /* Bounces end below 1 unit/s: a spark resting on the ground touches it
     * every step, with less than that, and throws nothing more. */
    const plume_collision_desc bounce = {.restitution = 0.45f, .friction = 0.35f, .rest_speed = 1.0f};
    plume_system_desc desc = {
        .capacity = capacity,
        .seed = seed,
        .emitters[0] = {                          /* the grinder's wheel: a stream along +x, a little up */
            .shape = PLUME_SHAPE_SPHERE,
            .extents = {0.05f, 0, 0},
            .direction = {1.0f, 0.35f, 0.25f},
            .spread = 0.3f,
            .rate = 0.33f * (float)capacity / (0.5f * (LIFETIME.min + LIFETIME.max)),
            .lifetime = LIFETIME,
            .speed = {4.5f, 8.0f},
            .size = {0.025f, 0.045f},
        },
        .emitters[1] = {                          /* a landing's fragments: only from events */
            .direction = {0, 1, 0},
            .spread = 1.1f,
            .lifetime = {0.25f, 0.6f},
            .speed = {0.6f, 1.8f},
            .size = {0.015f, 0.03f},
        },
        .forces = {.gravity = {0, -9.8f, 0}, .drag = 0.25f},
        .appearance = {
            /* White-hot, through yellow and orange, to a dull red. */
            .color_over_life = {4,
                                {{0.0f, {1.0f, 1.0f, 0.92f, 1}},
                                 {0.25f, {1.0f, 0.9f, 0.55f, 1}},
                                 {0.6f, {1.0f, 0.55f, 0.12f, 1}},
                                 {1.0f, {0.8f, 0.2f, 0.03f, 1}}}},
            .opacity_over_life = {2, {{0.7f, 1.0f}, {1.0f, 0.0f}}},
            .size_over_life = {2, {{0.0f, 1.0f}, {1.0f, 0.5f}}},
            .soft_fade_distance = 0.05f,
        },
        /* Light, not paint: a spark adds its light (no sort: addition
         * does not depend on the order) and emits more while it is hot, so
         * its core goes past white into the bloom and its light reaches the
         * scene (plume_system_write_lights). */
        .blend_mode = PLUME_BLEND_ADDITIVE,
        .emissive_over_life = {3,
                               {{0.0f, {1.0f, 0.95f, 0.8f, 1.0f}},
                                {0.35f, {1.0f, 0.7f, 0.3f, 0.8f}},
                                {1.0f, {0.9f, 0.3f, 0.05f, 0.0f}}}},
        /* A point every 1/60 s: the streak is the last ~0.1 s of the path,
         * curved through the bounces. */
        .trail = {
            .points = 8,
            .spacing = 1.0f / 60.0f,
            .width_over_length = {2, {{0.0f, 0.8f}, {1.0f, 0.1f}}},
            .opacity_over_length = {2, {{0.0f, 0.9f}, {1.0f, 0.0f}}},
        },
        .world = {
            .colliders[0] = {.shape = PLUME_COLLIDER_PLANE, .collision = bounce},
            .depth_collision = {.enabled = true, .thickness = 0.4f, .collision = bounce},
            .events[0] = {.trigger = PLUME_EVENT_COLLISION, .source_emitters = 1u << 0, .target_emitter = 1,
                          .count = 2, .inherit_velocity = 0.3f},
            .event_capacity = capacity / 8 > 4096 ? capacity / 8 : 4096,
        },
    };
    memcpy(desc.emitters[0].position, position, sizeof desc.emitters[0].position);
    return desc;
}
