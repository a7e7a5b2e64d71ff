#include "effect_test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "effect_reload.h"
#include "test_env.h"
#include "test_platform.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

const char EFFECT_TEMPLATE[] =
    "{\n"
    "  \"plume_effect\": 1,\n"
    "  \"capacity\": 500,\n"
    "  \"seed\": 3,\n"
    "  \"emitters\": [\n"
    "    {\n"
    "      \"shape\": \"cone\",\n"
    "      \"position\": [0, 1, 0],\n"
    "      \"extents\": [0.2, 0, 0],\n"
    "      \"direction\": [0, 1, 0],\n"
    "      \"spread\": 0.3,\n"
    "      \"rate\": 100,\n"
    "      \"burst_count\": 10,\n"
    "      \"burst_interval\": 0.5,\n"
    "      \"lifetime\": [1, 2],\n"
    "      \"speed\": [0.5, 1],\n"
    "      \"size\": [0.1, 0.2],\n"
    "      \"rotation\": [0, 3],\n"
    "      \"spin\": [-1, 1]\n"
    "    }\n"
    "  ],\n"
    "  \"forces\": {\n"
    "    \"gravity\": [0, -1, 0],\n"
    "    \"wind\": [1, 0, 0],\n"
    "    \"drag\": 0.5,\n"
    "    \"turbulence\": 0.2,\n"
    "    \"turbulence_scale\": 0.8,\n"
    "    \"turbulence_speed\": 0.1\n"
    "  },\n"
    "  \"appearance\": {\n"
    "    \"size_over_life\": [[0, 1], [1, 2]],\n"
    "    \"color_over_life\": [[0, 1, 1, 1, 1], [1, 0.5, 0.5, 0.5, 0]],\n"
    "    \"opacity_over_life\": [[0, 1], [1, 0]],\n"
    "    \"texture\": {\n"
    "      \"path\": \"TEXTURE\",\n"
    "      \"columns\": 2,\n"
    "      \"rows\": 2,\n"
    "      \"disable_frame_blend\": true\n"
    "    },\n"
    "    \"soft_fade_distance\": 0.4\n"
    "  },\n"
    "  \"blend_mode\": \"premultiplied_additive\",\n"
    "  \"additive_over_life\": [[0, 1], [0.6, 0]],\n"
    "  \"orientation\": \"velocity_stretched\",\n"
    "  \"stretch_factor\": 0.2,\n"
    "  \"stretch_limits\": [1, 3],\n"
    "  \"sort_mode\": \"distance\",\n"
    "  \"sort_key_bits\": 32,\n"
    "  \"lit\": true,\n"
    "  \"emissive_over_life\": [[0, 1, 0.5, 0, 1], [0.5, 0, 0, 0, 0]],\n"
    "  \"world\": {\n"
    "    \"colliders\": [\n"
    "      {\n"
    "        \"shape\": \"sphere\",\n"
    "        \"position\": [0, -2, 0],\n"
    "        \"radius\": 1.5,\n"
    "        \"collision\": {\"response\": \"bounce\", \"restitution\": 0.5, \"friction\": 0.2, \"rest_speed\": 0.1}\n"
    "      }\n"
    "    ],\n"
    "    \"depth_collision\": {\"enabled\": true, \"thickness\": 0.3},\n"
    "    \"attractors\": [{\"kind\": \"vortex\", \"axis\": [0, 1, 0], \"strength\": 2, \"radius\": 3}],\n"
    "    \"events\": [\n"
    "      {\"trigger\": \"death\", \"source_emitters\": 1, \"target_emitter\": 0, \"count\": 2, \"inherit_velocity\": 0.5}\n"
    "    ],\n"
    "    \"event_capacity\": 1000\n"
    "  },\n"
    "  \"prewarm_time\": 2.5,\n"
    "  \"inherit_velocity\": 0.75,\n"
    "  \"simulation_space\": \"local\"\n"
    "}\n";

void effect_temporary_file(char *out, const char *suffix, const char *text) {
    test_temporary_file(out, 4096, "plume_effect_test_", suffix);
    FILE *file = fopen(out, "wb");
    assert_non_null(file);
    size_t length = text ? strlen(text) : 0;
    assert_int_equal(fwrite(text ? text : "", 1, length, file), length);
    fclose(file);
}

void effect_temporary_image(char *out, int width, int height) {
    effect_temporary_file(out, ".png", NULL);
    unsigned char *pixels = calloc((size_t)width * height, 4);
    assert_non_null(pixels);
    for (int i = 0; i < width * height; ++i) pixels[4 * i + 3] = 255;
    assert_true(stbi_write_png(out, width, height, 4, pixels, width * 4));
    free(pixels);
}

void effect_line_and_column(const char *text, size_t offset, int *line, int *column) {
    *line = 1, *column = 1;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') ++*line, *column = 1;
        else ++*column;
    }
}

char *effect_replace(const char *text, const char *find, const char *replace) {
    const char *at = strstr(text, find);
    if (!at) return NULL;
    size_t before = (size_t)(at - text), find_length = strlen(find), replace_length = strlen(replace);
    size_t length = strlen(text) - find_length + replace_length;
    char *out = malloc(length + 1);
    assert_non_null(out);
    memcpy(out, text, before);
    memcpy(out + before, replace, replace_length);
    strcpy(out + before + replace_length, at + find_length);
    return out;
}

char *effect_template_text(const char *texture_path) {
    char *text = effect_replace(EFFECT_TEMPLATE, "TEXTURE", texture_path);
    assert_non_null(text);
    return text;
}

int effect_gallery_paths(char (*out)[4096], int max) {
    int count = effect_gallery_list(out, max);
    assert_true(count > 0);
    return count;
}

/* Equal bit for bit, the texture and motion paths compared as strings. */
void assert_same_desc(const plume_system_desc *expected, const plume_system_desc *actual) {
    const char *expected_path = expected->appearance.texture.path, *actual_path = actual->appearance.texture.path;
    assert_true((expected_path == NULL) == (actual_path == NULL));
    if (expected_path) assert_string_equal(expected_path, actual_path);
    const char *expected_motion = expected->flipbook_motion.path, *actual_motion = actual->flipbook_motion.path;
    assert_true((expected_motion == NULL) == (actual_motion == NULL));
    if (expected_motion) assert_string_equal(expected_motion, actual_motion);
    plume_system_desc a = *expected, b = *actual;
    a.appearance.texture.path = b.appearance.texture.path = NULL;
    a.flipbook_motion.path = b.flipbook_motion.path = NULL;
    if (memcmp(&a, &b, sizeof a) != 0) {
        char *text_a = plume_effect_write(&a, NULL), *text_b = plume_effect_write(&b, NULL);
        print_error("expected:\n%s\nread back:\n%s\n", text_a ? text_a : "?", text_b ? text_b : "?");
        plume_effect_free_text(text_a);
        plume_effect_free_text(text_b);
        fail_msg("the descriptor read back differs (seed %llu)", (unsigned long long)test_seed());
    }
}
