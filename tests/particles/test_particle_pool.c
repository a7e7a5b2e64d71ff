/* The context's particle pool (particles/particle_pool.c): every
 * compute-path system's capacity-sized storage is a set of ranges of the
 * pool's pages, each offset aligned to GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT,
 * no two live systems' ranges overlapping, for seeded non-power-of-two
 * capacities made and destroyed in random order; a destroyed system's block
 * is taken again by the next system that fits, and after a warm-up the churn
 * of creating and destroying systems makes no new page; a system whose
 * block is overwritten with poison, then reset and run hard, leaves its
 * neighbours' particles as they were (read back). And a batch's simulate
 * over a table of the systems of a page (particles/update_table.c)
 * updates every system exactly as its own update does: systems of random
 * non-power-of-two capacities, different emitters and forces, one empty,
 * one in local space (its own dispatch), culled every other frame. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "particle_fixture.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "test_env.h"
#include "tests.h"

enum { LIVE = 12, CHURN = 24 };

static const char *const POOL_NEEDS_COMPUTE = "its systems keep textures of their own, no pool";

static plume_lab_particle_storage storage_of(plume_system system) {
    plume_lab_particle_storage s;
    assert_int_equal(plume_lab_particle_storage_of(fixture_context(), system, &s), PLUME_OK);
    return s;
}

/* A capacity that is not a power of two, in [low, high). */
static uint32_t random_capacity(uint32_t low, uint32_t high) {
    uint32_t c = low + test_random_below(high - low);
    return (c & (c - 1)) == 0 ? c + 3 : c;
}

static plume_system make_of_capacity(uint32_t capacity, uint32_t seed) {
    plume_system_desc d = busy_desc(seed);
    d.capacity = capacity;
    return make_system(d);
}

/* Each range aligned and as large as the system needs. */
static void check_ranges(const plume_lab_particle_storage *s, uint32_t capacity) {
    GLint alignment = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    assert_true(s->alignment >= (uint64_t)alignment && s->alignment % (uint64_t)alignment == 0);
    const uint64_t least[PLUME_LAB_STORAGE_RANGES] = {
        (uint64_t)capacity * 32, (uint64_t)capacity * 32, (uint64_t)capacity * 4, (uint64_t)capacity * 8, 16};
    for (int i = 0; i < PLUME_LAB_STORAGE_RANGES; ++i) {
        assert_true(s->buffers[i] != 0 && s->buffers[i] == s->buffers[0]);
        if (s->offsets[i] % (uint64_t)alignment != 0)
            fail_msg("range %d at offset %llu, not a multiple of %d", i, (unsigned long long)s->offsets[i], alignment);
        assert_true(s->sizes[i] >= least[i]);
    }
}

/* No byte in two ranges of `a` and `b` (or of `a` alone when a == b). */
static void check_apart(const plume_lab_particle_storage *a, const plume_lab_particle_storage *b, bool same) {
    for (int i = 0; i < PLUME_LAB_STORAGE_RANGES; ++i)
        for (int k = same ? i + 1 : 0; k < PLUME_LAB_STORAGE_RANGES; ++k) {
            if (a->buffers[i] != b->buffers[k]) continue;
            bool overlap = a->offsets[i] < b->offsets[k] + b->sizes[k] && b->offsets[k] < a->offsets[i] + a->sizes[i];
            if (overlap)
                fail_msg("range %d [%llu, +%llu) overlaps range %d [%llu, +%llu) of buffer %u", i,
                         (unsigned long long)a->offsets[i], (unsigned long long)a->sizes[i], k,
                         (unsigned long long)b->offsets[k], (unsigned long long)b->sizes[k], a->buffers[i]);
        }
}

static void check_all_apart(const plume_system *systems, const uint32_t *capacities, int count) {
    plume_lab_particle_storage s[LIVE];
    for (int i = 0; i < count; ++i) {
        s[i] = storage_of(systems[i]);
        check_ranges(&s[i], capacities[i]);
        check_apart(&s[i], &s[i], true);
        for (int k = 0; k < i; ++k) check_apart(&s[i], &s[k], false);
    }
    assert_int_equal(storage_of((plume_system){0}).pool_blocks, (uint64_t)count);
}

/* Twelve systems of random capacities; five destroyed at random and five
 * made in their place: every live system's ranges apart from the others'. */
static void test_pool_ranges_are_aligned_and_apart(void **state) {
    (void)state;
    if (compute_path_forced_off(POOL_NEEDS_COMPUTE)) return;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    plume_system systems[LIVE];
    uint32_t capacities[LIVE];
    for (int i = 0; i < LIVE; ++i) {
        capacities[i] = random_capacity(60, 6000);
        systems[i] = make_of_capacity(capacities[i], seed + (uint32_t)i);
    }
    check_all_apart(systems, capacities, LIVE);
    for (int round = 0; round < 5; ++round) {
        int i = (int)test_random_below(LIVE);
        destroy_system(systems[i]);
        capacities[i] = random_capacity(60, 9000);
        systems[i] = make_of_capacity(capacities[i], seed + 100 + (uint32_t)round);
        check_all_apart(systems, capacities, LIVE);
    }
    for (int i = 0; i < LIVE; ++i) destroy_system(systems[i]);
    plume_lab_particle_storage none = storage_of((plume_system){0});
    assert_true(none.pool_pages == 0 && none.pool_blocks == 0); /* the pool went with its last block */
}

/* With one system alive, a warm-up system of the largest capacity, then
 * systems of random smaller capacities made and destroyed one at a time,
 * each capacity twice: the second takes the first's block again, and no
 * page is made after the warm-up. */
static void test_pool_reuses_blocks_without_new_pages(void **state) {
    (void)state;
    if (compute_path_forced_off(POOL_NEEDS_COMPUTE)) return;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    plume_system anchor = make_of_capacity(501, seed);
    destroy_system(make_of_capacity(3001, seed + 1));
    uint64_t pages = storage_of((plume_system){0}).pool_pages_made;
    for (int round = 0; round < CHURN; ++round) {
        uint32_t capacity = random_capacity(50, 3001);
        plume_lab_particle_storage taken[2];
        for (int again = 0; again < 2; ++again) {
            plume_system s = make_of_capacity(capacity, seed + 2 + (uint32_t)round);
            taken[again] = storage_of(s);
            check_ranges(&taken[again], capacity);
            plume_lab_particle_storage kept = storage_of(anchor);
            check_apart(&taken[again], &kept, false);
            destroy_system(s);
        }
        if (taken[1].buffers[0] != taken[0].buffers[0] || taken[1].offsets[0] != taken[0].offsets[0])
            fail_msg("round %d (capacity %u): block at buffer %u offset %llu, not the one freed (%u, %llu)", round,
                     capacity, taken[1].buffers[0], (unsigned long long)taken[1].offsets[0], taken[0].buffers[0],
                     (unsigned long long)taken[0].offsets[0]);
    }
    plume_lab_particle_storage after = storage_of((plume_system){0});
    printf("  %d systems made and destroyed: pages made %llu, as after the warm-up\n", 2 * CHURN,
           (unsigned long long)after.pool_pages_made);
    assert_int_equal(after.pool_pages_made, pages);
    assert_int_equal(after.pool_blocks, 1);
    destroy_system(anchor);
}

static void assert_same_readback(const plume_readback *a, const plume_readback *b, uint32_t capacity,
                                 const char *which) {
    if (a->live_count != b->live_count || a->dead_count != b->dead_count || a->drawn_count != b->drawn_count ||
        memcmp(a->particles, b->particles, sizeof *a->particles * capacity) != 0 ||
        memcmp(a->dead_slots, b->dead_slots, sizeof(uint32_t) * a->dead_count) != 0 ||
        memcmp(a->draw_order, b->draw_order, sizeof(uint32_t) * a->drawn_count) != 0)
        fail_msg("%s: its particles changed while its neighbour's block was poisoned and run", which);
}

static void poison_ranges(const plume_lab_particle_storage *s, uint32_t seed) {
    for (int i = 0; i < PLUME_LAB_STORAGE_RANGES; ++i) {
        uint32_t *words = malloc(s->sizes[i]);
        assert_non_null(words);
        for (uint64_t w = 0; w < s->sizes[i] / 4; ++w) words[w] = (uint32_t)w * 2654435761u ^ seed;
        glBindBuffer(GL_COPY_WRITE_BUFFER, s->buffers[i]);
        glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)s->offsets[i], (GLsizeiptr)s->sizes[i], words);
        free(words);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

/* Three systems side by side in one page: the middle one's block poisoned,
 * then reset and run with more births than room; its neighbours, read
 * back before and after, unchanged. */
static void test_pool_neighbours_keep_their_particles(void **state) {
    (void)state;
    if (compute_path_forced_off(POOL_NEEDS_COMPUTE)) return;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const uint32_t capacities[3] = {509, 777, 1023};
    plume_system systems[3];
    for (int i = 0; i < 3; ++i) {
        plume_system_desc d = busy_desc(seed + (uint32_t)i);
        d.capacity = capacities[i];
        if (i == 1) d.emitters[0].rate = 5000; /* more births than room */
        systems[i] = make_system(d);
    }
    plume_lab_particle_storage s[3] = {storage_of(systems[0]), storage_of(systems[1]), storage_of(systems[2])};
    assert_true(s[0].buffers[0] == s[1].buffers[0] && s[1].buffers[0] == s[2].buffers[0]);
    assert_true(s[0].offsets[4] + s[0].sizes[4] <= s[1].offsets[0]);
    assert_true(s[1].offsets[4] + s[1].sizes[4] <= s[2].offsets[0]);
    plume_frame_desc frame = make_frame(1.0f / 30.0f, NULL, NULL);
    for (int step = 0; step < 4; ++step)
        for (int i = 0; i < 3; ++i) update(systems[i], &frame);
    plume_readback before[2] = {read_all(fixture_context(), systems[0]), read_all(fixture_context(), systems[2])};
    assert_true(before[0].live_count > 0 && before[1].live_count > 0);

    poison_ranges(&s[1], seed);
    plume_readback poisoned[2] = {read_all(fixture_context(), systems[0]), read_all(fixture_context(), systems[2])};
    assert_int_equal(plume_system_reset(fixture_context(), systems[1]), PLUME_OK);
    for (int step = 0; step < 6; ++step) update(systems[1], &frame);
    plume_readback middle = read_all(fixture_context(), systems[1]);
    assert_true(middle.live_count > 0 && middle.live_count + middle.dead_count == capacities[1]);
    plume_readback after[2] = {read_all(fixture_context(), systems[0]), read_all(fixture_context(), systems[2])};
    for (int k = 0; k < 2; ++k) {
        const char *which = k ? "the system after" : "the system before";
        assert_same_readback(&before[k], &poisoned[k], capacities[2 * k], which);
        assert_same_readback(&before[k], &after[k], capacities[2 * k], which);
        free_readback(&before[k]);
        free_readback(&poisoned[k]);
        free_readback(&after[k]);
    }
    free_readback(&middle);
    for (int i = 0; i < 3; ++i) destroy_system(systems[i]);
}

/* ---- A batch's simulate over a table of systems (update_table.c) ---- */

enum { TABLED = 9, TABLE_STEPS = 7 };

/* System `kind` of the table test: a capacity that is no power of two, its
 * own emitters and forces; kind 4 empty (no rate, no burst), kind 7 in
 * local space (it runs its own dispatch among the table's). */
static plume_system_desc table_desc(int kind, uint32_t seed, const uint32_t *capacities) {
    plume_system_desc d = busy_desc(seed + 7u * (uint32_t)kind);
    d.capacity = capacities[kind];
    d.emitters[0].rate = 150.0f + 400.0f * (float)(kind % 4);
    d.emitters[0].shape = (plume_emitter_shape)(kind % 3);
    d.emitters[0].position[1] = 0.3f * (float)kind - 1.0f;
    d.forces.gravity[1] = -0.5f * (float)(kind % 3);
    d.forces.wind[2] = 0.2f * (float)(kind % 2);
    d.forces.drag = 0.1f * (float)kind;
    d.forces.turbulence = kind % 2 ? 0.0f : 1.0f + (float)kind;
    if (kind % 3 == 1) d.sort_mode = PLUME_SORT_MODE_DISTANCE;
    if (kind == 4) {
        d.emitters[0].rate = 0.0f;
        d.emitters[6].burst_count = 0;
    }
    if (kind == 5) d.emitters[0].rate = 5000.0f; /* more births than room */
    if (kind == 7) d.simulation_space = PLUME_SPACE_LOCAL;
    return d;
}

/* Nine systems of random non-power-of-two capacities, different emitters
 * and forces, one empty, one in local space, and their twins: batched (the
 * simulate of those that fit in tables, one dispatch a page) and updated
 * one by one, culled every other frame; the same particles (read back). */
static void test_batch_table_updates_each_system_as_alone(void **state) {
    (void)state;
    if (compute_path_forced_off(POOL_NEEDS_COMPUTE)) return;
    plume_context *context = fixture_context();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    uint32_t capacities[TABLED];
    for (int k = 0; k < TABLED; ++k) capacities[k] = random_capacity(30, 4000);
    plume_system batched[TABLED], alone[TABLED];
    for (int k = 0; k < TABLED; ++k) {
        batched[k] = make_system(table_desc(k, seed, capacities));
        alone[k] = make_system(table_desc(k, seed, capacities));
    }
    plume_bounds box;
    plume_system_get_bounds(context, batched[2], &box); /* the box grown in a table's record */
    plume_system_get_bounds(context, alone[2], &box);
    plume_lab_particle_storage before = storage_of((plume_system){0});
    mat4 view, projection;
    random_camera(view, projection);
    for (int step = 0; step < TABLE_STEPS; ++step) {
        plume_frame_desc frame = make_frame(0.005f + 0.007f * (float)step, view, projection);
        frame.disable_culling = step % 2 == 0;
        for (int k = 0; k < TABLED; ++k) assert_int_equal(plume_system_update(context, alone[k], &frame), PLUME_OK);
        assert_int_equal(plume_batch_update(context, batched, TABLED, &frame), PLUME_OK);
    }
    plume_lab_particle_storage after = storage_of((plume_system){0});
    printf("  %d batches: %llu table dispatches ran %llu systems\n", TABLE_STEPS,
           (unsigned long long)(after.table_dispatches - before.table_dispatches),
           (unsigned long long)(after.table_systems - before.table_systems));
    assert_true(after.table_dispatches - before.table_dispatches >= TABLE_STEPS);
    assert_int_equal(after.table_systems - before.table_systems, (TABLED - 1) * TABLE_STEPS);
    for (int k = 0; k < TABLED; ++k) {
        char which[32];
        snprintf(which, sizeof which, "system %d", k);
        assert_same_live_particles(context, batched[k], context, alone[k], which);
        destroy_system(batched[k]);
        destroy_system(alone[k]);
    }
}

const struct CMUnitTest particle_pool_tests[] = {
    cmocka_unit_test_setup_teardown(test_batch_table_updates_each_system_as_alone, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pool_ranges_are_aligned_and_apart, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pool_reuses_blocks_without_new_pages, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pool_neighbours_keep_their_particles, fixture_setup, fixture_teardown),
};
const size_t particle_pool_test_count = sizeof particle_pool_tests / sizeof particle_pool_tests[0];
