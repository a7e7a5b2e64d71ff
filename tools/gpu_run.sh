#!/bin/sh
# One call on the GPU machine (see ../shared/DESIGN.md): correctness on the
# NVIDIA driver, then the sort benchmark with several variants. Build here
# first (make -C build config=release), carry build/release and .gl:
#     . .gl/prelude.sh; sh tools/gpu_run.sh "$OUT"
set -u
out=${1:-/tmp/plume-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
./build/release/bin/plume_tests > "$out/tests.log" 2>&1; echo "tests exit $?"; grep -E "^GL:|seed|PASSED|FAILED" "$out/tests.log"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -lms 200 > "$out/clocks.csv" 2>&1 &
clock_sampler=$!
./build/release/bin/plume_bench --runs 51 --warmup 10 --csv "$out/sort_bench.csv" \
    ${PLUME_BENCH_VARIANTS:---variant 0:0} ${PLUME_BENCH_ARGS:-} > "$out/sort_bench.txt" 2>&1
echo "bench exit $?"
kill $clock_sampler 2>/dev/null
echo "SM clock during the benchmark (MHz): $(awk -F', ' 'NR>1 {print $2}' "$out/clocks.csv" | sort -n | uniq -c | sort -rn | head -4 | tr '\n' ' ')"
grep -E "^GL:|seed|runs per|correct|WRONG" "$out/sort_bench.txt" | head
python3 tools/summarize_bench.py "$out/sort_bench.csv"
