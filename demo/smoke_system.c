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
#include "plume/plume_particles.h"
#include "sparks_effect.h"

/* The demo is one host: one plume context owns its system. */
struct smoke_system {
    smoke_settings settings;
    plume_context *context;
    plume_system system;
};

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
                                {{0.0f, {0.09f, 0.085f, 0.08f, 1}},
                                 {0.3f, {0.34f, 0.33f, 0.32f, 1}},
                                 {1.0f, {0.75f, 0.75f, 0.77f, 1}}}},
            .opacity_over_life = {4, {{0.0f, 0.0f}, {0.06f, 1.0f}, {0.5f, 0.7f}, {1.0f, 0.0f}}},
            .texture = {.columns = 4, .rows = 4},
            .soft_fade_distance = 0.45f,
        },
    };
    memcpy(desc.emitters[0].position, settings->emitter_position, sizeof desc.emitters[0].position);
    float opacity = puff_opacity(capacity);
    for (uint32_t k = 0; k < desc.appearance.opacity_over_life.key_count; ++k)
        desc.appearance.opacity_over_life.keys[k].value *= opacity;
    float size_scale = puff_size_scale(capacity);
    desc.emitters[0].size.min *= size_scale;
    desc.emitters[0].size.max *= size_scale;
    desc.appearance.texture.path = settings->texture_path;
    return desc;
}

static bool create_system(plume_context *context, const smoke_settings *settings, uint32_t capacity,
                          plume_system *out) {
    plume_system_desc desc = settings->effect == DEMO_EFFECT_SPARKS
                                 ? sparks_desc(capacity, settings->seed, settings->grinder_position)
                                 : smoke_desc(settings, capacity);
    desc.path = settings->gpu_path;
    plume_result result = plume_system_create(context, &desc, out);
    if (result != PLUME_OK) {
        fprintf(stderr, "smoke: cannot create a system of %u particles: %s\n", capacity, plume_result_string(result));
        return false;
    }
    /* Without profiling the demo still runs; the HUD then says so. */
    result = plume_system_set_profiling(context, *out, true);
    if (result != PLUME_OK) fprintf(stderr, "smoke: no profiling: %s\n", plume_result_string(result));
    return true;
}

bool smoke_system_create(const smoke_settings *settings, smoke_system **out) {
    *out = NULL;
    smoke_system *smoke = calloc(1, sizeof *smoke);
    if (!smoke) return false;
    smoke->settings = *settings;
    if (plume_context_create(NULL, &smoke->context) != PLUME_OK) {
        free(smoke);
        return false;
    }
    if (!create_system(smoke->context, settings, settings->capacity, &smoke->system)) {
        plume_context_destroy(smoke->context);
        free(smoke);
        return false;
    }
    *out = smoke;
    return true;
}

void smoke_system_destroy(smoke_system *smoke) {
    if (!smoke) return;
    plume_system_destroy(smoke->context, smoke->system);
    plume_context_destroy(smoke->context);
    free(smoke);
}

bool smoke_system_set_capacity(smoke_system *smoke, uint32_t capacity) {
    plume_system system;
    if (!create_system(smoke->context, &smoke->settings, capacity, &system)) return false;
    plume_system_destroy(smoke->context, smoke->system);
    smoke->system = system;
    smoke->settings.capacity = capacity;
    return true;
}

uint32_t smoke_system_capacity(const smoke_system *smoke) { return smoke->settings.capacity; }

static plume_frame_desc frame_desc(const smoke_frame *frame) {
    plume_frame_desc desc = {
        .dt = frame->dt,
        .disable_sort = !frame->sort,
        .depth_texture = frame->depth_texture,
        .viewport_size = {frame->width, frame->height},
        .draw_resolution = frame->resolution,
        .draw_path = frame->path,
    };
    memcpy(desc.view, frame->view, sizeof desc.view);
    memcpy(desc.projection, frame->projection, sizeof desc.projection);
    return desc;
}

bool smoke_system_update(smoke_system *smoke, const smoke_frame *frame) {
    plume_frame_desc desc = frame_desc(frame);
    return plume_system_update(smoke->context, smoke->system, &desc) == PLUME_OK;
}

bool smoke_system_draw(smoke_system *smoke, const smoke_frame *frame) {
    plume_frame_desc desc = frame_desc(frame);
    return plume_system_draw(smoke->context, smoke->system, &desc) == PLUME_OK;
}

bool smoke_system_reset(smoke_system *smoke) { return plume_system_reset(smoke->context, smoke->system) == PLUME_OK; }

bool smoke_system_get_profile(const smoke_system *smoke, plume_profile *out) {
    return plume_system_get_profile(smoke->context, smoke->system, out) == PLUME_OK && out->enabled;
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
