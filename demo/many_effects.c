/* The many-effects scene's systems and every module call they make
 * (many_effects.h). */
#include "many_effects.h"

#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "plume/plume_particles.h"

enum {
    TORCHES = 160, /* two rings of 80 fires on the ground round the scene */
    IMPACTS = 60,
    DUST = 80,
    SYSTEMS = TORCHES + IMPACTS + DUST,
    IMPACT_PERIOD = 90, /* frames between one impact system's bursts */
    QUERIES = 4         /* timer queries in flight */
};

struct many_effects {
    plume_context *context;
    plume_system systems[SYSTEMS];
    uint64_t frame;
    GLuint queries[QUERIES][2]; /* per frame in flight: the update's, the draw's */
    uint64_t queried;           /* frames timed so far */
    many_effects_stats stats;
};

static void log_message(plume_log_level level, const char *message, void *user) {
    (void)user;
    fprintf(stderr, "plume (many effects) %s: %s\n", level == PLUME_LOG_ERROR ? "error" : "note", message);
}

/* A deterministic spread in 0..1 for index i and salt k. */
static float spread(uint32_t i, uint32_t k) {
    uint32_t h = i * 2654435761u ^ k * 2246822519u;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    return (float)(h & 0xFFFFu) / 65535.0f;
}

/* A small flame on the ground: a young glowing core turning to thin
 * smoke; the torches stand in two rings round the scene, far enough apart
 * that each reads as a fire of its own. */
static plume_system_desc torch_desc(const char *sprite, uint32_t i) {
    const float tau = 6.2831853f;
    bool inner = i < TORCHES / 2;
    float angle = tau * ((float)(i % (TORCHES / 2)) + (inner ? 0.0f : 0.5f)) / (TORCHES / 2);
    float radius = inner ? 7.0f : 9.5f;
    float x = 0.5f + radius * cosf(angle), z = -0.5f + radius * sinf(angle);
    return (plume_system_desc){
        .capacity = 128,
        .seed = 100 + i,
        .emitters[0] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.05f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 0.3f, .rate = 70.0f, .lifetime = {0.5f, 0.9f}, .speed = {0.5f, 0.9f},
                        .size = {0.2f, 0.32f}, .position = {x, 0.12f, z}},
        .forces = {.gravity = {0, 0.4f, 0}, .drag = 0.8f},
        .appearance = {.color_over_life = {3, {{0.0f, {1.0f, 0.75f, 0.3f, 1}}, {0.5f, {0.9f, 0.35f, 0.1f, 1}},
                                               {1.0f, {0.25f, 0.22f, 0.2f, 1}}}},
                       .opacity_over_life = {3, {{0.0f, 0.0f}, {0.1f, 0.9f}, {1.0f, 0.0f}}},
                       .size_over_life = {2, {{0.0f, 1.0f}, {1.0f, 0.5f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4}},
        .blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE,
        .additive_over_life = {2, {{0.0f, 1.0f}, {0.7f, 0.0f}}},
    };
}

/* Sparks thrown off the ground on demand (rate 0: plume_system_emit). */
static plume_system_desc impact_desc(const char *sprite, uint32_t i) {
    return (plume_system_desc){
        .capacity = 256,
        .seed = 1000 + i,
        .emitters[0] = {.shape = PLUME_SHAPE_SPHERE, .extents = {0.05f, 0, 0}, .direction = {0, 1, 0},
                        .spread = 1.1f, .lifetime = {0.4f, 0.9f}, .speed = {2.0f, 5.0f}, .size = {0.03f, 0.05f},
                        .position = {-7.0f + 14.0f * spread(i, 1), 0.02f, -4.5f + 8.0f * spread(i, 2)}},
        .forces = {.gravity = {0, -9.8f, 0}, .drag = 0.6f},
        .appearance = {.color_over_life = {2, {{0.0f, {1.0f, 0.85f, 0.45f, 1}}, {1.0f, {0.9f, 0.3f, 0.1f, 1}}}},
                       .opacity_over_life = {2, {{0.0f, 1.0f}, {1.0f, 0.0f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4}},
        .blend_mode = PLUME_BLEND_ADDITIVE,
        .orientation = PLUME_ORIENT_VELOCITY_STRETCHED,
        .stretch_factor = 0.05f,
        .stretch_limits = {1.0f, 5.0f},
    };
}

/* Slow grey puffs over the ground, lit by the scene's sun. */
static plume_system_desc dust_desc(const char *sprite, uint32_t i) {
    return (plume_system_desc){
        .capacity = 64,
        .seed = 5000 + i,
        .emitters[0] = {.shape = PLUME_SHAPE_BOX, .extents = {0.5f, 0.05f, 0.5f}, .direction = {0, 1, 0},
                        .spread = 1.5f, .rate = 10.0f, .lifetime = {2.0f, 3.0f}, .speed = {0.05f, 0.2f},
                        .size = {0.3f, 0.6f},
                        .position = {-8.0f + 16.0f * spread(i, 3), 0.2f, -5.0f + 9.0f * spread(i, 4)}},
        .forces = {.gravity = {0.15f, 0.05f, 0}, .drag = 0.5f},
        .appearance = {.color_over_life = {1, {{0.0f, {0.55f, 0.5f, 0.45f, 1}}}},
                       .opacity_over_life = {3, {{0.0f, 0.0f}, {0.3f, 0.35f}, {1.0f, 0.0f}}},
                       .size_over_life = {2, {{0.0f, 0.6f}, {1.0f, 1.5f}}},
                       .texture = {.path = sprite, .columns = 4, .rows = 4},
                       .soft_fade_distance = 0.3f},
        .lit = true,
    };
}

bool many_effects_create(const char *sprite_path, many_effects **out) {
    *out = NULL;
    many_effects *m = calloc(1, sizeof *m);
    if (!m) return false;
    plume_context_desc context_desc = {.logger = {log_message, m}};
    plume_result r = plume_context_create(&context_desc, &m->context);
    for (uint32_t i = 0; r == PLUME_OK && i < SYSTEMS; ++i) {
        plume_system_desc desc = i < TORCHES             ? torch_desc(sprite_path, i)
                                 : i < TORCHES + IMPACTS ? impact_desc(sprite_path, i - TORCHES)
                                                         : dust_desc(sprite_path, i - TORCHES - IMPACTS);
        r = plume_system_create(m->context, &desc, &m->systems[i]);
    }
    if (r != PLUME_OK) {
        fprintf(stderr, "many effects: %s\n", plume_result_string(r));
        many_effects_destroy(m);
        return false;
    }
    glGenQueries(2 * QUERIES, &m->queries[0][0]);
    m->stats = (many_effects_stats){.systems = SYSTEMS, .torches = TORCHES, .impacts = IMPACTS, .dust = DUST,
                                    .gpu_ms = NAN};
    *out = m;
    return true;
}

void many_effects_destroy(many_effects *m) {
    if (!m) return;
    if (m->queries[0][0]) glDeleteQueries(2 * QUERIES, &m->queries[0][0]);
    for (uint32_t i = 0; i < SYSTEMS; ++i)
        if (m->systems[i].id) plume_system_destroy(m->context, m->systems[i]);
    plume_context_destroy(m->context);
    free(m);
}

bool many_effects_update(many_effects *m, const smoke_frame *frame) {
    bool ok = true;
    for (uint32_t i = 0; i < IMPACTS; ++i) {
        if ((m->frame + 7 * i) % IMPACT_PERIOD != 0) continue;
        plume_emit_desc burst = {.emitter = 0, .count = 60, .color = {1, 1, 1, 1}};
        ok = plume_system_emit(m->context, m->systems[TORCHES + i], &burst) == PLUME_OK && ok;
    }
    ++m->frame;
    /* The oldest frame's queries, once the GPU has finished them (never waited for). */
    GLuint *slot = m->queries[m->queried % QUERIES];
    GLuint ready = 0;
    if (m->queried >= QUERIES) glGetQueryObjectuiv(slot[1], GL_QUERY_RESULT_AVAILABLE, &ready);
    if (ready) {
        GLuint64 update = 0, draw = 0;
        glGetQueryObjectui64v(slot[0], GL_QUERY_RESULT, &update);
        glGetQueryObjectui64v(slot[1], GL_QUERY_RESULT, &draw);
        m->stats.gpu_ms = (double)(update + draw) * 1e-6;
    }
    glBeginQuery(GL_TIME_ELAPSED, slot[0]);
    plume_frame_desc desc = smoke_frame_desc(frame);
    desc.disable_sort = true; /* the batch's draw sorts every system together */
    double start = demo_now_ms();
    ok = plume_batch_update(m->context, NULL, 0, &desc) == PLUME_OK && ok;
    m->stats.update_cpu_ms = demo_now_ms() - start;
    glEndQuery(GL_TIME_ELAPSED);
    return ok;
}

bool many_effects_draw(many_effects *m, const smoke_frame *frame) {
    plume_frame_desc desc = smoke_frame_desc(frame);
    glBeginQuery(GL_TIME_ELAPSED, m->queries[m->queried % QUERIES][1]);
    double start = demo_now_ms();
    bool ok = plume_batch_draw(m->context, NULL, 0, &desc) == PLUME_OK;
    m->stats.draw_cpu_ms = demo_now_ms() - start;
    glEndQuery(GL_TIME_ELAPSED);
    ++m->queried;
    return ok;
}

void many_effects_get_stats(const many_effects *m, many_effects_stats *out) { *out = m->stats; }
