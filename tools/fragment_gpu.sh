#!/bin/sh
# The GPU machine's call for the fragment path (notes/fragment-path.md): the
# sort table with every sort in one process (seed 001, the compute bitonic,
# the render-pass sort's k = 1 and 2, the transform-feedback sort's m = 1..5
# as buffer and texture sorts), the 64 K demo frame on the compute path and
# with --gl 3.3, then the fragment path's tests on the NVIDIA driver. Builds
# nothing: run from a folder holding build/release/bin and demo/assets.
#     sh tools/fragment_gpu.sh "$OUT"
set -u
out=${1:-/tmp/plume-fragment-gpu}
mkdir -p "$out"
bin=./build/release/bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 110 $bin/plume_bench --min-log 12 --max-log 20 --powers-only --runs 11 --warmup 2 --variant bitonic \
    --methods direct --fragment 1 --fragment 2 --feedback 1 --feedback 2 --feedback 3 --feedback 4 --feedback 5 \
    --csv "$out/fragment_sort_bench.csv" > "$out/fragment_sort_bench.txt" 2>&1
echo "bench exit $?"
cat "$out/fragment_sort_bench.txt"
for path in compute gl33; do
    flag=""; [ "$path" = gl33 ] && flag="--gl 3.3"
    timeout 30 $bin/plume_demo --offscreen --particles 64K --frames 180 $flag --out "$out/demo_$path.png" \
        --profile "$out/demo_$path.csv" > "$out/demo_$path.txt" 2>&1
    echo "demo $path exit $?"
    cat "$out/demo_$path.txt"
done
tests="test_buffer_sorts_on_the_fragment_path,test_texture_sort_*,test_passes_follow_the_count,test_render_pass_sort,\
test_fragment_sorts_inside_a_hostile_host,test_every_call_inside_a_hostile_host,bitonic: test_sizes_around_the_block_boundary,\
bitonic: test_adversarial_key_distributions,bitonic: test_random_sizes_up_to_2_pow_20,bitonic: test_every_block_size,\
test_emission_counts_and_lifetimes,test_draw_list_is_back_to_front,test_image_matches_cpu_compositing_and_needs_the_sort,\
test_calls_restore_gl_state_and_free_everything,test_same_particles_as_the_compute_path,test_full_ring_replaces_the_oldest"
PLUME_TEST_PATH=fragment timeout 45 $bin/plume_tests "$tests" > "$out/fragment_tests.log" 2>&1
echo "fragment-path tests exit $?"
grep -E "^GL:|seed|PASSED|FAILED|ERROR" "$out/fragment_tests.log"
