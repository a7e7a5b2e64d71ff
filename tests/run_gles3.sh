#!/bin/sh
# The fragment path in a real OpenGL ES 3.0 context (WebGL 2's GL): EGL with
# EGL_OPENGL_ES_API and Mesa's llvmpipe held to ES 3.0 (GLSL ES 3.00), so
# that libepoxy aborts the process at any call of a function ES 3.0 lacks
# (glGetTexImage, glGetTexLevelParameteriv, glTexBuffer, glPolygonMode,
# indexed blending, glGetBufferSubData ...) and the tests fail on any GL error.
# What runs there: the sorter on render passes in the GLSL ES 3.00 profile
# (core/shader.c's prefix over the same sources), its texture and buffer
# forms against qsort, bad input, the host's GL state; particle systems on
# the fragment path with their list in a texture (keys written by a render
# pass, sorted in place by the render passes, read by the draw with
# texelFetch): the particle suites' tests that hold on that path, against
# their closed forms and the CPU compositor (emission, positions, the
# back-to-front list, images, soft fade, flipbook, culling, blend modes,
# orientations, lighting, sort modes, prewarm, the GL state and objects);
# and the refusals, by name, of what needs more than ES 3.0 (a count read
# from a buffer, a host texture, the compute path and its features; float
# targets without EXT_color_buffer_float, in a second run with it hidden).
# Small sizes: this is part of the CI's time.
# Usage: sh tests/run_gles3.sh CONFIG (debug, release, sanitize).
set -eu
cd "$(dirname "$0")/.."
config=${1:-debug}
export PLUME_TEST_GL=es3.0 MESA_GLES_VERSION_OVERRIDE=3.0
tests="test_gles_sorts_on_the_fragment_path,test_gles_texture_extent_is_found,test_gles_refuses_what_needs_more,\
test_texture_sort_matches_qsort,test_texture_sort_adversarial_keys,test_buffer_sorts_on_the_fragment_path,\
test_render_pass_sort,test_bad_input_is_refused,test_host_gl_state_is_restored,test_radix_algorithm_is_refused,\
test_gles_particles_need_float_targets,test_gles_particles_refuse_by_name,\
test_emission_counts_and_lifetimes,test_positions_match_closed_form,test_draw_list_is_back_to_front,\
test_same_seed_same_particles_and_reset_restarts,test_image_matches_cpu_compositing_and_needs_the_sort,\
test_soft_particles_fade_against_scene_depth,test_flipbook_frames_by_age_with_blending,\
test_culling_leaves_the_picture_unchanged,test_path_is_chosen_and_reported,test_full_ring_replaces_the_oldest,\
test_calls_restore_gl_state_and_free_everything,test_world_is_refused_by_name,test_tiled_draw_path_falls_back_once,\
test_every_look_accepted_and_a_draw_group_refused,test_unsorted_list_is_ascending_slots_round_the_ring,\
test_blend_modes_match_the_cpu_compositor_on_every_path,test_orientations_match_the_cpu_compositor,\
test_lighting_matches_the_cpu_compositor,test_sort_modes_give_their_total_order,\
test_sort_key_bits_set_the_depth_resolution,test_prewarm_on_the_fragment_path,\
test_webgl_is_never_asked_the_fixed_index_restart,\
test_halfway_frames_match_the_cpu_blend,test_minified_motion_is_read_at_the_sprites_level"
expected=36
status=0
./build/"$config"/bin/plume_tests "$tests" > build/gles3_test.log 2>&1 || status=$?
cat build/gles3_test.log
if ! grep -q "OpenGL ES 3.0" build/gles3_test.log; then
    echo "the GLES run did not get an OpenGL ES 3.0 context" >&2
    exit 1
fi
if ! grep -q "PASSED  \] $expected test" build/gles3_test.log; then
    echo "the GLES run did not pass its $expected tests" >&2
    exit 1
fi
# Without EXT_color_buffer_float (Mesa leaves it out of the extension
# string when told to hide it): a particle system is refused, by name.
MESA_EXTENSION_OVERRIDE=-GL_EXT_color_buffer_float ./build/"$config"/bin/plume_tests \
    "test_gles_particles_need_float_targets" > build/gles3_no_float_test.log 2>&1 || status=$?
cat build/gles3_no_float_test.log
if ! grep -q "EXT_color_buffer_float: no" build/gles3_no_float_test.log; then
    echo "the GLES run without EXT_color_buffer_float still had it" >&2
    exit 1
fi
exit "$status"
