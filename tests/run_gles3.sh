#!/bin/sh
# The fragment path in a real OpenGL ES 3.0 context (WebGL 2's GL): EGL with
# EGL_OPENGL_ES_API and Mesa's llvmpipe held to ES 3.0 (GLSL ES 3.00), so
# that libepoxy aborts the process at any call of a function ES 3.0 lacks
# (glGetTexImage, glGetTexLevelParameteriv, glTexBuffer, glPolygonMode,
# indexed blending, glGetBufferSubData ...) and the tests fail on any GL error.
# What runs there: the sorter on render passes in the GLSL ES 3.00 profile
# (core/shader.c's prefix over the same sources), its texture and buffer
# forms against qsort, bad input, the host's GL state; and the refusals, by
# name, of what needs more than ES 3.0 (a count read from a buffer, particle
# systems, the compute path). Small sizes: this is part of the CI's time.
# Usage: sh tests/run_gles3.sh CONFIG (debug, release, sanitize).
set -eu
cd "$(dirname "$0")/.."
config=${1:-debug}
export PLUME_TEST_GL=es3.0 MESA_GLES_VERSION_OVERRIDE=3.0
tests="test_gles_sorts_on_the_fragment_path,test_gles_texture_extent_is_found,test_gles_refuses_what_needs_more,\
test_texture_sort_matches_qsort,test_texture_sort_adversarial_keys,test_buffer_sorts_on_the_fragment_path,\
test_render_pass_sort,test_bad_input_is_refused,test_host_gl_state_is_restored,test_radix_algorithm_is_refused"
status=0
./build/"$config"/bin/plume_tests "$tests" > build/gles3_test.log 2>&1 || status=$?
cat build/gles3_test.log
if ! grep -q "OpenGL ES 3.0" build/gles3_test.log; then
    echo "the GLES run did not get an OpenGL ES 3.0 context" >&2
    exit 1
fi
if ! grep -q "PASSED  \] 10 test" build/gles3_test.log; then
    echo "the GLES run did not pass its 10 tests" >&2
    exit 1
fi
exit "$status"
