#!/bin/sh
# The draw paths on the GPU machine in one call (notes/draw-at-scale.md):
# correctness on the NVIDIA driver, then the smoke demo and the frame
# benchmark per draw path (raster, tiled) and resolution (full, half,
# quarter) at 64 K, 256 K and 1 M particles, printed as one table. Build here
# (make -C build config=release), copy build/release/{bin,lib}, demo/assets
# and this script into a folder carried to the machine, then there:
#     . .gl/prelude.sh; cd <folder>; sh tools/draw_paths_gpu.sh "$OUT" [probe|table]
# probe: a quick look (the tiled path's tests, the 1 M demo tiled, the tile
# sizes in the benchmark); table: everything.
set -u
out=${1:-/tmp/plume-gpu}
mode=${2:-table}
mkdir -p "$out"
bin=./build/release/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# One demo run: its medians as a row "count path resolution frames live update draw total entries overflow".
demo_row() { # particles path resolution frames
    log="$out/demo_$1_$2_$3_$4.txt"
    timeout 120 $bin/plume_demo --offscreen --particles "$1" --path "$2" --resolution "$3" --frames "$4" \
        --out "$out/demo_$1_$2_$3_$4.png" > "$log" 2>&1
    awk -v n="$1" -v p="$2" -v r="$3" -v f="$4" '
        /particles:/ { live = $4 }
        /GPU per frame/ { for (i = 1; i <= NF; ++i) { if ($i == "draw") draw = $(i + 1); if ($i == "update") update = $(i + 1) } }
        /tiled path:/ { entries = $3; overflow = $14 }
        END { printf "demo  %5s %-6s %-7s %4s %8s %8.3f %8.3f %8.3f %10s %4s\n", n, p, r, f, live, update, draw,
              update + draw, entries == "" ? "-" : entries, overflow == "" ? "-" : overflow }' "$log"
}

bench_rows() { # label, then plume_frame_bench's options
    label=$1; shift
    log="$out/bench_$(echo "$label" | tr ' /' '__').txt"
    timeout 120 $bin/plume_frame_bench "$@" > "$log" 2>&1
    awk -v l="$label" '$1 ~ /^[0-9]+$/ && NF >= 13 {
        printf "bench %-28s %8s sim+sort %8s draw %8s total %8.3f entries %10s overflow %s order %s\n", l, $1, $5,
               $7, $5 + $7, $12, $13, $10 }' "$log"
}

if [ "$mode" = probe ]; then
    timeout 120 $bin/plume_tests "*tiled*" > "$out/tests_tiled.log" 2>&1; echo "tiled tests exit $?"
    grep -E "^GL:|seed|differ|PSNR|covered|budget|PASSED|FAILED|ERROR" "$out/tests_tiled.log"
    timeout 60 $bin/plume_tests "*host*" > "$out/tests_host.log" 2>&1; echo "host state tests exit $?"
    grep -E "PASSED|FAILED" "$out/tests_host.log"
    echo "      count path   res     frames   live   update     draw    total    entries overflow"
    demo_row 1M tiled full 600
    demo_row 1M tiled quarter 600
    demo_row 64K tiled full 240
    for t in 8 16 32; do
        bench_rows "tiled full tile $t" --counts 1048576 --frames 100 --warmup 30 --path tiled --tile $t
        bench_rows "tiled quarter tile $t" --counts 1048576 --frames 100 --warmup 30 --path tiled --resolution quarter --tile $t
    done
    bench_rows "raster full" --counts 1048576 --frames 100 --warmup 30
    exit 0
fi

$bin/plume_tests > "$out/tests.log" 2>&1; echo "tests exit $?"; grep -E "^GL:|seed|PASSED|FAILED" "$out/tests.log"
$bin/plume_plugin_host > "$out/plugin_tests.log" 2>&1; echo "plugin tests exit $?"; grep -E "PASSED|FAILED" "$out/plugin_tests.log"
echo "      count path   res     frames   live   update     draw    total    entries overflow"
for n in 64K 256K 1M; do
    frames=240
    [ "$n" = 1M ] && frames=600
    for p in raster tiled; do
        for r in full half quarter; do demo_row $n $p $r $frames; done
    done
done
demo_row 1M tiled quarter 240
for p in raster tiled; do
    for r in full half quarter; do
        bench_rows "$p $r" --counts 65536,262144,1048576 --path $p --resolution $r ${PLUME_BENCH_TILE:-}
    done
done
bench_rows "tiled full look-away" --counts 1048576 --path tiled --look-away
bench_rows "tiled quarter look-away" --counts 1048576 --path tiled --resolution quarter --look-away
