/* Repeats the same work in one GL context and counts the distinct results
 * (read back: counts, live particles, dead list): a driver that runs the
 * module's passes as the GL says gives one result per scenario. Each
 * scenario is a system made, stepped and read back, then destroyed, R times:
 * a prewarm at creation (world or local space), and plain updates back to
 * back. `--sync SPEC` sets the lab's race probe (lab/plume_lab.h).
 *   plume_determinism_probe [--reps R] [--sync SPEC] */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/headless_gl.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"

static uint64_t hash_bytes(uint64_t h, const void *data, size_t size) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    return h;
}

static plume_system_desc busy(uint32_t seed, bool local, bool world, float prewarm) {
    plume_system_desc d = {.capacity = 6000 + 7 * seed, .seed = seed, .prewarm_time = prewarm};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {1, 0, 0}, .extents = {0.5f},
                                         .rate = 2500, .lifetime = {0.3f, 1.5f}, .speed = {0.2f, 1.5f},
                                         .spread = 1.2f, .size = {0.1f, 0.3f}, .rotation = {-3, 3}, .spin = {-2, 2}};
    d.emitters[3] = (plume_emitter_desc){.shape = PLUME_SHAPE_CONE, .position = {-1, 0, 0}, .extents = {0.3f},
                                         .direction = {0, 0, 2}, .spread = 0.3f, .burst_count = 300,
                                         .burst_interval = 0.2f, .lifetime = {0.5f, 0.9f}, .speed = {1, 2}};
    d.forces = (plume_forces){.gravity = {0, -1, 0}, .wind = {0.5f, 0, 0}, .drag = 0.4f, .turbulence = 3,
                              .turbulence_scale = 0.7f, .turbulence_speed = 0.5f};
    if (local) {
        d.simulation_space = PLUME_SPACE_LOCAL;
        d.inherit_velocity = 0.7f;
    }
    if (world) {
        d.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .position = {0, -0.5f, 0},
                                                     .normal = {0, 1, 0}, .collision = {.response = PLUME_COLLISION_KILL}};
        d.world.events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .count = 2, .inherit_velocity = 0.5f,
                                                     .target_emitter = 3};
        d.world.event_capacity = 3000;
    }
    return d;
}

static uint64_t checksum(plume_context *context, plume_system system, uint32_t capacity) {
    plume_readback rb = {.particles = malloc(sizeof(plume_particle) * capacity),
                         .dead_slots = malloc(sizeof(uint32_t) * capacity)};
    unsigned char *dead = calloc(capacity, 1);
    uint64_t h = 14695981039346656037ull;
    if (plume_system_read_back(context, system, &rb) == PLUME_OK) {
        uint32_t counts[3] = {rb.live_count, rb.dead_count, rb.emitted_total};
        h = hash_bytes(h, counts, sizeof counts);
        for (uint32_t i = 0; i < rb.dead_count && i < capacity; ++i) dead[rb.dead_slots[i] % capacity] = 1;
        for (uint32_t i = 0; i < capacity; ++i)
            if (!dead[i]) h = hash_bytes(h, &rb.particles[i], sizeof rb.particles[i]);
    }
    free(rb.particles);
    free(rb.dead_slots);
    free(dead);
    return h;
}

/* One run of a scenario: 0 prewarm in local space, 1 prewarm with a world,
 * 2 sixty updates back to back (local space, world), 3 three systems
 * (sharing programs) updated in turn, the last one's result. */
static uint64_t run_scenario(plume_context *context, int scenario) {
    bool prewarm = scenario < 2;
    plume_system_desc d = busy(11 + (uint32_t)scenario, scenario != 1, scenario != 0, prewarm ? 2.0f : 0.0f);
    int systems = scenario == 3 ? 3 : 1;
    plume_system s[3] = {{0}};
    for (int i = 0; i < systems; ++i) {
        plume_system_desc di = d;
        di.seed += (uint32_t)i;
        if (plume_system_create(context, &di, &s[i]) != PLUME_OK) return 0;
    }
    if (!prewarm) {
        float view[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -4, 1};
        plume_frame_desc frame = {.dt = 1.0f / 30.0f};
        memcpy(frame.view, view, sizeof view);
        for (int k = 0; k < 60; ++k) {
            for (int i = 0; i < systems; ++i) {
                if (scenario >= 2 && k % 7 == 0) {
                    plume_transform t = {.position = {0.01f * (float)k, 0, 0}};
                    plume_system_set_transform(context, s[i], &t, false);
                }
                plume_system_update(context, s[i], &frame);
            }
        }
    }
    uint64_t h = checksum(context, s[systems - 1], d.capacity);
    for (int i = 0; i < systems; ++i) plume_system_destroy(context, s[i]);
    return h;
}

int main(int argc, char **argv) {
    int reps = 12;
    const char *only = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--reps") == 0) reps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--sync") == 0) plume_lab_sync(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0) only = argv[i + 1];
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no GL: %s\n", error);
        return 1;
    }
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1;
    static const char *const NAMES[4] = {"prewarm_local", "prewarm_world", "updates", "three_systems"};
    int total_distinct = 0;
    for (int scenario = 0; scenario < 4; ++scenario) {
        if (only && !strstr(NAMES[scenario], only)) continue;
        uint64_t seen[64];
        int distinct = 0, first_other = -1;
        for (int r = 0; r < reps && r < 64; ++r) {
            uint64_t h = run_scenario(context, scenario);
            bool known = false;
            for (int k = 0; k < distinct; ++k) known = known || seen[k] == h;
            if (!known) {
                seen[distinct++] = h;
                if (distinct == 2) first_other = r;
            }
        }
        printf("%-14s %d reps: %d distinct results%s", NAMES[scenario], reps, distinct, distinct > 1 ? "" : "\n");
        if (distinct > 1) printf(" (first differs at rep %d)\n", first_other);
        total_distinct += distinct - 1;
    }
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return total_distinct > 0 ? 2 : 0;
}
