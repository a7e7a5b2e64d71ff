#!/bin/sh
# The world's figures on the GPU machine (issue 17): plume_frame_bench at
# 1 M particles with the world off and on in the same process (--world both),
# three times, printing one table: simulate off, simulate on, their ratio
# (the target: on within 1.5x of off), sort and draw, and the events the
# last frame consumed; then the order-sensitive tests three times through
# both suites, then both test suites in full on the NVIDIA driver (static and
# through the dlopen'd plugin; the world's tests are tests/world/ and the
# hostile host). The benchmark comes first so that a time limit cuts the
# suites, not the figures. Build here first (make -C build config=release)
# and carry build/release, demo/assets, demo/effects and .gl; on the GPU
# machine:
#     . .gl/prelude.sh; sh tools/gpu_world.sh "$OUT"
# PLUME_WORLD_BENCH_FLAGS adds frame-bench options (e.g. --path tiled, which
# keeps the draw short: simulate is what is compared). Logs and CSVs go to
# the folder given ($OUT), the table to stdout.
set -u
out=${1:-/tmp/plume-world}
bin=${PLUME_BIN:-./build/release/bin}
counts=${PLUME_WORLD_COUNTS:-1048576}
runs=${PLUME_WORLD_RUNS:-3}
flags=${PLUME_WORLD_BENCH_FLAGS:-}
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s] $1"; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader

r=1
while [ "$r" -le "$runs" ]; do
    # shellcheck disable=SC2086 # the flags are words
    "$bin/plume_frame_bench" --counts "$counts" --world both --frames 300 --warmup 60 $flags \
        --csv "$out/world_bench_$r.csv" > "$out/world_bench_$r.txt" 2>&1
    elapsed "frame bench run $r exit $?"
    r=$((r + 1))
done
head -3 "$out/world_bench_1.txt"
echo
echo "median GPU ms per frame (300 frames after 60 warm-up), world off and on in the same run"
printf '%4s %9s %9s %9s %7s %9s %9s %9s %9s %9s\n' run particles "sim off" "sim on" ratio "sort off" "sort on" "draw on" events dropped
r=1
while [ "$r" -le "$runs" ]; do
    # Columns by their header names (plume_frame_bench's CSV grows).
    awk -F, -v run="$r" '
        NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
        $col["world"] == 0 { sim_off[$1] = $col["simulate_ms"]; sort_off[$1] = $col["sort_ms"] }
        $col["world"] == 1 { sim = $col["simulate_ms"]
                             printf "%4d %9d %9.4f %9.4f %6.2fx %9.4f %9.4f %9.4f %9d %9d\n", run, $1, sim_off[$1], sim,
                                    sim / sim_off[$1], sort_off[$1], $col["sort_ms"], $col["draw_ms"],
                                    $col["event_children"], $col["event_dropped"] }' \
        "$out/world_bench_$r.csv"
    r=$((r + 1))
done

# The order-sensitive tests, three times through each suite: children
# numbered by parent slot, overflow, same seed same particles (ties in draw
# order included), equal depths in slot order.
repeat=1
for pattern in "*events_are_deterministic*" "*death_spawns*" "*overflow_is_counted*" "*collisions_and_other*" \
               "*same_seed*" "*equal_depths*"; do
    for suite in plume_tests plume_plugin_host; do
        r=1
        while [ "$r" -le 3 ]; do
            "$bin/$suite" "$pattern" >> "$out/repeat.log" 2>&1 || { repeat=0; echo "FAILED: $suite $pattern (run $r)"; }
            r=$((r + 1))
        done
    done
done
elapsed "order-sensitive tests x3 in both suites: $([ $repeat = 1 ] && echo all passed || echo FAILURES)"
grep -E "particles, .* children|parents x|children of" "$out/repeat.log" | sort | uniq -c | head -12

"$bin/plume_tests" > "$out/tests.log" 2>&1; elapsed "tests exit $?"
grep -E "^GL:|seed|PASSED|FAILED|ERROR" "$out/tests.log" | head -20
"$bin/plume_plugin_host" > "$out/plugin_tests.log" 2>&1; elapsed "plugin tests exit $?"
grep -E "PASSED|FAILED|ERROR" "$out/plugin_tests.log" | head -20
grep -E "resting on the box|orbits|splashes|children|steps checked|Coulomb" "$out/tests.log" | head -20
