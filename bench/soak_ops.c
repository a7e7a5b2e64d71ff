/* The soak's operations: what a host does to its systems, drawn from the
 * seeded stream and applied to every lane alike (soak.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include <cglm/cglm.h>

#include "soak.h"

/* ---- Random descriptors: valid, from the small and plain to the large and busy ---- */

static plume_range random_range(soak *s, float lo, float hi) {
    float a = soak_uniform(&s->rng, lo, hi), b = soak_uniform(&s->rng, lo, hi);
    return (plume_range){fminf(a, b), fmaxf(a, b)};
}

static void random_direction(soak *s, float out[3]) {
    out[0] = soak_uniform(&s->rng, -1, 1);
    out[1] = soak_uniform(&s->rng, 0.2f, 1);
    out[2] = soak_uniform(&s->rng, -1, 1);
}

static void random_emitter(soak *s, plume_emitter_desc *e, uint32_t capacity) {
    memset(e, 0, sizeof *e);
    e->shape = (plume_emitter_shape)soak_below(&s->rng, 4);
    for (int i = 0; i < 3; ++i) {
        e->position[i] = soak_uniform(&s->rng, -1.5f, 1.5f);
        e->extents[i] = soak_uniform(&s->rng, 0, 0.8f);
    }
    random_direction(s, e->direction);
    e->spread = soak_uniform(&s->rng, 0, 3.14159f);
    e->rate = soak_chance(&s->rng, 0.8f) ? soak_uniform(&s->rng, 0, 2.0f * (float)capacity) : 0;
    if (soak_chance(&s->rng, 0.3f)) {
        /* Bursts up to over the capacity (a warning, and what fits). */
        e->burst_count = 1 + soak_below(&s->rng, capacity + capacity / 4 + 1);
        e->burst_interval = soak_chance(&s->rng, 0.5f) ? soak_uniform(&s->rng, 0.05f, 2) : 0;
    }
    e->lifetime = random_range(s, 0.05f, 3);
    e->speed = random_range(s, 0, 4);
    e->size = random_range(s, 0.01f, 0.3f);
    e->rotation = random_range(s, -3, 3);
    e->spin = random_range(s, -2, 2);
}

static void random_forces(soak *s, plume_forces *f) {
    memset(f, 0, sizeof *f);
    f->gravity[1] = soak_uniform(&s->rng, -9.8f, 1);
    f->wind[0] = soak_uniform(&s->rng, -2, 2);
    f->drag = soak_uniform(&s->rng, 0, 2);
    if (soak_chance(&s->rng, 0.5f)) {
        f->turbulence = soak_uniform(&s->rng, 0, 3);
        f->turbulence_scale = soak_uniform(&s->rng, 0.2f, 3);
        f->turbulence_speed = soak_uniform(&s->rng, 0, 2);
    }
}

static void random_collision(soak *s, plume_collision_desc *c) {
    c->response = soak_below(&s->rng, 3);
    c->restitution = soak_uniform(&s->rng, 0, 1);
    c->friction = soak_uniform(&s->rng, 0, 1);
    c->rest_speed = soak_uniform(&s->rng, 0, 0.5f);
}

/* A world with colliders, depth collisions, attractors, a vector field and
 * event routes to this system. The lane's vector field texture is set when
 * the operation is applied (it is a name of each lane's GL). */
static void random_world(soak *s, plume_world *w) {
    memset(w, 0, sizeof *w);
    uint32_t colliders = soak_below(&s->rng, 4);
    for (uint32_t i = 0; i < colliders; ++i) {
        plume_collider_desc *c = &w->colliders[i];
        c->shape = 1 + soak_below(&s->rng, 3);
        c->position[1] = soak_uniform(&s->rng, -2, 1);
        c->normal[1] = 1;
        c->radius = soak_uniform(&s->rng, 0.1f, 2);
        for (int k = 0; k < 3; ++k) c->extents[k] = soak_uniform(&s->rng, 0.1f, 2);
        c->inside = soak_chance(&s->rng, 0.3f);
        random_collision(s, &c->collision);
    }
    if (soak_chance(&s->rng, 0.4f)) {
        w->depth_collision.enabled = true;
        w->depth_collision.thickness = soak_uniform(&s->rng, 0.05f, 1);
        random_collision(s, &w->depth_collision.collision);
    }
    uint32_t attractors = soak_below(&s->rng, 3);
    for (uint32_t i = 0; i < attractors; ++i) {
        plume_attractor_desc *a = &w->attractors[i];
        a->kind = 1 + soak_below(&s->rng, 2);
        a->position[0] = soak_uniform(&s->rng, -1, 1);
        a->axis[1] = 1;
        a->strength = soak_uniform(&s->rng, -4, 4);
        a->radius = soak_uniform(&s->rng, 0, 3);
    }
    if (soak_chance(&s->rng, 0.3f)) {
        w->vector_field.texture = 1; /* replaced by the lane's (see above) */
        for (int k = 0; k < 3; ++k) {
            w->vector_field.bounds_min[k] = -2;
            w->vector_field.bounds_max[k] = 2;
        }
        w->vector_field.strength = soak_uniform(&s->rng, 0, 2);
    }
    uint32_t routes = soak_below(&s->rng, 3);
    for (uint32_t i = 0; i < routes; ++i) {
        plume_event_route_desc *r = &w->events[i];
        r->trigger = 1 + soak_below(&s->rng, 2);
        r->source_emitters = soak_rand(&s->rng) & 0xff;
        r->target_emitter = soak_below(&s->rng, PLUME_MAX_EMITTERS);
        r->count = 1 + soak_below(&s->rng, 4);
        r->inherit_velocity = soak_uniform(&s->rng, -1, 1);
    }
    w->event_capacity = soak_chance(&s->rng, 0.5f) ? 1 + soak_below(&s->rng, 9000) : 0;
}

static void random_curve(soak *s, plume_curve *curve) {
    curve->key_count = soak_below(&s->rng, 4);
    for (uint32_t k = 0; k < curve->key_count; ++k)
        curve->keys[k] = (plume_curve_key){(float)k / 3.0f, soak_uniform(&s->rng, 0, 1.5f)};
}

/* Capacities from 1 to the maximum, log-uniform, mostly not powers of two. */
static uint32_t random_capacity(soak *s) {
    double top = log((double)s->options.max_capacity);
    uint32_t capacity = (uint32_t)exp(soak_uniform(&s->rng, 0, (float)top));
    if (capacity < 1) capacity = 1;
    if (capacity > s->options.max_capacity) capacity = s->options.max_capacity;
    return capacity;
}

void soak_random_system_desc(soak *s, plume_system_desc *d, soak_system_slot *slot) {
    memset(d, 0, sizeof *d);
    d->capacity = random_capacity(s);
    d->seed = soak_rand(&s->rng);
    uint32_t emitters = 1 + soak_below(&s->rng, 3);
    for (uint32_t i = 0; i < emitters; ++i) random_emitter(s, &d->emitters[soak_below(&s->rng, 8)], d->capacity);
    random_forces(s, &d->forces);
    random_curve(s, &d->appearance.size_over_life);
    random_curve(s, &d->appearance.opacity_over_life);
    d->appearance.color_over_life.key_count = 1 + soak_below(&s->rng, 3);
    for (uint32_t k = 0; k < d->appearance.color_over_life.key_count; ++k) {
        plume_color_key *key = &d->appearance.color_over_life.keys[k];
        key->time = (float)k / 2.0f;
        for (int c = 0; c < 4; ++c) key->rgba[c] = soak_uniform(&s->rng, 0, 1);
    }
    d->appearance.soft_fade_distance = soak_uniform(&s->rng, 0, 1);
    slot->sprite_file = s->options.sprite && soak_chance(&s->rng, 0.4f);
    if (!slot->sprite_file && soak_chance(&s->rng, 0.3f)) {
        /* A sprite in memory of a random size, a flipbook that fits it. */
        static uint32_t pixels[64 * 64];
        for (uint32_t i = 0; i < 64 * 64; ++i) pixels[i] = 0x80ffffffu ^ (i * 2654435761u & 0x3f3f3f3fu);
        plume_texture_desc *tex = &d->appearance.texture;
        tex->pixels = pixels;
        tex->width = 1 + soak_below(&s->rng, 64);
        tex->height = 1 + soak_below(&s->rng, 64);
        tex->columns = 1 + soak_below(&s->rng, tex->width < 4 ? tex->width : 4);
        tex->rows = 1 + soak_below(&s->rng, tex->height < 4 ? tex->height : 4);
        slot->own_sprite = true;
    }
    if (slot->sprite_file) {
        d->appearance.texture.path = s->options.sprite;
        d->appearance.texture.columns = 1 + soak_below(&s->rng, 4);
        d->appearance.texture.rows = 1 + soak_below(&s->rng, 4);
        d->appearance.texture.disable_frame_blend = soak_chance(&s->rng, 0.3f);
    }
    d->blend_mode = soak_below(&s->rng, 3);
    if (d->blend_mode == PLUME_BLEND_PREMULTIPLIED_ADDITIVE) random_curve(s, &d->additive_over_life);
    for (uint32_t k = 0; k < d->additive_over_life.key_count; ++k)
        d->additive_over_life.keys[k].value = fminf(d->additive_over_life.keys[k].value, 1);
    d->orientation = soak_below(&s->rng, 5);
    random_direction(s, d->orientation_axis);
    d->stretch_factor = soak_uniform(&s->rng, 0, 0.5f);
    d->sort_mode = soak_below(&s->rng, 5);
    d->lit = soak_chance(&s->rng, 0.3f);
    if (soak_chance(&s->rng, 0.3f)) {
        d->emissive_over_life.key_count = 1;
        d->emissive_over_life.keys[0] = (plume_color_key){0, {1, 0.5f, 0.2f, soak_uniform(&s->rng, 0, 1)}};
    }
    d->sort_key_bits = soak_chance(&s->rng, 0.5f) ? 16 + soak_below(&s->rng, 17) : 0;
    /* The fragment path now and then: no world there. */
    slot->compute = !soak_chance(&s->rng, 0.15f);
    d->path = slot->compute ? PLUME_PATH_COMPUTE : PLUME_PATH_FRAGMENT;
    if (slot->compute && soak_chance(&s->rng, 0.5f)) random_world(s, &d->world);
    soak_random_gameplay_desc(s, d, slot);
    slot->capacity = d->capacity;
}

/* ---- Applying an operation to every lane ---- */

/* The lane's own names in a world (its vector field texture). */
static void lane_world(const soak_lane *lane, plume_world *w) {
    if (w->vector_field.texture) w->vector_field.texture = lane->vector_field;
}

static int free_system_slot(soak *s) {
    for (int i = 0; i < SOAK_MAX_SYSTEMS; ++i)
        if (!s->systems[i].live) return i;
    return -1;
}

int soak_random_live_system(soak *s, bool compute) {
    int live[SOAK_MAX_SYSTEMS], count = 0;
    for (int i = 0; i < SOAK_MAX_SYSTEMS; ++i)
        if (s->systems[i].live && (!compute || s->systems[i].compute)) live[count++] = i;
    return count ? live[soak_below(&s->rng, (uint32_t)count)] : -1;
}

static void create_system(soak *s, const plume_system_desc *desc, soak_system_slot slot_info, plume_result expected) {
    int slot = free_system_slot(s);
    if (slot < 0) return;
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        soak_lane_current(lane);
        plume_system_desc d = *desc;
        lane_world(lane, &d.world);
        soak_mark mark = soak_mark_now(lane);
        plume_result r = plume_system_create(lane->context, &d, &lane->systems[slot]);
        soak_expect(s, lane, mark, r, expected, "plume_system_create");
    }
    if (expected != PLUME_OK || s->failed) return;
    slot_info.live = true;
    snprintf(slot_info.what, sizeof slot_info.what,
             "capacity %u, %s path, world %s, sort mode %u, %u key bits, events %u, space %u, inherit %.2f, prewarm %.2f",
             desc->capacity, slot_info.compute ? "compute" : "fragment",
             desc->world.colliders[0].shape || desc->world.depth_collision.enabled || desc->world.events[0].trigger ? "yes" : "no",
             desc->sort_mode, desc->sort_key_bits, desc->cpu_events.kinds, desc->simulation_space,
             (double)desc->inherit_velocity, (double)desc->prewarm_time);
    s->systems[slot] = slot_info;
    s->stats.creates++;
}

/* Destroys what `destroy` names in every lane, then checks that every GL
 * object the context stopped listing is deleted in the GL. */
static void destroy_checked(soak *s, int slot, bool group) {
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        soak_lane_current(lane);
        plume_gl_object *before = NULL, *after = NULL;
        uint32_t before_count = soak_list_gl_objects(s, lane, &before);
        soak_mark mark = soak_mark_now(lane);
        plume_result r = group ? plume_draw_group_destroy(lane->context, lane->groups[slot])
                               : plume_system_destroy(lane->context, lane->systems[slot]);
        soak_expect(s, lane, mark, r, PLUME_OK, group ? "plume_draw_group_destroy" : "plume_system_destroy");
        uint32_t after_count = soak_list_gl_objects(s, lane, &after);
        soak_check_deleted(s, lane, before, before_count, after, after_count,
                           group ? "plume_draw_group_destroy" : "plume_system_destroy");
        free(before);
        free(after);
    }
    s->stats.destroys++;
}

void soak_destroy_group(soak *s, int slot) {
    destroy_checked(s, slot, true);
    s->groups[slot].live = false;
    for (int i = 0; i < SOAK_MAX_SYSTEMS; ++i) s->systems[i].grouped = false;
    for (int g = 0; g < SOAK_MAX_GROUPS; ++g)
        for (int i = 0; s->groups[g].live && i < SOAK_MAX_SYSTEMS; ++i)
            if (s->groups[g].members & (1u << i)) s->systems[i].grouped = true;
}

/* A host destroys the groups that draw a system before the system. */
void soak_destroy_system(soak *s, int slot) {
    for (int g = 0; g < SOAK_MAX_GROUPS; ++g)
        if (s->groups[g].live && (s->groups[g].members & (1u << slot))) soak_destroy_group(s, g);
    destroy_checked(s, slot, false);
    s->systems[slot].live = false;
}

static void create_group(soak *s) {
    int slot = -1;
    for (int g = 0; g < SOAK_MAX_GROUPS && slot < 0; ++g)
        if (!s->groups[g].live) slot = g;
    if (slot < 0) return;
    /* Compute-path systems whose sprites are of one size: all without a file, or all with it. */
    bool sprite = soak_chance(&s->rng, 0.5f);
    uint32_t members = 0, count = 0;
    for (int i = 0; i < SOAK_MAX_SYSTEMS; ++i)
        if (s->systems[i].live && s->systems[i].compute && !s->systems[i].own_sprite &&
            s->systems[i].sprite_file == sprite &&
            soak_chance(&s->rng, 0.7f)) {
            members |= 1u << i;
            count++;
        }
    if (count == 0) return;
    uint32_t sort_mode = soak_chance(&s->rng, 0.5f) ? PLUME_SORT_MODE_DISTANCE : PLUME_SORT_MODE_VIEW_DEPTH;
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        soak_lane_current(lane);
        plume_system systems[SOAK_MAX_SYSTEMS];
        uint32_t n = 0;
        for (int i = 0; i < SOAK_MAX_SYSTEMS; ++i)
            if (members & (1u << i)) systems[n++] = lane->systems[i];
        plume_draw_group_desc desc = {.systems = systems, .system_count = n, .sort_mode = sort_mode};
        soak_mark mark = soak_mark_now(lane);
        plume_result r = plume_draw_group_create(lane->context, &desc, &lane->groups[slot]);
        soak_expect(s, lane, mark, r, PLUME_OK, "plume_draw_group_create");
    }
    s->groups[slot] = (soak_group_slot){.live = true, .members = members};
    for (int i = 0; i < SOAK_MAX_SYSTEMS; ++i)
        if (members & (1u << i)) s->systems[i].grouped = true;
    s->stats.creates++;
}

/* An effect file from the effects folder: loaded, its capacity held to the
 * soak's maximum, created. */
static void load_effect(soak *s) {
    if (s->effect_count == 0 || free_system_slot(s) < 0) return;
    const char *path = s->effects[soak_below(&s->rng, (uint32_t)s->effect_count)];
    plume_effect *effect = malloc(sizeof *effect);
    plume_effect_error error;
    plume_result r = plume_effect_load(path, effect, &error);
    if (r != PLUME_OK) {
        soak_fail(s, "plume_effect_load(%s): %s", path, error.message);
    } else {
        if (effect->desc.capacity > s->options.max_capacity) effect->desc.capacity = s->options.max_capacity;
        /* Groups take systems of one sprite size: an effect with a sprite
         * of its own is never grouped. */
        soak_system_slot slot = {.capacity = effect->desc.capacity,
                                 .compute = effect->desc.path != PLUME_PATH_FRAGMENT,
                                 .own_sprite = effect->desc.appearance.texture.path != NULL,
                                 .cpu_events = effect->desc.cpu_events.kinds != 0};
        create_system(s, &effect->desc, slot, PLUME_OK);
    }
    free(effect);
}

/* An effect text broken at random: cut short, a byte changed, or a value
 * made out of range. The loader may accept what still parses; whatever it
 * accepts must create a system or be refused with one message. */
static void load_broken_effect(soak *s) {
    plume_system_desc desc;
    soak_system_slot slot_info = {0};
    soak_random_system_desc(s, &desc, &slot_info);
    memset(&desc.appearance.texture, 0, sizeof desc.appearance.texture); /* files name sprites by path */
    memset(&desc.world.vector_field, 0, sizeof desc.world.vector_field); /* a GL name: not for a file */
    plume_effect_error error;
    char *text = plume_effect_write(&desc, &error);
    if (!text) {
        soak_fail(s, "plume_effect_write of a valid descriptor: %s", error.message);
        return;
    }
    size_t length = strlen(text);
    /* First the text as written: it reads back as the descriptor. */
    plume_effect *effect = malloc(sizeof *effect);
    if (plume_effect_parse(text, length, "soak.json", "", effect, &error) != PLUME_OK)
        soak_fail(s, "an effect written by plume_effect_write does not load: %s", error.message);
    else if (effect->desc.capacity != desc.capacity || effect->desc.seed != desc.seed ||
             memcmp(effect->desc.emitters, desc.emitters, sizeof desc.emitters) != 0 ||
             memcmp(&effect->desc.world, &desc.world, sizeof desc.world) != 0) {
        const unsigned char *a = (const void *)&effect->desc, *b = (const void *)&desc;
        size_t at = 0;
        while (a[at] == b[at]) ++at;
        soak_fail(s, "an effect written by plume_effect_write reads back different from byte %zu of the "
                  "descriptor (world at %zu):\n%s", at, offsetof(plume_system_desc, world), text);
    }
    uint32_t how = soak_below(&s->rng, 3);
    size_t at = soak_below(&s->rng, (uint32_t)length);
    if (how == 0) length = at;
    else if (how == 1) text[at] = (char)(32 + soak_below(&s->rng, 95));
    else {
        char *digit = strpbrk(text + at, "0123456789");
        if (digit) *digit = '-';
    }
    plume_result r = plume_effect_parse(text, length, "soak_broken.json", "", effect, &error);
    s->stats.failed_loads += r != PLUME_OK;
    if (r == PLUME_OK && !s->failed && free_system_slot(s) >= 0) {
        /* Still valid after the change: it must create. */
        slot_info.capacity = effect->desc.capacity;
        slot_info.cpu_events = effect->desc.cpu_events.kinds != 0;
        slot_info.compute = effect->desc.path != PLUME_PATH_FRAGMENT;
        if (effect->desc.capacity <= s->options.max_capacity) create_system(s, &effect->desc, slot_info, PLUME_OK);
    }
    plume_effect_free_text(text);
    free(effect);
}

/* One call on one system in every lane, through a small table. */
typedef enum system_call { CALL_EMITTER, CALL_FORCES, CALL_WORLD, CALL_RESET, CALL_PROFILING, CALL_TILED } system_call;

static void call_system(soak *s, system_call call) {
    int slot = soak_random_live_system(s, call == CALL_WORLD);
    if (slot < 0) return;
    soak_system_slot *info = &s->systems[slot];
    plume_emitter_desc emitter;
    plume_forces forces;
    plume_world world;
    uint32_t index = soak_below(&s->rng, PLUME_MAX_EMITTERS);
    bool off = soak_chance(&s->rng, 0.2f);
    uint32_t tile = 8u << soak_below(&s->rng, 3), chunk = 1 + soak_below(&s->rng, 2048);
    if (call == CALL_EMITTER) {
        random_emitter(s, &emitter, info->capacity);
        if (off) memset(&emitter, 0, sizeof emitter);
    }
    if (call == CALL_FORCES) random_forces(s, &forces);
    if (call == CALL_WORLD) random_world(s, &world);
    if (call == CALL_WORLD) world.event_capacity = 0;
    /* After the system's first tiled draw its options are refused; whether a
     * requested tiled draw ran tiled is the module's to say (it falls back to
     * raster without a depth texture), so either answer then, alike in every lane. */
    bool either = call == CALL_TILED && info->drew_tiled;
    plume_result expected = PLUME_OK;
    if (call == CALL_PROFILING) info->profiling = !info->profiling;
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        soak_lane_current(lane);
        plume_system system = lane->systems[slot];
        soak_mark mark = soak_mark_now(lane);
        plume_result r = PLUME_OK;
        const char *what = "";
        switch (call) {
        case CALL_EMITTER: r = plume_system_set_emitter(lane->context, system, index, &emitter); what = "plume_system_set_emitter"; break;
        case CALL_FORCES: r = plume_system_set_forces(lane->context, system, &forces); what = "plume_system_set_forces"; break;
        case CALL_WORLD: {
            plume_world w = world;
            lane_world(lane, &w);
            r = plume_system_set_world(lane->context, system, &w);
            what = "plume_system_set_world";
            break;
        }
        case CALL_RESET: r = plume_system_reset(lane->context, system); what = "plume_system_reset"; break;
        case CALL_PROFILING: {
            r = plume_system_set_profiling(lane->context, system, info->profiling);
            plume_profile profile;
            if (r == PLUME_OK) r = plume_system_get_profile(lane->context, system, &profile);
            what = "plume_system_set_profiling";
            break;
        }
        case CALL_TILED: r = plume_system_set_tiled_options(lane->context, system, tile, chunk); what = "plume_system_set_tiled_options"; break;
        }
        if (either && l == 0) expected = r == PLUME_ERROR_INVALID_ARGUMENT ? r : PLUME_OK;
        soak_expect(s, lane, mark, r, expected, what);
    }
}

/* A destroyed system's handle used again: refused with one message. */
static void stale_handle(soak *s) {
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        int slot = (int)soak_below(&s->rng, SOAK_MAX_SYSTEMS);
        if (s->systems[slot].live || lane->systems[slot].id == 0) continue;
        soak_lane_current(lane);
        plume_frame_desc frame = {.dt = 0.01f};
        soak_mark mark = soak_mark_now(lane);
        plume_result r = plume_system_update(lane->context, lane->systems[slot], &frame);
        soak_expect(s, lane, mark, r, PLUME_ERROR_INVALID_ARGUMENT, "plume_system_update of a destroyed system");
    }
}

static void resize(soak *s) {
    uint32_t kind = soak_below(&s->rng, 6);
    if (kind == 0) {
        s->width = s->height = 0; /* minimised */
    } else {
        s->width = 1 + (int)soak_below(&s->rng, (uint32_t)s->options.max_width);
        s->height = 1 + (int)soak_below(&s->rng, (uint32_t)s->options.max_height);
    }
    if (s->has_clip_control && soak_chance(&s->rng, 0.5f)) s->reversed_depth = !s->reversed_depth;
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane_current(&s->lanes[l]);
        soak_lane_resize(s, &s->lanes[l]);
    }
}

void soak_random_operation(soak *s) {
    uint32_t pick = soak_below(&s->rng, 110);
    s->stats.operations++;
    if (pick < 12) {
        plume_system_desc desc;
        soak_system_slot slot = {0};
        soak_random_system_desc(s, &desc, &slot);
        if (free_system_slot(s) >= 0) create_system(s, &desc, slot, PLUME_OK);
    } else if (pick < 20) {
        int slot = soak_random_live_system(s, false);
        if (slot >= 0) soak_destroy_system(s, slot);
    } else if (pick < 30) call_system(s, CALL_EMITTER);
    else if (pick < 36) call_system(s, CALL_FORCES);
    else if (pick < 42) call_system(s, CALL_WORLD);
    else if (pick < 48) call_system(s, CALL_RESET);
    else if (pick < 54) call_system(s, CALL_PROFILING);
    else if (pick < 57) call_system(s, CALL_TILED);
    else if (pick < 64) create_group(s);
    else if (pick < 68) {
        int g = (int)soak_below(&s->rng, SOAK_MAX_GROUPS);
        if (s->groups[g].live) soak_destroy_group(s, g);
    } else if (pick < 76) load_effect(s);
    else if (pick < 82) load_broken_effect(s);
    else if (pick < 84) stale_handle(s);
    else if (pick < 92) resize(s);
    else if (pick < 95) soak_read_back_all(s);
    else if (pick < 100) s->stats.operations--; /* nothing this time */
    else if (!s->options.no_gameplay) soak_gameplay_operation(s);
}
