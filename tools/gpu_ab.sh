#!/bin/sh
# A/B of two builds on the GPU machine: the sort and frame benchmarks of each,
# interleaved over ROUNDS rounds in one call so that both see the same clocks.
# Build both here (e.g. a worktree of the base commit), carry both binary
# folders and .gl:
#     . .gl/prelude.sh; sh tools/gpu_ab.sh BASE_BIN NEW_BIN "$OUT" [ROUNDS]
# Writes OUT/{base,new}_{sort,frame}_ROUND.{txt,csv}; prints the median-ms
# tables side by side (tools/summarize_ab.py).
set -u
base=$1
new=$2
out=${3:-/tmp/plume-ab}
rounds=${4:-2}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
r=1
while [ "$r" -le "$rounds" ]; do
    for build in base new; do
        eval dir=\$$build
        "$dir/plume_bench" --runs 51 --warmup 10 --csv "$out/${build}_sort_$r.csv" > "$out/${build}_sort_$r.txt" 2>&1
        echo "$build sort round $r exit $?"
        "$dir/plume_frame_bench" --csv "$out/${build}_frame_$r.csv" > "$out/${build}_frame_$r.txt" 2>&1
        echo "$build frame round $r exit $?"
    done
    r=$((r + 1))
done
python3 "$(dirname "$0")/summarize_ab.py" "$out" "$rounds"
