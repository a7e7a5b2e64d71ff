#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Mutated effect files (the gallery's and the template, bytes flipped,
 * inserted, deleted, repeated, numbers swapped for extremes, files cut and
 * spliced) never crash or leak the reader (the CI runs this under ASan, UBSan
 * and LeakSanitizer); every refusal carries a placed message, and every text
 * that loads writes back to a text that loads as the same descriptor. Bounded
 * by a count and a time budget, the seed printed by the test environment. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "effect_test_support.h"
#include "plume/plume_effect.h"
#include "test_env.h"
#include "tests.h"

/* At least LEAST_MUTANTS, whatever the clock says (a machine loaded by other
 * work runs fewer in the budget), then more until the budget or MUTANTS. */
enum { SEED_MAX = 16, LEAST_MUTANTS = 1000, MUTANTS = 30000 };
static const double BUDGET_SECONDS = 3.0;

typedef struct seed_text {
    char *text;
    size_t length;
    char folder[4096];
} seed_text;

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static char *read_whole(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    char *text = malloc(1 << 20);
    assert_non_null(text);
    *length = fread(text, 1, (1 << 20) - 1, file);
    fclose(file);
    text[*length] = '\0';
    return text;
}

static const char *const EXTREMES[] = {"-1", "0", "-0", "1e39", "-1e39", "1e-45", "4294967296", "4294967295",
                                       "1e308", "2", "0.5", "\"x\"", "true", "null", "[]", "{}", "[1, 2, 3]",
                                       "[[0, 1]]", "1.7976931348623157e308", "-9223372036854775808"};
static const char ALPHABET[] = "{}[],:\"0123456789.eE+- \n\\tu";

/* One random change to text[0 .. *length), in a buffer of `capacity`. */
static void mutate(char *text, size_t *length, size_t capacity, const seed_text *seeds, int seed_count) {
    size_t n = *length;
    size_t at = n ? test_random_below((uint32_t)n) : 0;
    switch (test_random_below(7)) {
    case 0: /* flip a byte */
        if (n) text[at] = (char)(text[at] ^ (1 << test_random_below(8)));
        break;
    case 1: /* insert a JSON-ish byte */
        if (n + 1 < capacity) {
            memmove(text + at + 1, text + at, n - at);
            text[at] = ALPHABET[test_random_below(sizeof ALPHABET - 1)];
            ++*length;
        }
        break;
    case 2: { /* delete a range */
        size_t count = 1 + test_random_below(16);
        if (at + count > n) count = n - at;
        memmove(text + at, text + at + count, n - at - count);
        *length -= count;
        break;
    }
    case 3: { /* repeat a range */
        size_t count = 1 + test_random_below(32);
        if (at + count > n) count = n - at;
        if (n + count < capacity) {
            memmove(text + at + count, text + at, n - at);
            *length += count;
        }
        break;
    }
    case 4: { /* swap the number at or after `at` for an extreme value */
        while (at < n && !strchr("-0123456789", text[at])) ++at;
        size_t end = at;
        while (end < n && strchr("-+0123456789.eE", text[end])) ++end;
        const char *value = EXTREMES[test_random_below(sizeof EXTREMES / sizeof EXTREMES[0])];
        size_t value_length = strlen(value);
        if (at < n && n - (end - at) + value_length < capacity) {
            memmove(text + at + value_length, text + end, n - end);
            memcpy(text + at, value, value_length);
            *length = n - (end - at) + value_length;
        }
        break;
    }
    case 5: /* cut */
        *length = at;
        break;
    default: { /* splice in a piece of another file */
        const seed_text *other = &seeds[test_random_below((uint32_t)seed_count)];
        size_t from = test_random_below((uint32_t)other->length), count = 1 + test_random_below(64);
        if (from + count > other->length) count = other->length - from;
        if (n + count < capacity) {
            memmove(text + at + count, text + at, n - at);
            memcpy(text + at, other->text + from, count);
            *length += count;
        }
        break;
    }
    }
    text[*length] = '\0';
}

/* A text the one-system reader refuses may be a group (plume_effect_group):
 * true when it loads as one, and then its written text loads again with
 * as many systems; a refusal is placed. */
static bool check_group(const char *text, size_t length, const char *folder) {
    plume_effect_group group, again;
    plume_effect_error error;
    plume_result result = plume_effect_group_parse(text, length, "mutant.json", folder, &group, &error);
    if (result != PLUME_OK) {
        if (strncmp(error.message, "mutant.json:", 12) != 0 || error.line < 1 || error.column < 1)
            fail_msg("an unplaced group message: \"%s\" (%d:%d)", error.message, error.line, error.column);
        assert_null(group.systems);
        return false;
    }
    char *written = plume_effect_group_write(&group, &error);
    if (!written) fail_msg("a loaded group does not write: %s", error.message);
    if (plume_effect_group_parse(written, strlen(written), "written.json", NULL, &again, &error) != PLUME_OK)
        fail_msg("a written group does not load: %s\n%s", error.message, written);
    assert_int_equal(again.system_count, group.system_count);
    plume_effect_free_text(written);
    plume_effect_group_free(&group);
    plume_effect_group_free(&again);
    return true;
}

/* True when the text loaded. */
static bool check_one(const char *text, size_t length, const char *folder, plume_effect *effect, plume_effect *again) {
    plume_effect_error error;
    plume_result result = plume_effect_parse(text, length, "mutant.json", folder, effect, &error);
    if (result == PLUME_OK) {
        char *written = plume_effect_write(&effect->desc, &error);
        if (!written) fail_msg("a loaded mutant does not write: %s", error.message);
        result = plume_effect_parse(written, strlen(written), "written.json", NULL, again, &error);
        if (result != PLUME_OK) fail_msg("a written mutant does not load: %s\n%s", error.message, written);
        assert_string_equal(effect->desc.appearance.texture.path ? effect->desc.appearance.texture.path : "",
                            again->desc.appearance.texture.path ? again->desc.appearance.texture.path : "");
        effect->desc.appearance.texture.path = again->desc.appearance.texture.path = NULL;
        assert_string_equal(effect->desc.flipbook_motion.path ? effect->desc.flipbook_motion.path : "",
                            again->desc.flipbook_motion.path ? again->desc.flipbook_motion.path : "");
        effect->desc.flipbook_motion.path = again->desc.flipbook_motion.path = NULL;
        assert_memory_equal(&effect->desc, &again->desc, sizeof effect->desc);
        plume_effect_free_text(written);
        return true;
    }
    if (result != PLUME_ERROR_INVALID_ARGUMENT && result != PLUME_ERROR_IO)
        fail_msg("unexpected %s: %s", plume_result_string(result), error.message);
    if (strncmp(error.message, "mutant.json:", 12) != 0 || error.line < 1 || error.column < 1)
        fail_msg("an unplaced message: \"%s\" (%d:%d)", error.message, error.line, error.column);
    /* Nothing of a refused file is kept. */
    assert_int_equal(effect->desc.capacity, 0);
    return check_group(text, length, folder);
}

static void test_mutated_effects_never_crash(void **state) {
    (void)state;
    seed_text seeds[SEED_MAX];
    char (*paths)[4096] = malloc(SEED_MAX * sizeof *paths);
    assert_non_null(paths);
    int seed_count = effect_gallery_paths(paths, SEED_MAX - 1);
    for (int i = 0; i < seed_count; ++i) {
        seeds[i].text = read_whole(paths[i], &seeds[i].length);
        const char *slash = strrchr(paths[i], '/');
        snprintf(seeds[i].folder, sizeof seeds[i].folder, "%.*s", (int)(slash - paths[i]), paths[i]);
    }
    char texture[4096];
    effect_temporary_image(texture, 8, 8);
    seeds[seed_count].text = effect_template_text(texture);
    seeds[seed_count].length = strlen(seeds[seed_count].text);
    seeds[seed_count].folder[0] = '\0';
    ++seed_count;

    enum { CAPACITY = 1 << 16 };
    char *text = malloc(CAPACITY);
    plume_effect *effect = malloc(sizeof *effect), *again = malloc(sizeof *again);
    assert_non_null(text);
    assert_non_null(effect);
    assert_non_null(again);
    double start = seconds_now();
    int mutants = 0, loaded = 0;
    for (; mutants < LEAST_MUTANTS || (mutants < MUTANTS && seconds_now() - start < BUDGET_SECONDS); ++mutants) {
        const seed_text *seed = &seeds[test_random_below((uint32_t)seed_count)];
        size_t length = seed->length;
        memcpy(text, seed->text, length + 1);
        uint32_t changes = 1 + test_random_below(test_random_below(4) == 0 ? 12 : 3);
        for (uint32_t c = 0; c < changes; ++c) mutate(text, &length, CAPACITY, seeds, seed_count);
        loaded += check_one(text, length, seed->folder, effect, again);
    }
    printf("effect fuzz: %d mutants in %.1f s, %d of them loaded (seed %llu)\n", mutants, seconds_now() - start, loaded,
           (unsigned long long)test_seed());
    /* The mutations reach both outcomes. */
    assert_true(loaded > 0 && loaded < mutants);
    for (int i = 0; i < seed_count; ++i) free(seeds[i].text);
    free(paths);
    free(text);
    free(effect);
    free(again);
    unlink(texture);
}

const struct CMUnitTest effect_fuzz_tests[] = {
    cmocka_unit_test_setup_teardown(test_mutated_effects_never_crash, test_setup, test_teardown),
};
const size_t effect_fuzz_test_count = sizeof effect_fuzz_tests / sizeof effect_fuzz_tests[0];
