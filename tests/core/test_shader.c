/* Shader includes (core/shader.c): an `#include "dir/file.glsl"` line is
 * replaced by the embedded file, once per stage however often it is named;
 * one that names no file fails the build with its file and line; a compile
 * error after an include still names its own file and line. Uses the
 * module's internals, so it runs against the static library only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/plume_internal.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* Builds one compute stage from `sources` (named `names`); returns the result,
 * the program deleted. */
static plume_result build(const char *const *sources, const char *const *names, int count) {
    plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    GLuint program = 123;
    plume_result r = plume_build_program_from_sources(&env, "include test", GL_COMPUTE_SHADER, sources, names, count,
                                                      "", &program);
    assert_true(r == PLUME_OK ? program != 0 : program == 0);
    glDeleteProgram(program);
    return r;
}

/* A one-file stage that fails to build, with `where` ("file:line:") and
 * `what` in the log. */
static void check_refused(const char *source, const char *name, const char *where, const char *what) {
    test_log_expect_errors();
    assert_int_equal(build(&source, &name, 1), PLUME_ERROR_SHADER);
    if (!test_log_contains(where) || !test_log_contains(what)) fail_msg("no \"%s\" ... \"%s\" in the log", where, what);
}

static void test_missing_include_names_file_and_line(void **state) {
    (void)state;
    check_refused("layout(local_size_x = 1) in;\n"
                  "#include \"sort/no_such_file.glsl\"\n"
                  "void main() {}\n",
                  "missing.comp", "missing.comp:2:", "sort/no_such_file.glsl");
}

/* depth_key() defined twice would not compile: each include after the
 * first, in the same file or another root, adds nothing. */
static void test_file_included_twice_is_included_once(void **state) {
    (void)state;
    const char *sources[] = {"#include \"sort/depth_key.glsl\"\n",
                             "#include \"sort/depth_key.glsl\"\n"
                             "layout(local_size_x = 1) in;\n"
                             "#include \"sort/depth_key.glsl\" // again\n"
                             "layout(std430, binding = 0) buffer Out { uint out_key; };\n"
                             "void main() { out_key = depth_key(1.0, false); }\n"};
    const char *names[] = {"first.glsl", "twice.comp"};
    assert_int_equal(build(sources, names, 2), PLUME_OK);
}

/* Line numbers resume after an include, so an error names its own line. */
static void test_error_after_include_names_its_line(void **state) {
    (void)state;
    check_refused("#include \"sort/depth_key.glsl\"\n"
                  "layout(local_size_x = 1) in;\n"
                  "void main() {\n"
                  "    undefined_thing = 3;\n"
                  "}\n",
                  "after_include.comp", "after_include.comp:4:", "undefined_thing");
}

static void test_malformed_include_is_refused(void **state) {
    (void)state;
    check_refused("layout(local_size_x = 1) in;\n"
                  "#include <sort/depth_key.glsl>\n"
                  "void main() {}\n",
                  "angle.comp", "angle.comp:2:", "expected #include");
}

const struct CMUnitTest shader_tests[] = {
    cmocka_unit_test_setup_teardown(test_missing_include_names_file_and_line, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_file_included_twice_is_included_once, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_error_after_include_names_its_line, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_malformed_include_is_refused, fixture_setup, fixture_teardown),
};
const size_t shader_test_count = sizeof shader_tests / sizeof shader_tests[0];
