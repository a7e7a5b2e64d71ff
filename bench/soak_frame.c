/* The soak's frame (update and draw of every live system and group, as a
 * host's frame does) and its readbacks, compared across lanes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "soak.h"

/* Every frame's random choices, drawn once for all lanes. */
typedef struct frame_plan {
    plume_frame_desc frame;
    float scene_depth;
    uint32_t paths, resolutions; /* two bits a system: each system's path and resolution */
    uint32_t grouped_also;       /* bit s: a grouped system is also drawn on its own */
    uint32_t second_view;        /* bit s: the system is drawn again (a second view's pass) */
    int viewport[4];             /* a part of the target (split screen), or all of it */
    bool scissor, negative_size;
} frame_plan;

/* A reversed-Z projection for clip control's 0..1 depth: near at 1, far at 0. */
static void reversed_perspective(float fovy, float aspect, float near, float far, mat4 out) {
    glm_mat4_zero(out);
    float f = 1.0f / tanf(fovy * 0.5f);
    out[0][0] = f / aspect;
    out[1][1] = f;
    out[2][2] = near / (far - near);
    out[2][3] = -1.0f;
    out[3][2] = far * near / (far - near);
}

static float random_dt(soak *s) {
    uint32_t kind = soak_below(&s->rng, 100);
    if (kind < 8) return 0;                                       /* a paused frame */
    if (kind < 11) return soak_uniform(&s->rng, 1.0f, 3.0f);      /* a stall (warned once) */
    if (kind < 25) return soak_uniform(&s->rng, 0.0001f, 0.2f);
    return 1.0f / 60.0f;
}

static frame_plan plan_frame(soak *s) {
    frame_plan p;
    memset(&p, 0, sizeof p);
    plume_frame_desc *f = &p.frame;
    f->dt = random_dt(s);
    s->time += f->dt;
    float angle = 0.3f * s->time, radius = soak_uniform(&s->rng, 3.5f, 6);
    mat4 view, projection;
    glm_lookat((vec3){radius * sinf(angle), 1.5f, radius * cosf(angle)}, (vec3){0, 0.5f, 0}, (vec3){0, 1, 0}, view);
    float aspect = s->width > 0 && s->height > 0 ? (float)s->width / (float)s->height : 1.0f;
    if (s->reversed_depth) reversed_perspective(0.9f, aspect, 0.1f, 100.0f, projection);
    else glm_perspective(0.9f, aspect, 0.1f, 100.0f, projection);
    memcpy(f->view, view, sizeof f->view);
    memcpy(f->projection, projection, sizeof f->projection);
    f->disable_sort = soak_chance(&s->rng, 0.05f);
    f->disable_culling = soak_chance(&s->rng, 0.1f);
    f->cull_distance = soak_chance(&s->rng, 0.1f) ? soak_uniform(&s->rng, 1, 8) : 0;
    f->transmittance_threshold = soak_chance(&s->rng, 0.2f) ? soak_uniform(&s->rng, 0, 0.5f) : 0;
    f->disable_early_termination = soak_chance(&s->rng, 0.1f);
    if (soak_chance(&s->rng, 0.7f)) {
        f->light_direction[1] = 1;
        f->light_direction[0] = soak_uniform(&s->rng, -1, 1);
        for (int c = 0; c < 3; ++c) {
            f->light_color[c] = soak_uniform(&s->rng, 0, 2);
            f->ambient_color[c] = soak_uniform(&s->rng, 0, 0.5f);
        }
    }
    /* The scene: a far plane of one depth (the clear), nearer or farther. */
    float d = soak_uniform(&s->rng, 0.9f, 1.0f);
    p.scene_depth = s->reversed_depth ? 1.0f - d : d;
    bool no_depth = soak_chance(&s->rng, 0.1f);
    f->depth_texture = no_depth ? 0 : 1; /* replaced by the lane's */
    p.paths = soak_rand(&s->rng);
    p.resolutions = soak_rand(&s->rng);
    p.grouped_also = soak_rand(&s->rng);
    p.second_view = soak_chance(&s->rng, 0.2f) ? soak_rand(&s->rng) : 0;
    p.viewport[2] = s->width;
    p.viewport[3] = s->height;
    if (s->width > 1 && s->height > 1 && soak_chance(&s->rng, 0.2f)) {
        p.viewport[2] = 1 + (int)soak_below(&s->rng, (uint32_t)s->width);
        p.viewport[3] = 1 + (int)soak_below(&s->rng, (uint32_t)s->height);
        p.viewport[0] = (int)soak_below(&s->rng, (uint32_t)(s->width - p.viewport[2] + 1));
        p.viewport[1] = (int)soak_below(&s->rng, (uint32_t)(s->height - p.viewport[3] + 1));
        /* the depth texture covers the whole target, not the viewport */
        f->viewport_size[0] = s->width;
        f->viewport_size[1] = s->height;
    }
    p.scissor = soak_chance(&s->rng, 0.1f);
    p.negative_size = soak_chance(&s->rng, 0.03f);
    return p;
}

static void lane_frame(soak *s, soak_lane *lane, const frame_plan *p) {
    soak_lane_current(lane);
    plume_frame_desc frame = p->frame;
    if (frame.depth_texture) frame.depth_texture = lane->depth;
    glBindFramebuffer(GL_FRAMEBUFFER, lane->scene_framebuffer);
    glClearDepth(p->scene_depth);
    glClear(GL_DEPTH_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, lane->draw_framebuffer);
    glClearColor(0.1f, 0.1f, 0.12f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glViewport(p->viewport[0], p->viewport[1], p->viewport[2], p->viewport[3]);
    if (p->scissor) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(p->viewport[0] + 1, p->viewport[1], p->viewport[2] / 2, p->viewport[3]);
    }
    for (int i = 0; i < SOAK_MAX_SYSTEMS && !s->failed; ++i) {
        if (!s->systems[i].live) continue;
        soak_mark mark = soak_mark_now(lane);
        plume_result r = plume_system_update(lane->context, lane->systems[i], &frame);
        soak_expect(s, lane, mark, r, PLUME_OK, "plume_system_update");
    }
    for (int i = 0; i < SOAK_MAX_SYSTEMS && !s->failed; ++i) {
        soak_system_slot *slot = &s->systems[i];
        if (!slot->live || (slot->grouped && !(p->grouped_also & (1u << i)))) continue;
        plume_frame_desc own = frame;
        /* Tiled, the module's choice (automatic: tiled or raster) or raster. */
        static const uint32_t PATHS[4] = {PLUME_DRAW_PATH_TILED, PLUME_DRAW_PATH_AUTOMATIC, PLUME_DRAW_PATH_RASTER,
                                          PLUME_DRAW_PATH_RASTER};
        own.draw_path = s->options.raster_only ? PLUME_DRAW_PATH_RASTER : PATHS[(p->paths >> (2 * i)) & 3u];
        own.draw_resolution = ((p->resolutions >> (2 * i)) & 3u) % 3u;
        if (own.draw_path != PLUME_DRAW_PATH_RASTER) slot->drew_tiled = true;
        soak_mark mark = soak_mark_now(lane);
        plume_result r = plume_system_draw(lane->context, lane->systems[i], &own);
        soak_expect(s, lane, mark, r, PLUME_OK,
                    own.draw_path == PLUME_DRAW_PATH_TILED ? "plume_system_draw (tiled)" : "plume_system_draw");
        if (p->second_view & (1u << i)) {
            /* Another view's pass in the same frame: the other path, another resolution. */
            bool tiled = !s->options.raster_only && own.draw_path == PLUME_DRAW_PATH_RASTER;
            own.draw_path = tiled ? PLUME_DRAW_PATH_TILED : PLUME_DRAW_PATH_RASTER;
            own.draw_resolution = (own.draw_resolution + 1) % 3u;
            if (own.draw_path == PLUME_DRAW_PATH_TILED) slot->drew_tiled = true;
            mark = soak_mark_now(lane);
            r = plume_system_draw(lane->context, lane->systems[i], &own);
            soak_expect(s, lane, mark, r, PLUME_OK, "plume_system_draw (a second view)");
        }
        if (p->negative_size && !s->failed) {
            /* A bad input: refused with one message, nothing drawn. */
            plume_frame_desc bad = own;
            bad.viewport_size[0] = -1;
            mark = soak_mark_now(lane);
            r = plume_system_draw(lane->context, lane->systems[i], &bad);
            soak_expect(s, lane, mark, r, PLUME_ERROR_INVALID_ARGUMENT, "plume_system_draw (negative viewport_size)");
        }
    }
    for (int g = 0; g < SOAK_MAX_GROUPS && !s->failed; ++g) {
        if (!s->groups[g].live) continue;
        plume_frame_desc group_frame = frame;
        group_frame.draw_resolution = ((p->resolutions >> (2 * (g + 12))) & 3u) % 3u;
        soak_mark mark = soak_mark_now(lane);
        plume_result r = plume_draw_group_draw(lane->context, lane->groups[g], &group_frame);
        soak_expect(s, lane, mark, r, PLUME_OK, "plume_draw_group_draw");
    }
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, s->width, s->height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void soak_frame(soak *s) {
    frame_plan p = plan_frame(s);
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) lane_frame(s, &s->lanes[l], &p);
    s->stats.frames++;
}

/* ---- Readbacks ---- */

static uint64_t hash_bytes(uint64_t h, const void *data, size_t size) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull; /* FNV-1a */
    return h;
}

/* A system's state as read back: the counts, the live slots' particles (a
 * dead slot holds stale data), the draw order and its keys; each part's
 * hash apart, so a difference between lanes says where it is. */
typedef struct system_sums {
    uint32_t counts[4]; /* live, dead, emitted, drawn */
    uint64_t particles, order, keys;
} system_sums;

static uint64_t hash_sums(const system_sums *p) {
    uint64_t h = hash_bytes(14695981039346656037ull, p->counts, sizeof p->counts);
    h = hash_bytes(h, &p->particles, sizeof p->particles);
    h = hash_bytes(h, &p->order, sizeof p->order);
    return hash_bytes(h, &p->keys, sizeof p->keys);
}

static system_sums system_checksum(soak *s, soak_lane *lane, int slot) {
    uint32_t capacity = s->systems[slot].capacity;
    plume_readback rb = {
        .particles = malloc(sizeof(plume_particle) * capacity),
        .draw_order = malloc(sizeof(uint32_t) * capacity),
        .draw_keys = malloc(sizeof(uint32_t) * capacity),
        .dead_slots = malloc(sizeof(uint32_t) * capacity),
    };
    unsigned char *dead = calloc(capacity, 1);
    soak_mark mark = soak_mark_now(lane);
    plume_result r = plume_system_read_back(lane->context, lane->systems[slot], &rb);
    const uint64_t empty = 14695981039346656037ull;
    system_sums sums = {{0}, empty, empty, empty};
    if (soak_expect(s, lane, mark, r, PLUME_OK, "plume_system_read_back")) {
        if (rb.live_count + rb.dead_count != capacity || rb.drawn_count > rb.live_count)
            soak_fail(s, "lane %d: system %d reads back %u live + %u dead for capacity %u, %u drawn", lane->index,
                      slot, rb.live_count, rb.dead_count, capacity, rb.drawn_count);
        for (uint32_t i = 0; i < rb.dead_count && !s->failed; ++i) {
            if (rb.dead_slots[i] >= capacity || dead[rb.dead_slots[i]])
                soak_fail(s, "lane %d: system %d's dead list holds slot %u twice or out of range", lane->index, slot,
                          rb.dead_slots[i]);
            else dead[rb.dead_slots[i]] = 1;
        }
        sums = (system_sums){{rb.live_count, rb.dead_count, rb.emitted_total, rb.drawn_count}, empty, empty, empty};
        for (uint32_t i = 0; i < capacity && !s->failed; ++i)
            if (!dead[i]) sums.particles = hash_bytes(sums.particles, &rb.particles[i], sizeof rb.particles[i]);
        sums.order = hash_bytes(sums.order, rb.draw_order, sizeof(uint32_t) * rb.drawn_count);
        sums.keys = hash_bytes(sums.keys, rb.draw_keys, sizeof(uint32_t) * rb.drawn_count);
    }
    free(rb.particles);
    free(rb.draw_order);
    free(rb.draw_keys);
    free(rb.dead_slots);
    free(dead);
    return sums;
}

static uint64_t group_checksum(soak *s, soak_lane *lane, int slot) {
    uint32_t count = 0;
    soak_mark mark = soak_mark_now(lane);
    plume_result r = plume_draw_group_read_back(lane->context, lane->groups[slot], NULL, 0, &count);
    if (!soak_expect(s, lane, mark, r, PLUME_OK, "plume_draw_group_read_back")) return 0;
    plume_draw_group_entry *entries = malloc(sizeof *entries * (count + 1));
    uint32_t again = 0;
    mark = soak_mark_now(lane);
    r = plume_draw_group_read_back(lane->context, lane->groups[slot], entries, count, &again);
    uint64_t h = hash_bytes(14695981039346656037ull, &count, sizeof count);
    if (soak_expect(s, lane, mark, r, PLUME_OK, "plume_draw_group_read_back")) h = hash_bytes(h, entries, sizeof *entries * count);
    free(entries);
    return h;
}

/* The first live slot whose particle differs between lane 0 and lane l,
 * both particles written out (for a determinism failure's message). */
static void describe_particle_difference(soak *s, int slot, int l, char *out, size_t size) {
    uint32_t capacity = s->systems[slot].capacity;
    plume_particle *p[2] = {malloc(sizeof(plume_particle) * capacity), malloc(sizeof(plume_particle) * capacity)};
    uint32_t *dead = malloc(sizeof(uint32_t) * capacity);
    unsigned char *is_dead = calloc(capacity, 1);
    snprintf(out, size, "; no differing particle found again");
    for (int k = 0; k < 2; ++k) {
        soak_lane *lane = &s->lanes[k ? l : 0];
        soak_lane_current(lane);
        plume_readback rb = {.particles = p[k], .dead_slots = dead};
        plume_system_read_back(lane->context, lane->systems[slot], &rb);
        if (k == 0)
            for (uint32_t i = 0; i < rb.dead_count; ++i) is_dead[dead[i] % capacity] = 1;
    }
    /* How many live slots differ, and in what: a newborn's birth, an older
     * particle's motion, or whether it lives at all. */
    uint32_t differing = 0, by_age = 0, newborn = 0, same_id = 0, first = capacity;
    for (uint32_t i = 0; i < capacity; ++i) {
        if (is_dead[i] || memcmp(&p[0][i], &p[1][i], sizeof p[0][i]) == 0) continue;
        if (first == capacity) first = i;
        differing++;
        by_age += p[0][i].age != p[1][i].age;
        newborn += p[0][i].age < 0.05f || p[1][i].age < 0.05f;
        same_id += p[0][i].id == p[1][i].id;
    }
    size_t used = 0;
    if (differing > 0)
        used = (size_t)snprintf(out, size, "; %u live slots differ (%u in age, %u younger than 0.05 s, %u with the "
                                "same id)", differing, by_age, newborn, same_id);
    for (uint32_t i = first; i < capacity && used < size; ++i) {
        if (is_dead[i] || memcmp(&p[0][i], &p[1][i], sizeof p[0][i]) == 0) continue;
        const plume_particle *a = &p[0][i], *b = &p[1][i];
        snprintf(out + used, size - used, "; first, slot %u: position (%.9g %.9g %.9g) / (%.9g %.9g %.9g), age %.9g / %.9g, velocity "
                 "(%.9g %.9g %.9g) / (%.9g %.9g %.9g), lifetime %.9g / %.9g, size %.9g / %.9g, rotation %.9g / %.9g, "
                 "spin %.9g / %.9g, id %u / %u", i, a->position[0], a->position[1], a->position[2], b->position[0],
                 b->position[1], b->position[2], a->age, b->age, a->velocity[0], a->velocity[1], a->velocity[2],
                 b->velocity[0], b->velocity[1], b->velocity[2], a->lifetime, b->lifetime, a->size, b->size,
                 a->rotation, b->rotation, a->spin, b->spin, a->id, b->id);
        break;
    }
    free(p[0]);
    free(p[1]);
    free(dead);
    free(is_dead);
}

void soak_read_back_all(soak *s) {
    for (int i = 0; i < SOAK_MAX_SYSTEMS + SOAK_MAX_GROUPS && !s->failed; ++i) {
        bool group = i >= SOAK_MAX_SYSTEMS;
        int slot = group ? i - SOAK_MAX_SYSTEMS : i;
        if (group ? !s->groups[slot].live : !s->systems[slot].live) continue;
        uint64_t sums[SOAK_MAX_LANES];
        system_sums parts[SOAK_MAX_LANES];
        for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
            soak_lane_current(&s->lanes[l]);
            if (group) sums[l] = group_checksum(s, &s->lanes[l], slot);
            else {
                parts[l] = system_checksum(s, &s->lanes[l], slot);
                sums[l] = hash_sums(&parts[l]);
            }
            if (l == 0 || s->failed || sums[l] == sums[0]) continue;
            char where[400] = "", particle[800] = "";
            if (!group && parts[0].particles != parts[l].particles)
                describe_particle_difference(s, slot, l, particle, sizeof particle);
            if (!group)
                snprintf(where, sizeof where, " (%s; live %u/%u, dead %u/%u, emitted %u/%u, drawn %u/%u; particles %s, "
                         "order %s, keys %s)", s->systems[slot].what, parts[0].counts[0], parts[l].counts[0],
                         parts[0].counts[1], parts[l].counts[1], parts[0].counts[2], parts[l].counts[2],
                         parts[0].counts[3], parts[l].counts[3],
                         parts[0].particles == parts[l].particles ? "same" : "differ",
                         parts[0].order == parts[l].order ? "same" : "differ",
                         parts[0].keys == parts[l].keys ? "same" : "differ");
            soak_fail(s, "determinism: %s %d reads back checksum %016llx in lane 0 and %016llx in lane %d after "
                      "the same operations%s%s", group ? "draw group" : "system", slot, (unsigned long long)sums[0],
                      (unsigned long long)sums[l], l, where, particle);
        }
        if (s->options.print_readbacks && !s->failed) {
            if (group) printf("readback frame %llu group %d %016llx\n", (unsigned long long)s->frame, slot,
                              (unsigned long long)sums[0]);
            else
                printf("readback frame %llu system %d (%s) %016llx: live %u dead %u emitted %u drawn %u, particles "
                       "%016llx order %016llx keys %016llx\n", (unsigned long long)s->frame, slot,
                       s->systems[slot].what, (unsigned long long)sums[0], parts[0].counts[0], parts[0].counts[1],
                       parts[0].counts[2], parts[0].counts[3], (unsigned long long)parts[0].particles,
                       (unsigned long long)parts[0].order, (unsigned long long)parts[0].keys);
        }
        if (!s->failed) s->stats.digest = hash_bytes(s->stats.digest, &sums[0], sizeof sums[0]);
        s->stats.readbacks++;
    }
}
