/* The soak's gameplay operations: what a game does to fire effects (emits,
 * moving placements, instances, prewarm) and what it reads back without a
 * wait (events to the CPU, bounds), applied to every lane alike (soak.h).
 * Polls and bounds depend on when each lane's fences signal, so their
 * answers are checked for sense in each lane, not compared across lanes;
 * what changes particles (emits, placements, prewarm) is deterministic and
 * covered by the readback comparison. */
#include <math.h>
#include <string.h>

#include "soak.h"

enum { POLL_MAX = 256 };

static void random_transform(soak *s, plume_transform *t) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 3; ++i) t->position[i] = soak_uniform(&s->rng, -2, 2);
    if (soak_chance(&s->rng, 0.6f))
        for (int i = 0; i < 4; ++i) t->rotation[i] = soak_uniform(&s->rng, -1, 1) + (i == 3 ? 1.5f : 0);
    if (soak_chance(&s->rng, 0.4f))
        for (int i = 0; i < 3; ++i) t->scale[i] = soak_uniform(&s->rng, 0.2f, 2);
}

void soak_random_gameplay_desc(soak *s, plume_system_desc *d, soak_system_slot *slot) {
    if (!slot->compute) return;
    if (soak_chance(&s->rng, 0.3f)) {
        d->cpu_events.kinds = 1 + soak_below(&s->rng, 7);
        d->cpu_events.budget = soak_chance(&s->rng, 0.5f) ? 1 + soak_below(&s->rng, 2000) : 0;
        slot->cpu_events = true;
    }
    if (soak_chance(&s->rng, 0.3f)) d->inherit_velocity = soak_uniform(&s->rng, 0, 2);
    if (soak_chance(&s->rng, 0.3f)) d->simulation_space = PLUME_SPACE_LOCAL;
    if (soak_chance(&s->rng, 0.2f)) d->prewarm_time = soak_uniform(&s->rng, 0, 3);
}

/* Each polled record and the poll's counts make sense. */
static void check_poll(soak *s, const soak_lane *lane, int slot, const plume_particle_event *events,
                       const plume_event_poll_info *info) {
    if (info->delivered > POLL_MAX) {
        soak_fail(s, "lane %d: system %d's poll delivered %u records into room for %u", lane->index, slot,
                  info->delivered, POLL_MAX);
        return;
    }
    for (uint32_t i = 0; i < info->delivered; ++i) {
        const plume_particle_event *e = &events[i];
        bool kind = e->kind == PLUME_PARTICLE_EVENT_DEATH || e->kind == PLUME_PARTICLE_EVENT_COLLISION ||
                    e->kind == PLUME_PARTICLE_EVENT_ROUTE;
        bool finite = true;
        for (int k = 0; k < 3; ++k) finite = finite && isfinite(e->position[k]) && isfinite(e->velocity[k]);
        if (!kind || !finite || e->emitter >= PLUME_MAX_EMITTERS || e->instance >= PLUME_MAX_INSTANCES ||
            (i > 0 && e->update < events[i - 1].update)) {
            soak_fail(s, "lane %d: system %d's event %u of %u is not a record (kind %u, emitter %u, instance %u, "
                      "update %llu after %llu, position %g %g %g, velocity %g %g %g)", lane->index, slot, i,
                      info->delivered, e->kind, e->emitter, e->instance, (unsigned long long)e->update,
                      (unsigned long long)(i > 0 ? events[i - 1].update : 0), e->position[0], e->position[1],
                      e->position[2], e->velocity[0], e->velocity[1], e->velocity[2]);
            return;
        }
    }
}

static void check_bounds(soak *s, const soak_lane *lane, int slot, const plume_bounds *b) {
    bool sane = true;
    for (int k = 0; k < 3; ++k)
        sane = sane && isfinite(b->min[k]) && isfinite(b->max[k]) && (!b->any_live || b->min[k] <= b->max[k]);
    if (!sane)
        soak_fail(s, "lane %d: system %d's bounds are not a box: (%g %g %g) .. (%g %g %g)", lane->index, slot,
                  b->min[0], b->min[1], b->min[2], b->max[0], b->max[1], b->max[2]);
}

typedef enum gameplay_call { GAME_EMIT, GAME_TRANSFORM, GAME_INSTANCES, GAME_POLL, GAME_PREWARM, GAME_BOUNDS } gameplay_call;

void soak_gameplay_operation(soak *s) {
    int slot = soak_random_live_system(s, false);
    if (slot < 0) return;
    const soak_system_slot *info = &s->systems[slot];
    gameplay_call call = (gameplay_call)soak_below(&s->rng, 6);
    plume_emit_desc emit = {.emitter = soak_below(&s->rng, PLUME_MAX_EMITTERS),
                            .count = 1 + soak_below(&s->rng, info->capacity),
                            .size_scale = soak_chance(&s->rng, 0.5f) ? soak_uniform(&s->rng, 0.2f, 3) : 0,
                            .seed = soak_chance(&s->rng, 0.5f) ? soak_rand(&s->rng) : 0};
    random_transform(s, &emit.transform);
    for (int k = 0; k < 3; ++k) emit.velocity[k] = soak_uniform(&s->rng, -3, 3);
    if (soak_chance(&s->rng, 0.5f))
        for (int k = 0; k < 4; ++k) emit.color[k] = soak_uniform(&s->rng, 0, 4);
    plume_transform transform;
    random_transform(s, &transform);
    bool jump = soak_chance(&s->rng, 0.2f);
    enum { MAX_SET = 24 };
    plume_instance_desc instances[MAX_SET];
    uint32_t first = soak_below(&s->rng, 40), count = soak_below(&s->rng, MAX_SET + 1);
    for (uint32_t i = 0; i < count; ++i) {
        random_transform(s, &instances[i].transform);
        instances[i].enabled = soak_chance(&s->rng, 0.7f);
        instances[i].jump = soak_chance(&s->rng, 0.2f);
    }
    float seconds = soak_chance(&s->rng, 0.9f) ? soak_uniform(&s->rng, 0, 1.5f) : 0;
    /* The fragment path has none of these but prewarm; an emit may find the
     * queue full (the same in every lane: lane 0's answer is the one). */
    plume_result expected = PLUME_OK;
    if (!info->compute && call != GAME_PREWARM) expected = PLUME_ERROR_GL_UNSUPPORTED;
    if (call == GAME_POLL && !info->cpu_events) expected = PLUME_ERROR_INVALID_ARGUMENT;
    bool capacity_allowed = call == GAME_EMIT && info->compute;
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        soak_lane_current(lane);
        plume_system system = lane->systems[slot];
        soak_mark mark = soak_mark_now(lane);
        plume_result r = PLUME_OK;
        const char *what = "";
        plume_particle_event events[POLL_MAX];
        plume_event_poll_info poll;
        plume_bounds bounds;
        switch (call) {
        case GAME_EMIT: r = plume_system_emit(lane->context, system, &emit); what = "plume_system_emit"; break;
        case GAME_TRANSFORM:
            r = plume_system_set_transform(lane->context, system, &transform, jump);
            what = "plume_system_set_transform";
            break;
        case GAME_INSTANCES:
            r = plume_system_set_instances(lane->context, system, first, count, instances);
            what = "plume_system_set_instances";
            break;
        case GAME_POLL:
            r = plume_system_poll_events(lane->context, system, events, POLL_MAX, &poll);
            if (r == PLUME_OK) check_poll(s, lane, slot, events, &poll);
            what = "plume_system_poll_events";
            break;
        case GAME_PREWARM: r = plume_system_prewarm(lane->context, system, seconds); what = "plume_system_prewarm"; break;
        case GAME_BOUNDS:
            r = plume_system_get_bounds(lane->context, system, &bounds);
            if (r == PLUME_OK) check_bounds(s, lane, slot, &bounds);
            what = "plume_system_get_bounds";
            break;
        }
        if (capacity_allowed && l == 0 && r == PLUME_ERROR_CAPACITY) expected = r;
        soak_expect(s, lane, mark, r, expected, what);
    }
    s->stats.gameplay_calls++;
}
