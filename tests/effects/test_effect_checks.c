/* What the effects loader checks for creation without a GL context: the
 * sprite file decodes as an image, the flipbook's frames fit its pixels, and
 * the capacity is at most PLUME_EFFECT_MAX_CAPACITY; each refusal placed at
 * its field's line and column like every other error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "effect_test_support.h"
#include "plume/plume_effect.h"
#include "test_env.h"
#include "tests.h"

/* The template with `find` replaced by `replace` and `texture` as its sprite
 * parses with `expected`; when that is an error, its message starts with
 * "t.json:LINE:COLUMN: FIELD: " (where `replace` starts, or where `find`
 * does when `replace` is NULL) and holds `why`. */
static void expect_load(const char *texture, const char *find, const char *replace, plume_result expected,
                        const char *field, const char *why) {
    char *template_text = effect_template_text(texture);
    char *text = replace ? effect_replace(template_text, find, replace) : template_text;
    assert_non_null(text);
    plume_effect *effect = malloc(sizeof *effect);
    assert_non_null(effect);
    plume_effect_error error;
    plume_result result = plume_effect_parse(text, strlen(text), "t.json", NULL, effect, &error);
    if (result != expected)
        fail_msg("%s: got %s (%s), expected %s", replace ? replace : find, plume_result_string(result),
                 error.message, plume_result_string(expected));
    if (expected != PLUME_OK) {
        int line, column;
        effect_line_and_column(text, (size_t)(strstr(text, replace ? replace : find) - text), &line, &column);
        char start[256];
        snprintf(start, sizeof start, "t.json:%d:%d: %s: ", line, column, field);
        if (strncmp(error.message, start, strlen(start)) != 0 || !strstr(error.message, why))
            fail_msg("got \"%s\", expected \"%s...%s...\"", error.message, start, why);
        assert_string_equal(error.field, field);
        assert_int_equal(effect->desc.capacity, 0); /* nothing of a refused file is kept */
    }
    free(effect);
    if (text != template_text) free(text);
    free(template_text);
}

/* The template's flipbook is 2 x 2 frames; its sprite here 8 x 4 pixels. */
static void test_flipbook_frames_must_fit_the_sprite(void **state) {
    (void)state;
    char texture[4096];
    effect_temporary_image(texture, 8, 4);
    expect_load(texture, "\"columns\": 2", NULL, PLUME_OK, "", "");
    expect_load(texture, "\"columns\": 2", "\"columns\": 8", PLUME_OK, "", ""); /* one pixel a frame */
    expect_load(texture, "\"columns\": 2", "\"columns\": 9", PLUME_ERROR_INVALID_ARGUMENT,
                "appearance.texture.columns", "is 9; the sprite is 8 pixels wide, so at most 8 frames across");
    expect_load(texture, "\"rows\": 2", "\"rows\": 4", PLUME_OK, "", "");
    expect_load(texture, "\"rows\": 2", "\"rows\": 5", PLUME_ERROR_INVALID_ARGUMENT, "appearance.texture.rows",
                "is 5; the sprite is 4 pixels high, so at most 4 frames down");
    unlink(texture);
}

/* A flipbook's motion file: read with its strength (its path joined to the
 * folder's storage, kept by plume_effect_copy); refused at its field when
 * its size is not the sprite's. */
static void test_flipbook_motion_file_matches_the_sprite(void **state) {
    (void)state;
    char texture[4096], motion[4096], small[4096];
    effect_temporary_image(texture, 8, 4);
    effect_temporary_image(motion, 8, 4);
    effect_temporary_image(small, 4, 4);
    plume_effect *effects = malloc(2 * sizeof *effects);
    assert_non_null(effects);
    for (int sized = 0; sized < 2; ++sized) {
        char *template_text = effect_template_text(texture);
        char field[4300];
        snprintf(field, sizeof field, "\"capacity\": 500, \"flipbook_motion\": {\"path\": \"%s\", \"strength\": 0.5},",
                 sized ? small : motion);
        char *blended = effect_replace(template_text, "\"disable_frame_blend\": true", "\"disable_frame_blend\": false");
        char *text = effect_replace(blended, "\"capacity\": 500,", field);
        assert_non_null(text);
        plume_effect_error error;
        plume_result result = plume_effect_parse(text, strlen(text), "t.json", NULL, &effects[0], &error);
        if (!sized) {
            if (result != PLUME_OK) fail_msg("%s", error.message);
            assert_string_equal(effects[0].desc.flipbook_motion.path, motion);
            assert_float_equal(effects[0].desc.flipbook_motion.strength, 0.5f, 0.0f);
            plume_effect_copy(&effects[1], &effects[0]);
            assert_ptr_equal(effects[1].desc.flipbook_motion.path, effects[1].motion_path);
        } else {
            assert_int_equal(result, PLUME_ERROR_INVALID_ARGUMENT);
            assert_string_equal(error.field, "flipbook_motion.path");
            assert_non_null(strstr(error.message, "must be the sprite's size (8x4)"));
        }
        free(text), free(blended), free(template_text);
    }
    free(effects);
    unlink(texture), unlink(motion), unlink(small);
}

/* A sprite file that exists but is no image, or a PNG cut short (its header
 * alone would pass): refused as creation would refuse it, PLUME_ERROR_IO. */
static void test_sprite_must_decode_as_an_image(void **state) {
    (void)state;
    char texture[4096];
    effect_temporary_file(texture, ".png", "not a picture");
    expect_load(texture, "\"path\": \"", NULL, PLUME_ERROR_IO, "appearance.texture.path",
                "is not an image stb_image decodes");
    unlink(texture);

    effect_temporary_image(texture, 64, 64);
    FILE *file = fopen(texture, "rb");
    assert_non_null(file);
    char bytes[4096];
    size_t length = fread(bytes, 1, sizeof bytes, file);
    fclose(file);
    assert_true(length > 64);
    file = fopen(texture, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(bytes, 1, length / 2, file), length / 2);
    fclose(file);
    expect_load(texture, "\"path\": \"", NULL, PLUME_ERROR_IO, "appearance.texture.path",
                "is not an image stb_image decodes");
    unlink(texture);
}

/* PLUME_EFFECT_MAX_CAPACITY is accepted (creation then judges it against the
 * GL's limits); one more is refused. */
static void test_capacity_at_most_the_stated_maximum(void **state) {
    (void)state;
    char texture[4096];
    effect_temporary_image(texture, 8, 8);
    char at_most[64], over[64], why[128];
    snprintf(at_most, sizeof at_most, "\"capacity\": %u", PLUME_EFFECT_MAX_CAPACITY);
    snprintf(over, sizeof over, "\"capacity\": %u", PLUME_EFFECT_MAX_CAPACITY + 1);
    snprintf(why, sizeof why, "is %u; at most %u", PLUME_EFFECT_MAX_CAPACITY + 1, PLUME_EFFECT_MAX_CAPACITY);
    expect_load(texture, "\"capacity\": 500", at_most, PLUME_OK, "", "");
    expect_load(texture, "\"capacity\": 500", over, PLUME_ERROR_INVALID_ARGUMENT, "capacity", why);
    expect_load(texture, "\"capacity\": 500", "\"capacity\": 4294967295", PLUME_ERROR_INVALID_ARGUMENT, "capacity",
                "at most");
    unlink(texture);
}

const struct CMUnitTest effect_checks_tests[] = {
    cmocka_unit_test_setup_teardown(test_flipbook_frames_must_fit_the_sprite, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_flipbook_motion_file_matches_the_sprite, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_sprite_must_decode_as_an_image, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_capacity_at_most_the_stated_maximum, test_setup, test_teardown),
};
const size_t effect_checks_test_count = sizeof effect_checks_tests / sizeof effect_checks_tests[0];
