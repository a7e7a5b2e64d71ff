/* The smoke column's look (one emitter at the chimney's mouth, buoyancy, wind,
 * curl noise, a flipbook puff that swells, dark young smoke turning into a
 * light haze) and every call the demo makes into the plume module. */
#include "smoke_system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "plume/plume_context.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "debris_effect.h"
#include "leaves_effect.h"
#include "scene.h"
#include "sparks_effect.h"

/* The demo is one host: one plume context owns its system. */
struct smoke_system {
    smoke_settings settings;
    plume_context *context;
    plume_system system;
    bool from_effect;
    plume_effect effect;     /* with from_effect: the file's system, at the file's capacity */
    bool scaled;             /* the capacity was chosen (keys, --particles), not the file's */
    char last_error[512];
    plume_system fire;       /* with settings.fire */
    plume_draw_group group;  /* fire and the system on show in one order; {0}: none */
    /* The effect file's other systems (smoke_settings.companions); opaque:
     * drawn before the rest (their meshes write depth). */
    plume_system companions[PLUME_EFFECT_MAX_SYSTEMS];
    bool companion_opaque[PLUME_EFFECT_MAX_SYSTEMS];
    uint32_t companion_count;
};

/* The module's errors go to stderr as by default, and the last one is kept
 * for the HUD. */
static void log_message(plume_log_level level, const char *message, void *user) {
    smoke_system *smoke = user;
    if (level > PLUME_LOG_WARNING) return;
    fprintf(stderr, "plume %s: %s\n", level == PLUME_LOG_ERROR ? "error" : "warning", message);
    if (level == PLUME_LOG_ERROR) snprintf(smoke->last_error, sizeof smoke->last_error, "%s", message);
}

/* Seconds a puff lives; the spawn rate is capacity / mean lifetime, so the
 * live count settles just under the capacity. */
static const plume_range LIFETIME = {3.0f, 5.0f};

/* More particles make finer smoke, not a thicker column: past 16 K each puff
 * gets smaller (count^-0.2) and fainter (count^-0.45), so the column covers
 * about the same area with about the same density (a little denser, as more
 * particles also fill it out), and the pixels drawn grow as count^0.6 rather
 * than with the count (64 K: 2.3 times those of 16 K, 1 M: 12 times). */
static float count_ratio(uint32_t capacity) { return 16384.0f / (float)capacity; }
static float puff_size_scale(uint32_t capacity) { return fminf(1.0f, powf(count_ratio(capacity), 0.2f)); }
static float puff_opacity(uint32_t capacity) { return fminf(0.9f, 0.7f * powf(count_ratio(capacity), 0.45f)); }

/* The built-in column's self-shadowing strength (plume_self_shadow_desc):
 * low, since each puff (about a metre) is a hundred texels of the 64 x 64
 * map over the column, and the splat puts its opacity round its centre; at
 * this strength the column reads as a volume lit from above, its underside
 * and young soot darker, its thin top lit through. */
#define SMOKE_SELF_SHADOW 0.012f
/* The motion of a byte of 255 in tools/make_sprites' smoke_puff_motion.png. */
#define PUFF_MOTION_STRENGTH 0.0625f

static plume_system_desc smoke_desc(const smoke_settings *settings, uint32_t capacity) {
    float mean_lifetime = 0.5f * (LIFETIME.min + LIFETIME.max);
    plume_system_desc desc = {
        .capacity = capacity,
        .seed = settings->seed,
        .emitters[0] = {
            .shape = PLUME_SHAPE_CONE,           /* a disc: the chimney's mouth */
            .extents = {0.28f, 0, 0},
            .direction = {0, 1, 0},
            .spread = 0.35f,
            .rate = 0.97f * (float)capacity / mean_lifetime,
            .lifetime = LIFETIME,
            .speed = {0.9f, 1.6f},
            .size = {0.3f, 0.5f},
            .rotation = {0.0f, 6.2831853f},
            .spin = {-0.6f, 0.6f},
        },
        .forces = {
            .gravity = {0, 0.75f, 0},            /* buoyancy: warm smoke keeps rising */
            .wind = {1.5f, 0.0f, -0.35f},         /* felt through drag */
            .drag = 0.55f,
            .turbulence = 0.9f,
            .turbulence_scale = 0.45f,
            .turbulence_speed = 0.35f,
        },
        .appearance = {
            /* Puffs swell as they rise and spread. */
            .size_over_life = {3, {{0.0f, 0.6f}, {0.3f, 1.4f}, {1.0f, 2.6f}}},
            /* Young smoke is dark and sooty, old smoke a light haze: with
             * colours that differ along the column, the draw order shows. */
            .color_over_life = {3,
                                {{0.0f, {0.06f, 0.057f, 0.054f, 1}},
                                 {0.3f, {0.22f, 0.215f, 0.21f, 1}},
                                 {1.0f, {0.45f, 0.45f, 0.47f, 1}}}},
            .opacity_over_life = {4, {{0.0f, 0.0f}, {0.06f, 1.0f}, {0.5f, 0.7f}, {1.0f, 0.0f}}},
            .texture = {.columns = 4, .rows = 4},
            .soft_fade_distance = 0.45f,
        },
        .lit = !settings->unlit, /* by the scene's sun and sky (scene_light) */
        /* Dark on the side away from the sun, the thin haze lit through. */
        .self_shadow = {.strength = settings->unlit || settings->no_self_shadow ? 0.0f : SMOKE_SELF_SHADOW},
    };
    memcpy(desc.emitters[0].position, settings->emitter_position, sizeof desc.emitters[0].position);
    float opacity = puff_opacity(capacity);
    for (uint32_t k = 0; k < desc.appearance.opacity_over_life.key_count; ++k)
        desc.appearance.opacity_over_life.keys[k].value *= opacity;
    float size_scale = puff_size_scale(capacity);
    desc.emitters[0].size.min *= size_scale;
    desc.emitters[0].size.max *= size_scale;
    desc.appearance.texture.path = settings->texture_path;
    if (settings->motion_path)
        desc.flipbook_motion = (plume_flipbook_motion){.path = settings->motion_path, .strength = PUFF_MOTION_STRENGTH};
    return desc;
}

/* A fire at the chimney's mouth (--fire): young flames that add their light
 * (an additive part over life), turning into dark smoke that covers; the
 * column rises through it. Drawn by one group with the column, a flame in
 * front of smoke shows and one behind it is covered; drawn first, every
 * flame is behind all the smoke. */
enum { FIRE_CAPACITY = 6000 };

static plume_system_desc fire_desc(const smoke_settings *settings) {
    plume_system_desc desc = {
        .capacity = FIRE_CAPACITY,
        .seed = settings->seed + 1,
        .emitters[0] = {.shape = PLUME_SHAPE_CONE, .extents = {0.3f, 0, 0}, .direction = {0, 1, 0}, .spread = 0.5f,
                        .rate = 0.95f * FIRE_CAPACITY / 1.0f, .lifetime = {0.6f, 1.4f}, .speed = {0.8f, 1.8f},
                        .size = {0.18f, 0.32f}, .rotation = {0.0f, 6.2831853f}, .spin = {-1.5f, 1.5f}},
        .forces = {.gravity = {0, 1.2f, 0}, .drag = 0.8f, .turbulence = 1.5f, .turbulence_scale = 1.2f,
                   .turbulence_speed = 1.0f},
        .appearance = {
            .size_over_life = {2, {{0.0f, 1.0f}, {1.0f, 0.4f}}},
            .color_over_life = {3,
                                {{0.0f, {1.0f, 0.75f, 0.3f, 0.9f}},
                                 {0.45f, {0.9f, 0.3f, 0.05f, 0.8f}},
                                 {1.0f, {0.08f, 0.06f, 0.05f, 0.0f}}}},
            .texture = {.columns = 4, .rows = 4, .path = settings->texture_path},
            .soft_fade_distance = 0.3f,
        },
        .blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE,
        .additive_over_life = {2, {{0.0f, 1.0f}, {0.6f, 0.0f}}},
    };
    memcpy(desc.emitters[0].position, settings->emitter_position, sizeof desc.emitters[0].position);
    return desc;
}

/* (Re)makes the group of the fire and the system on show (after either is
 * made, while they are drawn jointly); without it the two are drawn one
 * after the other (stderr says why). */
static void regroup(smoke_system *smoke) {
    plume_draw_group_destroy(smoke->context, smoke->group);
    smoke->group = (plume_draw_group){0};
    if (!smoke->fire.id || !smoke->settings.joint) return;
    plume_system systems[2] = {smoke->fire, smoke->system};
    plume_draw_group_desc desc = {.systems = systems, .system_count = 2};
    if (plume_draw_group_create(smoke->context, &desc, &smoke->group) != PLUME_OK)
        fprintf(stderr, "smoke: fire and smoke drawn one after the other: %s\n", smoke->last_error);
    else if (plume_draw_group_set_profiling(smoke->context, smoke->group, true) != PLUME_OK)
        fprintf(stderr, "smoke: the draw group is not profiled: %s\n", smoke->last_error);
}

/* The effect at another capacity: its emitters emit in proportion. */
static plume_system_desc scaled_effect(const plume_effect *effect, uint32_t capacity) {
    plume_system_desc desc = effect->desc;
    if (capacity == 0 || desc.capacity == 0 || capacity == desc.capacity) return desc;
    double ratio = (double)capacity / desc.capacity;
    desc.capacity = capacity;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) {
        desc.emitters[e].rate = (float)(desc.emitters[e].rate * ratio);
        desc.emitters[e].burst_count = (uint32_t)lround(desc.emitters[e].burst_count * ratio);
    }
    return desc;
}

static plume_system_desc shown_desc(const smoke_system *smoke, uint32_t capacity) {
    if (smoke->from_effect) return scaled_effect(&smoke->effect, smoke->scaled ? capacity : 0);
    const smoke_settings *settings = &smoke->settings;
    if (settings->builtin == DEMO_EFFECT_DEBRIS) {
        const float blast[3] = {0.6f, 0.0f, 0.3f};
        return debris_desc(capacity, settings->seed, blast);
    }
    if (settings->builtin == DEMO_EFFECT_LEAVES) {
        float top[3], height;
        scene_pillar(top, &height);
        top[1] += height;
        return leaves_desc(capacity, settings->seed, top);
    }
    return settings->builtin == DEMO_EFFECT_SPARKS ? sparks_desc(capacity, settings->seed, settings->grinder_position)
                                                   : smoke_desc(settings, capacity);
}

/* An effect file's meshes into `desc` (its OBJ files loaded into `meshes`,
 * freed after the create); the demo registers no mesh names. */
static bool resolve_effect_meshes(const plume_effect *effect, plume_system_desc *desc, plume_effect_meshes *meshes) {
    memset(meshes, 0, sizeof *meshes);
    if (!effect || desc->meshes.count == 0) return true;
    plume_system_desc resolved;
    plume_effect_error error;
    if (plume_effect_resolve_meshes(effect, NULL, 0, &resolved, meshes, &error) != PLUME_OK) {
        fprintf(stderr, "smoke: %s\n", error.message);
        return false;
    }
    memcpy(desc->meshes.meshes, resolved.meshes.meshes, sizeof desc->meshes.meshes);
    return true;
}

static bool create_system(smoke_system *smoke, uint32_t capacity, plume_system *out) {
    plume_context *context = smoke->context;
    plume_system_desc desc = shown_desc(smoke, capacity);
    capacity = desc.capacity;
    desc.path = smoke->settings.gpu_path;
    plume_effect_meshes meshes;
    if (!resolve_effect_meshes(smoke->from_effect ? &smoke->effect : NULL, &desc, &meshes)) return false;
    plume_result result = plume_system_create(context, &desc, out);
    plume_effect_meshes_free(&meshes);
    if (result != PLUME_OK) {
        fprintf(stderr, "smoke: cannot create a system of %u particles: %s\n", capacity, plume_result_string(result));
        return false;
    }
    if ((smoke->settings.tile_size || smoke->settings.chunk_entries) &&
        plume_system_set_tiled_options(context, *out, smoke->settings.tile_size, smoke->settings.chunk_entries) !=
            PLUME_OK) {
        plume_system_destroy(context, *out);
        return false;
    }
    /* Without profiling the demo still runs; the HUD then says so. */
    result = plume_system_set_profiling(context, *out, true);
    if (result != PLUME_OK) fprintf(stderr, "smoke: no profiling: %s\n", plume_result_string(result));
    return true;
}

static void destroy_companions(smoke_system *smoke, const plume_system *systems, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) plume_system_destroy(smoke->context, systems[i]);
}

/* A system for each of `count` effects (at their files' capacities), into
 * out[] and opaque[]; none on failure. */
static bool create_companions(smoke_system *smoke, const plume_effect *effects, uint32_t count, plume_system *out,
                              bool *opaque) {
    if (count > PLUME_EFFECT_MAX_SYSTEMS) return false;
    for (uint32_t i = 0; i < count; ++i) {
        plume_system_desc desc = effects[i].desc;
        desc.path = smoke->settings.gpu_path;
        plume_effect_meshes meshes;
        bool ok = resolve_effect_meshes(&effects[i], &desc, &meshes) &&
                  plume_system_create(smoke->context, &desc, &out[i]) == PLUME_OK;
        plume_effect_meshes_free(&meshes);
        if (!ok) {
            fprintf(stderr, "smoke: cannot create the effect's system %u: %s\n", i + 1, smoke->last_error);
            destroy_companions(smoke, out, i);
            return false;
        }
        opaque[i] = desc.meshes.count > 0 && desc.meshes.surface != PLUME_MESH_TRANSPARENT;
        if (plume_system_set_profiling(smoke->context, out[i], true) != PLUME_OK)
            fprintf(stderr, "smoke: no profiling of the effect's system %u\n", i + 1);
    }
    return true;
}

bool smoke_system_create(const smoke_settings *settings, smoke_system **out) {
    *out = NULL;
    smoke_system *smoke = calloc(1, sizeof *smoke);
    if (!smoke) return false;
    smoke->settings = *settings;
    smoke->settings.effect = NULL;
    smoke->settings.companions = NULL;
    smoke->settings.companion_count = 0;
    if (settings->effect) {
        smoke->from_effect = true;
        plume_effect_copy(&smoke->effect, settings->effect);
        smoke->scaled = settings->capacity != 0;
    }
    plume_context_desc context_desc = {.logger = {log_message, smoke}};
    if (plume_context_create(&context_desc, &smoke->context) != PLUME_OK) {
        free(smoke);
        return false;
    }
    if (!create_system(smoke, settings->capacity, &smoke->system)) {
        plume_context_destroy(smoke->context);
        free(smoke);
        return false;
    }
    smoke->settings.capacity = shown_desc(smoke, settings->capacity).capacity;
    if (!create_companions(smoke, settings->companions, settings->companion_count, smoke->companions,
                           smoke->companion_opaque)) {
        smoke_system_destroy(smoke);
        return false;
    }
    smoke->companion_count = settings->companion_count;
    if (settings->fire) {
        plume_system_desc fire = fire_desc(settings);
        if (plume_system_create(smoke->context, &fire, &smoke->fire) != PLUME_OK) {
            smoke_system_destroy(smoke);
            return false;
        }
        regroup(smoke);
    }
    *out = smoke;
    return true;
}

void smoke_system_destroy(smoke_system *smoke) {
    if (!smoke) return;
    plume_draw_group_destroy(smoke->context, smoke->group);
    destroy_companions(smoke, smoke->companions, smoke->companion_count);
    plume_system_destroy(smoke->context, smoke->fire);
    plume_system_destroy(smoke->context, smoke->system);
    plume_context_destroy(smoke->context);
    free(smoke);
}

bool smoke_system_set_capacity(smoke_system *smoke, uint32_t capacity) {
    plume_system system;
    bool was_scaled = smoke->scaled;
    smoke->scaled = true;
    if (!create_system(smoke, capacity, &system)) {
        smoke->scaled = was_scaled;
        return false;
    }
    plume_system_destroy(smoke->context, smoke->system);
    smoke->system = system;
    smoke->settings.capacity = capacity;
    regroup(smoke);
    return true;
}

double smoke_system_longest_lifetime(const smoke_system *smoke) {
    if (!smoke->from_effect) return LIFETIME.max;
    double longest = 0.0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e)
        if (smoke->effect.desc.emitters[e].lifetime.max > longest) longest = smoke->effect.desc.emitters[e].lifetime.max;
    return longest;
}

uint32_t smoke_system_capacity(const smoke_system *smoke) { return smoke->settings.capacity; }

static bool use_shown(smoke_system *smoke, const plume_effect *effect) {
    /* Built beside the old system, which stays on show if this one fails. */
    smoke_system *next = malloc(sizeof *next);
    if (!next) return false;
    *next = *smoke;
    next->from_effect = effect != NULL;
    if (effect) plume_effect_copy(&next->effect, effect);
    plume_system system;
    bool ok = create_system(next, smoke->settings.capacity, &system);
    if (ok) {
        plume_system_destroy(smoke->context, smoke->system);
        smoke->from_effect = next->from_effect;
        if (effect) plume_effect_copy(&smoke->effect, effect);
        smoke->system = system;
        smoke->settings.capacity = shown_desc(smoke, smoke->settings.capacity).capacity;
        smoke->last_error[0] = '\0';
        regroup(smoke);
    }
    free(next);
    return ok;
}

bool smoke_system_use_group(smoke_system *smoke, const plume_effect *effects, uint32_t count) {
    plume_system made[PLUME_EFFECT_MAX_SYSTEMS];
    bool opaque[PLUME_EFFECT_MAX_SYSTEMS];
    uint32_t extra = count > 1 ? count - 1 : 0;
    if (!create_companions(smoke, effects + (count > 0), extra, made, opaque)) return false;
    if (!use_shown(smoke, count > 0 ? effects : NULL)) {
        destroy_companions(smoke, made, extra);
        return false;
    }
    destroy_companions(smoke, smoke->companions, smoke->companion_count);
    memcpy(smoke->companions, made, extra * sizeof made[0]);
    memcpy(smoke->companion_opaque, opaque, extra * sizeof opaque[0]);
    smoke->companion_count = extra;
    return true;
}

bool smoke_system_use_effect(smoke_system *smoke, const plume_effect *effect) {
    return smoke_system_use_group(smoke, effect, effect ? 1 : 0);
}

uint32_t smoke_system_companion_gpu_ms(const smoke_system *smoke, double out[PLUME_STAGE_COUNT]) {
    for (int s = 0; s < PLUME_STAGE_COUNT; ++s) out[s] = 0.0;
    for (uint32_t i = 0; i < smoke->companion_count; ++i) {
        plume_profile profile;
        if (plume_system_get_profile(smoke->context, smoke->companions[i], &profile) != PLUME_OK || !profile.enabled)
            continue;
        for (int s = 0; s < PLUME_STAGE_COUNT; ++s) out[s] += profile.stages[s].mean_ms;
    }
    return smoke->companion_count;
}

const char *smoke_system_last_error(const smoke_system *smoke) { return smoke->last_error; }

bool smoke_system_save(const smoke_system *smoke, const char *path, plume_effect_error *error) {
    plume_system_desc desc = shown_desc(smoke, smoke->settings.capacity);
    return plume_effect_save(path, &desc, error) == PLUME_OK;
}

plume_frame_desc smoke_frame_desc(const smoke_frame *frame) {
    plume_frame_desc desc = {
        .dt = frame->dt,
        .disable_sort = !frame->sort,
        .depth_texture = frame->depth_texture,
        .viewport_size = {frame->width, frame->height},
        .draw_resolution = frame->resolution,
        .draw_path = frame->path,
        .draw_quality = frame->quality,
    };
    memcpy(desc.view, frame->view, sizeof desc.view);
    memcpy(desc.projection, frame->projection, sizeof desc.projection);
    memcpy(desc.light_direction, frame->light_direction, sizeof desc.light_direction);
    memcpy(desc.light_color, frame->light_color, sizeof desc.light_color);
    memcpy(desc.ambient_color, frame->ambient_color, sizeof desc.ambient_color);
    return desc;
}

bool smoke_system_update(smoke_system *smoke, const smoke_frame *frame) {
    plume_frame_desc desc = smoke_frame_desc(frame);
    bool ok = !smoke->fire.id || plume_system_update(smoke->context, smoke->fire, &desc) == PLUME_OK;
    for (uint32_t i = 0; i < smoke->companion_count; ++i)
        ok = plume_system_update(smoke->context, smoke->companions[i], &desc) == PLUME_OK && ok;
    return plume_system_update(smoke->context, smoke->system, &desc) == PLUME_OK && ok;
}

bool smoke_system_draw(smoke_system *smoke, const smoke_frame *frame) {
    plume_frame_desc desc = smoke_frame_desc(frame);
    bool ok = true;
    for (int opaque = 1; opaque >= 0; --opaque) {
        if (!opaque) {
            if (smoke->group.id && smoke->settings.joint) {
                ok = plume_draw_group_draw(smoke->context, smoke->group, &desc) == PLUME_OK && ok;
            } else {
                ok = (!smoke->fire.id || plume_system_draw(smoke->context, smoke->fire, &desc) == PLUME_OK) && ok;
                ok = plume_system_draw(smoke->context, smoke->system, &desc) == PLUME_OK && ok;
            }
        }
        for (uint32_t i = 0; i < smoke->companion_count; ++i)
            if (smoke->companion_opaque[i] == (bool)opaque)
                ok = plume_system_draw(smoke->context, smoke->companions[i], &desc) == PLUME_OK && ok;
    }
    return ok;
}

bool smoke_system_write_lights(smoke_system *smoke, const plume_lights_desc *fire, const plume_lights_desc *shown,
                               bool wrote[2]) {
    const plume_system sources[2] = {smoke->fire, smoke->system};
    const plume_lights_desc *descs[2] = {fire, shown};
    bool ok = true;
    for (int k = 0; k < 2; ++k) {
        /* the fragment path's particles live in textures: no lights there */
        wrote[k] = sources[k].id != 0 && smoke->settings.gpu_path != PLUME_PATH_FRAGMENT;
        if (wrote[k]) ok = plume_system_write_lights(smoke->context, sources[k], descs[k]) == PLUME_OK && ok;
    }
    return ok;
}

bool smoke_system_reset(smoke_system *smoke) {
    bool ok = !smoke->fire.id || plume_system_reset(smoke->context, smoke->fire) == PLUME_OK;
    for (uint32_t i = 0; i < smoke->companion_count; ++i)
        ok = plume_system_reset(smoke->context, smoke->companions[i]) == PLUME_OK && ok;
    return plume_system_reset(smoke->context, smoke->system) == PLUME_OK && ok;
}

void smoke_system_set_joint(smoke_system *smoke, bool joint) {
    smoke->settings.joint = joint;
    if (joint && !smoke->group.id) regroup(smoke);
}

bool smoke_system_joint(const smoke_system *smoke) { return smoke->settings.joint && smoke->group.id; }

bool smoke_system_get_profile(const smoke_system *smoke, plume_profile *out) {
    return plume_system_get_profile(smoke->context, smoke->system, out) == PLUME_OK && out->enabled;
}

bool smoke_system_get_group_profile(const smoke_system *smoke, plume_profile *out) {
    return smoke->group.id && plume_draw_group_get_profile(smoke->context, smoke->group, out) == PLUME_OK &&
           out->enabled;
}

uint32_t smoke_system_frame_profiles(const smoke_system *smoke, uint64_t first_frame, plume_frame_profile *out,
                                     uint32_t max) {
    return plume_system_get_frame_profiles(smoke->context, smoke->system, first_frame, out, max);
}

const char *smoke_system_sort_name(const smoke_system *smoke) {
    switch (plume_system_get_sort_algorithm(smoke->context, smoke->system)) {
    case PLUME_SORT_BITONIC: return "bitonic";
    case PLUME_SORT_RADIX: return "radix";
    case PLUME_SORT_AUTOMATIC: break;
    }
    return "none";
}

uint32_t smoke_system_count_live(smoke_system *smoke) {
    plume_readback readback = {0};
    if (plume_system_read_back(smoke->context, smoke->system, &readback) != PLUME_OK) return 0;
    return readback.live_count;
}
