/* The gameplay scene's systems and every module call they make (gameplay.h). */
#include "gameplay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plume/plume_particles.h"
#include "scene.h"

enum {
    TORCH_COUNT = 100,
    EVENT_BATCH = 256 /* records taken per poll call */
};

/* The trail's emitter circles the pillar this fast (radians per second) at
 * this radius: about 4 m/s, 7 cm a frame at 60 Hz, where per-frame spawning
 * would leave clumps. */
static const float ORBIT_SPEED = 3.5f, ORBIT_RADIUS = 1.15f, ORBIT_HEIGHT = 2.6f;
static const float CAMPFIRE[3] = {-3.2f, 0.0f, 3.1f};
static const float CAMPFIRE_PREWARM = 6.0f;

struct gameplay {
    plume_context *context;
    plume_system impacts, trail, campfire, torches;
    double time;
    gameplay_stats stats;
};

static void log_message(plume_log_level level, const char *message, void *user) {
    (void)user;
    fprintf(stderr, "plume (gameplay) %s: %s\n", level == PLUME_LOG_ERROR ? "error" : "note", message);
}

/* Sparks (emitter 0, streaks that bounce off the ground and report each
 * landing) and dust (emitter 1) thrown off a surface; both only on demand:
 * their rates are 0, the emitters are templates for plume_system_emit. */
static plume_system_desc impacts_desc(const char *sprite) {
    const plume_collision_desc bounce = {.restitution = 0.4f, .friction = 0.3f, .rest_speed = 0.8f};
    return (plume_system_desc){
        .capacity = 24576,
        .seed = 7,
        .emitters[0] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.03f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 1.2f, .lifetime = {0.5f, 1.1f}, .speed = {3.0f, 7.0f}, .size = {0.03f, 0.05f}},
        .emitters[1] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.15f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 1.3f, .lifetime = {1.0f, 2.2f}, .speed = {0.4f, 1.4f}, .size = {0.25f, 0.5f}},
        .forces = {.gravity = {0, -9.8f, 0}, .drag = 0.9f},
        .appearance = {.color_over_life = {2, {{0.0f, {1, 1, 1, 1}}, {1.0f, {0.8f, 0.8f, 0.8f, 1}}}},
                       .opacity_over_life = {3, {{0.0f, 0.0f}, {0.08f, 1.0f}, {1.0f, 0.0f}}},
                       .size_over_life = {2, {{0.0f, 0.6f}, {1.0f, 1.4f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4},
                       .soft_fade_distance = 0.1f},
        .orientation = PLUME_ORIENT_VELOCITY_STRETCHED,
        .stretch_factor = 0.06f,
        .stretch_limits = {1.0f, 5.0f},
        .world = {.colliders[0] = {.shape = PLUME_COLLIDER_PLANE, .collision = bounce}},
        .cpu_events = {.kinds = PLUME_PARTICLE_EVENT_COLLISION, .source_emitters = 1u << 0, .budget = 4096},
    };
}

/* Smoke that the orbiting emitter leaves behind, with a little of its speed. */
static plume_system_desc trail_desc(const char *sprite) {
    return (plume_system_desc){
        .capacity = 8192,
        .seed = 11,
        .emitters[0] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.05f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 3.14159f, .rate = 900.0f, .lifetime = {2.0f, 3.0f}, .speed = {0.05f, 0.2f},
                        .size = {0.12f, 0.18f}, .rotation = {0, 6.28f}, .spin = {-0.5f, 0.5f}},
        .forces = {.wind = {0.3f, 0.25f, 0}, .drag = 1.2f, .turbulence = 0.4f, .turbulence_scale = 0.8f},
        .appearance = {.color_over_life = {2, {{0.0f, {0.95f, 0.95f, 0.97f, 0.7f}}, {1.0f, {0.6f, 0.6f, 0.65f, 0.5f}}}},
                       .opacity_over_life = {3, {{0.0f, 0.0f}, {0.1f, 1.0f}, {1.0f, 0.0f}}},
                       .size_over_life = {2, {{0.0f, 1.0f}, {1.0f, 3.5f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4}},
        .inherit_velocity = 0.25f,
        .lit = true,
    };
}

/* Flames that turn to smoke as they rise: additive while young. */
static plume_system_desc campfire_desc(const char *sprite) {
    plume_system_desc desc = {
        .capacity = 4096,
        .seed = 13,
        .emitters[0] = {.shape = PLUME_SHAPE_CONE, .extents = {0.35f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 0.25f, .rate = 450.0f, .lifetime = {1.2f, 3.2f}, .speed = {0.6f, 1.2f},
                        .size = {0.25f, 0.4f}, .rotation = {0, 6.28f}, .spin = {-1, 1}},
        .forces = {.wind = {0.25f, 0.4f, 0}, .drag = 0.6f, .turbulence = 0.6f, .turbulence_scale = 1.2f,
                   .turbulence_speed = 0.5f},
        .appearance = {.color_over_life = {4,
                                           {{0.0f, {1.0f, 0.75f, 0.3f, 1}},
                                            {0.15f, {1.0f, 0.4f, 0.08f, 1}},
                                            {0.35f, {0.25f, 0.22f, 0.2f, 0.6f}},
                                            {1.0f, {0.35f, 0.35f, 0.37f, 0.3f}}}},
                       .opacity_over_life = {3, {{0.0f, 0.0f}, {0.05f, 1.0f}, {1.0f, 0.0f}}},
                       .size_over_life = {3, {{0.0f, 0.6f}, {0.3f, 1.0f}, {1.0f, 3.0f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4}},
        .blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE,
        .additive_over_life = {3, {{0.0f, 1.0f}, {0.2f, 1.0f}, {0.4f, 0.0f}}},
        .prewarm_time = CAMPFIRE_PREWARM,
    };
    memcpy(desc.emitters[0].position, CAMPFIRE, sizeof CAMPFIRE);
    return desc;
}

/* One torch flame, placed by the instances (the emitter sits at their origin). */
static plume_system_desc torch_desc(const char *sprite) {
    return (plume_system_desc){
        .capacity = 8192,
        .seed = 17,
        .emitters[0] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.05f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 0.3f, .rate = 70.0f, .lifetime = {0.35f, 0.7f}, .speed = {0.5f, 0.9f},
                        .size = {0.12f, 0.2f}, .rotation = {0, 6.28f}},
        .appearance = {.color_over_life = {3,
                                           {{0.0f, {1.0f, 0.85f, 0.45f, 1}},
                                            {0.5f, {1.0f, 0.45f, 0.1f, 1}},
                                            {1.0f, {0.6f, 0.15f, 0.05f, 1}}}},
                       .opacity_over_life = {3, {{0.0f, 0.0f}, {0.1f, 1.0f}, {1.0f, 0.0f}}},
                       .size_over_life = {2, {{0.0f, 1.0f}, {1.0f, 0.4f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4}},
        .blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE,
    };
}

/* Two rows of torches behind the scene, fifty each. */
static void place_torches(plume_instance_desc torches[TORCH_COUNT]) {
    for (int i = 0; i < TORCH_COUNT; ++i) {
        int row = i / (TORCH_COUNT / 2), k = i % (TORCH_COUNT / 2);
        torches[i] = (plume_instance_desc){
            .transform = {.position = {-9.0f + 18.0f * (float)k / (TORCH_COUNT / 2 - 1), 1.2f, -5.5f - 2.0f * row}},
            .enabled = true,
        };
    }
}

static bool made(plume_result r, const char *what) {
    if (r != PLUME_OK) fprintf(stderr, "gameplay: %s: %s\n", what, plume_result_string(r));
    return r == PLUME_OK;
}

bool gameplay_create(const char *sprite_path, gameplay **out) {
    *out = NULL;
    gameplay *g = calloc(1, sizeof *g);
    if (!g) return false;
    plume_context_desc context_desc = {.logger = {log_message, g}};
    plume_system_desc impacts = impacts_desc(sprite_path), trail = trail_desc(sprite_path),
                      campfire = campfire_desc(sprite_path), torches = torch_desc(sprite_path);
    bool ok = made(plume_context_create(&context_desc, &g->context), "context") &&
              made(plume_system_create(g->context, &impacts, &g->impacts), "impacts") &&
              made(plume_system_create(g->context, &trail, &g->trail), "trail") &&
              made(plume_system_create(g->context, &campfire, &g->campfire), "campfire") &&
              made(plume_system_create(g->context, &torches, &g->torches), "torches");
    if (ok) {
        /* Instance 0 is the system's own placement: the torches are 1 .. 100. */
        plume_instance_desc placements[TORCH_COUNT + 1] = {{.enabled = false}};
        place_torches(placements + 1);
        ok = made(plume_system_set_instances(g->context, g->torches, 0, TORCH_COUNT + 1, placements), "torches");
    }
    if (!ok) {
        gameplay_destroy(g);
        return false;
    }
    g->stats.torches = TORCH_COUNT;
    g->stats.campfire_prewarm = CAMPFIRE_PREWARM;
    *out = g;
    return true;
}

void gameplay_destroy(gameplay *g) {
    if (!g) return;
    const plume_system systems[] = {g->impacts, g->trail, g->campfire, g->torches};
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; ++i) plume_system_destroy(g->context, systems[i]);
    plume_context_destroy(g->context);
    free(g);
}

/* The rotation that turns +y onto the unit `normal` (a quaternion x, y, z, w). */
static void rotation_onto(const float normal[3], float q[4]) {
    float w = 1.0f + normal[1]; /* 1 + dot(y, n) */
    if (w < 1e-5f) {            /* facing straight down: half a turn about x */
        q[0] = 1, q[1] = q[2] = q[3] = 0;
        return;
    }
    /* cross(y, n) = (n.z, 0, -n.x) */
    float length = sqrtf(normal[2] * normal[2] + normal[0] * normal[0] + w * w);
    q[0] = normal[2] / length, q[1] = 0, q[2] = -normal[0] / length, q[3] = w / length;
}

bool gameplay_fire_impact(gameplay *g, const float point[3], const float normal[3]) {
    plume_emit_desc sparks = {.emitter = 0, .count = 140, .color = {3.0f, 1.6f, 0.6f, 1.0f}};
    memcpy(sparks.transform.position, point, sizeof sparks.transform.position);
    rotation_onto(normal, sparks.transform.rotation);
    plume_emit_desc dust = sparks;
    dust.emitter = 1;
    dust.count = 40;
    memcpy(dust.color, (float[4]){0.45f, 0.42f, 0.38f, 0.55f}, sizeof dust.color);
    bool ok = plume_system_emit(g->context, g->impacts, &sparks) == PLUME_OK &&
              plume_system_emit(g->context, g->impacts, &dust) == PLUME_OK;
    if (ok) ++g->stats.impacts;
    return ok;
}

/* The landings that have come back: a game would play a sound at each. */
static bool take_events(gameplay *g) {
    plume_particle_event events[EVENT_BATCH];
    plume_event_poll_info info;
    do {
        if (plume_system_poll_events(g->context, g->impacts, events, EVENT_BATCH, &info) != PLUME_OK) return false;
        for (uint32_t i = 0; i < info.delivered; ++i)
            if (events[i].kind == PLUME_PARTICLE_EVENT_COLLISION) ++g->stats.spark_landings;
        g->stats.events_dropped += info.dropped_budget + info.dropped_in_flight + info.dropped_queue;
    } while (info.delivered == EVENT_BATCH);
    return true;
}

bool gameplay_update(gameplay *g, const smoke_frame *frame) {
    g->time += frame->dt;
    float base[3], height;
    scene_pillar(base, &height);
    float angle = ORBIT_SPEED * (float)g->time;
    plume_transform orbit = {.position = {base[0] + ORBIT_RADIUS * cosf(angle), ORBIT_HEIGHT,
                                          base[2] + ORBIT_RADIUS * sinf(angle)}};
    plume_frame_desc desc = smoke_frame_desc(frame);
    plume_bounds box;
    bool ok = plume_system_set_transform(g->context, g->trail, &orbit, false) == PLUME_OK &&
              plume_system_update(g->context, g->impacts, &desc) == PLUME_OK &&
              plume_system_update(g->context, g->trail, &desc) == PLUME_OK &&
              plume_system_update(g->context, g->campfire, &desc) == PLUME_OK &&
              plume_system_update(g->context, g->torches, &desc) == PLUME_OK && take_events(g) &&
              plume_system_get_bounds(g->context, g->trail, &box) == PLUME_OK;
    if (ok && box.any_live) {
        g->stats.bounds_known = true;
        memcpy(g->stats.trail_min, box.min, sizeof box.min);
        memcpy(g->stats.trail_max, box.max, sizeof box.max);
    }
    return ok;
}

bool gameplay_draw(gameplay *g, const smoke_frame *frame) {
    plume_frame_desc desc = smoke_frame_desc(frame);
    const plume_system order[] = {g->torches, g->campfire, g->trail, g->impacts};
    bool ok = true;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i)
        ok = plume_system_draw(g->context, order[i], &desc) == PLUME_OK && ok;
    return ok;
}

void gameplay_get_stats(const gameplay *g, gameplay_stats *out) { *out = g->stats; }
