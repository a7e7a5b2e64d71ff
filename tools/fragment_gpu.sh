#!/bin/sh
# The GPU machine's call for the fragment path (notes/fragment-path.md), in
# one process each, most important first (a time limit cuts the suites, not
# the figures):
#   1. the GL 3.3 suite (tests/run_gl33.sh's list in a 3.3 core context,
#      the fixtures on the fragment path: Mesa's overrides mean nothing to
#      NVIDIA);
#   2. the graphics pipe's floor (plume_dispatch_floor --graphics: dependent
#      transform-feedback, fragment and compute passes, 2^12 .. 2^20);
#   3. the sort table, 2^12 .. 2^20: seed 001, the compute bitonic sort, the
#      render-pass sort (k = 2) and the transform-feedback sort with groups
#      of 2^5: the merge sort, and the bitonic network as its baseline
#      (--feedback-bitonic), as buffer and texture sorts; every result
#      checked against qsort;
#   4. the 64 K demo frame on the compute path and with --gl 3.3;
#   5. the full suite (a GL 4.6 context: both paths), where time is left
#      (PLUME_SUITE_SECONDS, 0: not run).
# Builds nothing: run from a folder holding build/release/bin, demo/assets
# and tests/run_gl33.sh:
#     sh tools/fragment_gpu.sh "$OUT"
set -u
out=${1:-/tmp/plume-fragment-gpu}
mkdir -p "$out"
bin=./build/release/bin
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s] $1"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader

eval "$(sed -n '/^tests="/,/[^\\]"$/p' tests/run_gl33.sh)"
PLUME_TEST_GL=3.3 PLUME_TEST_PATH=fragment timeout 40 $bin/plume_tests "$tests" > "$out/gl33_tests.log" 2>&1
elapsed "GL 3.3 suite exit $?"
grep -E "^GL:|PASSED|FAILED|ERROR" "$out/gl33_tests.log" | head -12

timeout 30 $bin/plume_dispatch_floor --graphics > "$out/graphics_floor.txt" 2>&1
elapsed "graphics floor exit $?"
cat "$out/graphics_floor.txt"

# Line-buffered: a time limit keeps the rows already printed.
timeout ${PLUME_BENCH_SECONDS:-100} stdbuf -oL $bin/plume_bench --min-log 12 --max-log 20 --powers-only --runs 11 --warmup 2 \
    --variant bitonic --methods direct --fragment 2 --feedback 5 --feedback-bitonic \
    --csv "$out/fragment_sort_bench.csv" > "$out/fragment_sort_bench.txt" 2>&1
elapsed "bench exit $?"
grep -E "^GL|seed001|^ +[0-9]+ bitonic |texture|correct|WRONG" "$out/fragment_sort_bench.txt" | tail -90

for path in compute gl33; do
    flag=""; [ "$path" = gl33 ] && flag="--gl 3.3"
    # shellcheck disable=SC2086 # the flag is two words
    timeout 20 $bin/plume_demo --offscreen --particles 64K --frames 180 $flag --out "/tmp/demo_$path.png" \
        --profile "$out/demo_$path.csv" > "$out/demo_$path.txt" 2>&1
    elapsed "demo $path exit $?"
    grep -vE "^wrote" "$out/demo_$path.txt" | tail -5
done

if [ "${PLUME_SUITE_SECONDS:-0}" -gt 0 ]; then
    timeout "$PLUME_SUITE_SECONDS" $bin/plume_tests > "$out/tests.log" 2>&1
    elapsed "full suite exit $?"
    grep -E "^GL:|PASSED|FAILED|ERROR|run\." "$out/tests.log" | head -16
fi
