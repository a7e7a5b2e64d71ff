#!/bin/sh
# The fragment path in a real GL 3.3 core context: Mesa's llvmpipe made to
# answer 3.3 (GLSL 3.30) with the 4.x extensions it can hide hidden:
# compute shaders, storage buffers, image load/store, atomic counters,
# indexed blending, indirect draws, query buffers, copy image, texture views,
# gpu_shader5, ES3 compatibility and more. libepoxy aborts the process when
# code calls a function that neither GL 3.3 nor an exposed extension provides,
# and the tests fail on any GL error, so a pass here is proof that the path
# calls nothing that was hidden. (Mesa cannot hide a few extensions:
# separate_shader_objects, direct_state_access, texture_storage, multi_bind,
# program_interface_query, vertex_attrib_binding, invalidate_subdata,
# KHR_debug; the fragment path's files call none of their functions, which
# grep checks below.)
# The suites' tests that hold on this path run, and the fragment path's own;
# the rest test the compute path (its buffers, blocks, dispatch counts) or
# what this path reports differently (profile counts, full systems).
# Usage: sh tests/run_gl33.sh CONFIG (debug, release, sanitize).
set -eu
cd "$(dirname "$0")/.."
config=${1:-debug}
export MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330 PLUME_TEST_GL=3.3
export MESA_EXTENSION_OVERRIDE="-GL_ARB_compute_shader -GL_ARB_shader_storage_buffer_object \
-GL_ARB_shader_image_load_store -GL_ARB_shader_atomic_counters -GL_ARB_shader_atomic_counter_ops \
-GL_ARB_draw_buffers_blend -GL_AMD_draw_buffers_blend -GL_ARB_draw_indirect -GL_ARB_multi_draw_indirect \
-GL_AMD_multi_draw_indirect -GL_ARB_query_buffer_object -GL_AMD_query_buffer_object -GL_ARB_buffer_storage \
-GL_ARB_clear_texture -GL_ARB_copy_image -GL_NV_copy_image -GL_ARB_texture_view -GL_ARB_gpu_shader5 \
-GL_ARB_ES3_compatibility -GL_ARB_explicit_uniform_location -GL_ARB_shader_image_size \
-GL_ARB_transform_feedback2 -GL_ARB_transform_feedback3"

# The fragment path's C files call no function of the extensions Mesa
# cannot hide, nor any GL 4.x function outside a version check.
fragment_files="plugin/sort/fragment_sort.c plugin/sort/feedback_sort.c plugin/sort/feedback_sort_resources.c plugin/particles/fragment_update.c plugin/render/fragment_draw.c plugin/render/particle_uniforms.c"
if grep -nE 'glProgramUniform|glTexStorage|glCreate(Textures|Buffers|Framebuffers|VertexArrays|Samplers)|glNamed|glTexture[A-Z]|glBind(Buffers|Textures|Samplers|ImageTextures)|glInvalidate|glDispatch|glMemoryBarrier|glBindImageTexture|glCopyImageSubData|glTexBufferRange' $fragment_files; then
    echo "the fragment path calls a function above GL 3.3 core (above)" >&2
    exit 1
fi

# One process (one context): the fragment path's own tests and those of the
# sort and particle suites that hold on it (the sort's sizes 0, 1, 2, 2^k+-1
# and random up to 2^20, adversarial keys, indirect and bounded counts,
# poisoned tails against qsort; emission counts, slots, positions
# against the closed form, back-to-front order, the image against the CPU
# compositor, soft fade, flipbook, determinism, culling, bad input, the GL
# state, GL objects, the refusal of what needs compute; the look: blend
# modes, orientations and lighting against the CPU compositor, the sort
# modes' orders, unsorted lists round the ring). The rest test the
# compute path (its buffers, blocks, dispatch counts) or what this path
# reports differently (profile counts, full systems). Small sizes: tests/run_gl33.sh is part of the CI's time.
tests="test_buffer_sorts_on_the_fragment_path,test_texture_sort_matches_qsort,test_texture_sort_adversarial_keys,\
test_passes_follow_the_count,test_render_pass_sort,test_fragment_sorts_inside_a_hostile_host,\
bitonic: test_sizes_around_the_block_boundary,bitonic: test_adversarial_key_distributions,\
bitonic: test_random_sizes_up_to_2_pow_20,bitonic: test_levels_taller_than_two_passes,\
bitonic: test_every_block_size,bitonic: test_float_depth_keys,\
test_bad_input_is_refused,test_host_gl_state_is_restored,test_emission_counts_and_lifetimes,\
test_positions_match_closed_form,test_draw_list_is_back_to_front,test_same_seed_same_particles_and_reset_restarts,\
test_image_matches_cpu_compositing_and_needs_the_sort,test_soft_particles_fade_against_scene_depth,test_soft_particles_fade_against_reversed_scene_depth,\
test_flipbook_frames_by_age_with_blending,test_culling_leaves_the_picture_unchanged,test_path_is_chosen_and_reported,\
test_full_ring_replaces_the_oldest,test_calls_restore_gl_state_and_free_everything,\
test_world_is_refused_by_name,test_tiled_draw_path_falls_back_once,test_radix_algorithm_is_refused,\
test_every_look_accepted_and_a_draw_group_refused,test_unsorted_list_is_ascending_slots_round_the_ring,\
test_blend_modes_match_the_cpu_compositor_on_every_path,test_orientations_match_the_cpu_compositor,\
test_lighting_matches_the_cpu_compositor,test_sort_modes_give_their_total_order,\
test_sort_key_bits_set_the_depth_resolution,test_prewarm_on_the_fragment_path,test_host_texture_on_the_fragment_path,\
test_halfway_frames_match_the_cpu_blend,test_minified_motion_is_read_at_the_sprites_level"
status=0
./build/"$config"/bin/plume_tests "$tests" > build/gl33_test.log 2>&1 || status=$?
cat build/gl33_test.log
if ! grep -q "3.3 (Core Profile)" build/gl33_test.log; then
    echo "the GL 3.3 run did not get a 3.3 core context" >&2
    exit 1
fi

# A 3.3 context with ARB_draw_buffers_blend, as NVIDIA's are: blend
# functions per draw buffer, so the draw sets buffer 0's and the scope
# restores buffer 0's (the draw once set every buffer's there, and the
# host's next update blended the simulate pass's targets: found on the H100).
# The tests that draw, or take the host's blending, with it exposed.
export MESA_EXTENSION_OVERRIDE="$(echo "$MESA_EXTENSION_OVERRIDE" | sed 's/-GL_ARB_draw_buffers_blend -GL_AMD_draw_buffers_blend //')"
blend_tests="test_full_ring_replaces_the_oldest,test_flipbook_frames_by_age_with_blending,\
test_image_matches_cpu_compositing_and_needs_the_sort,test_calls_restore_gl_state_and_free_everything"
./build/"$config"/bin/plume_tests "$blend_tests" > build/gl33_blend_test.log 2>&1 || status=$?
cat build/gl33_blend_test.log
exit "$status"
