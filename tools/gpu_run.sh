#!/bin/sh
# One call on the GPU machine (see ../shared/DESIGN.md): correctness on the
# NVIDIA driver (both suites: static, and through the dlopen'd plugin), then
# the sort benchmark (bitonic, radix and automatic unless
# PLUME_BENCH_VARIANTS says others), CUB's sort where nvcc exists, the frame
# benchmark and the dispatch floor. Build here
# first (make -C build config=release), carry build/release and .gl:
#     . .gl/prelude.sh; sh tools/gpu_run.sh "$OUT"
set -u
out=${1:-/tmp/plume-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
./build/release/bin/plume_tests > "$out/tests.log" 2>&1; echo "tests exit $?"; grep -E "^GL:|seed|PASSED|FAILED" "$out/tests.log"
./build/release/bin/plume_plugin_host > "$out/plugin_tests.log" 2>&1; echo "plugin tests exit $?"; grep -E "PASSED|FAILED" "$out/plugin_tests.log"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -lms 200 > "$out/clocks.csv" 2>&1 &
clock_sampler=$!
./build/release/bin/plume_bench --runs 51 --warmup 10 --csv "$out/sort_bench.csv" \
    ${PLUME_BENCH_VARIANTS:-} ${PLUME_BENCH_ARGS:-} > "$out/sort_bench.txt" 2>&1
echo "bench exit $?"
kill $clock_sampler 2>/dev/null
echo "SM clock during the benchmark (MHz): $(awk -F', ' 'NR>1 {print $2}' "$out/clocks.csv" | sort -n | uniq -c | sort -rn | head -4 | tr '\n' ' ')"
grep -E "^GL:|seed|runs per|correct|WRONG" "$out/sort_bench.txt" | head
python3 tools/summarize_bench.py "$out/sort_bench.csv"
sh bench/cub_sort.sh --out /tmp/plume-cub --csv "$out/cub_sort.csv" > "$out/cub_sort.txt" 2>&1
echo "CUB exit $?"
cat "$out/cub_sort.txt"
./build/release/bin/plume_frame_bench --csv "$out/frame_bench.csv" --frames-csv "$out/frames.csv" > "$out/frame_bench.txt" 2>&1
echo "frame bench exit $?"
cat "$out/frame_bench.txt"
./build/release/bin/plume_dispatch_floor > "$out/dispatch_floor.txt" 2>&1
echo "dispatch floor exit $?"
cat "$out/dispatch_floor.txt"
