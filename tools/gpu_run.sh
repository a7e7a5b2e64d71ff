#!/bin/sh
# One call on the GPU machine (see ../shared/DESIGN.md): correctness on the
# NVIDIA driver, then the sort benchmark with several variants. Build here
# first (make -C build config=release), carry build and .gl:
#     . .gl/prelude.sh; sh tools/gpu_run.sh "$OUT"
set -u
out=${1:-/tmp/plume-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
./build/bin/plume_tests > "$out/tests.log" 2>&1; echo "tests exit $?"; grep -E "^GL:|seed|PASSED|FAILED" "$out/tests.log"
./build/bin/plume_bench --runs 51 --warmup 10 --csv "$out/sort_bench.csv" \
    --variant 0:0 --variant 0:3 --variant 0:5 --variant 2048:4 --variant 1024:4 > "$out/sort_bench.txt" 2>&1
echo "bench exit $?"
grep -E "^GL:|seed|runs per|correct|WRONG" "$out/sort_bench.txt" | head
