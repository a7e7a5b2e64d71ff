#!/bin/sh
# The tiled compositor's knobs timed in one run, in steady state: the frame
# benchmark (built already: this script builds nothing) for the baseline,
# each knob alone and the best combination, at 64 K and 1 M particles, full
# and 1/2 resolution, 1280x720; then the baseline and the best combination
# at 1920x1080 and 3840x2160 with entries and blended pixels per ms of draw.
# One table of median draw GPU ms with ratios to the baseline (below 1:
# faster). Every run measures from the steady state on (plume_frame_bench's
# default --warmup steady: live count and coverage no longer growing); a
# row measured before it is marked "NOT steady".
#
# The knobs (lab/plume_lab.h, never in the shipped library): the tile size
# (16, 32; default 8), the chunk a hot tile's run is split into across
# workgroups (256, 1024; default 512), the entry sort (bitonic, radix;
# default picked by the count), the opacity cull (--min-alpha 1/255: a
# particle under it touches no tile), the composite's batch of splats (64,
# 128; default one per pixel of a tile, at most 256), the tight bounds of
# the sprite's alpha footprint (0.42 of the --smoke sprite's quad,
# FRAME_BENCH_SPRITE_FOOTPRINT; default its whole quad), the blend and
# upsample over every tile (--cover-every-tile: the full-screen pass as it
# was; default only the tiles with particles, and at 1/2 their
# neighbours), a splat listed in every tile of its pixels' box
# (--box-tiles: the binning as it was; default only the tiles it may show
# in), a batch of whole splats (--whole-splat-batch: the batch as it was;
# default each splat's map and rank). (The quadrant lists of tiles larger
# than 8, --whole-tile-lists their baseline, are timed at tiles of 16 by
# tools/gpu_wave3.sh binning.)
# The best combination takes, of each knob, its best
# value where that beat the baseline by over 1 % (geometric mean of the four
# cases' ratios).
#
# usage: sh bench/compositor_knobs.sh [CONFIG]   (default release)
#   FRAMES (default 200): measured frames; MAX_WARMUP (default 600): frames
#   at most before the steady state; OUT (default a new temporary folder):
#   where the CSVs and logs go.
# About 6 minutes on an H100 or H200 (each count at most MAX_WARMUP +
# FRAMES frames a run: 24 runs at 1280x720, 8 at the larger sizes).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=${1:-release}
bin="$root/build/$CONFIG/bin/plume_frame_bench"
[ -x "$bin" ] || { echo "no $bin: build it first (make -C build config=$CONFIG)"; exit 1; }
FRAMES=${FRAMES:-200}
MAX_WARMUP=${MAX_WARMUP:-600}
OUT=${OUT:-$(mktemp -d)}
# For a try on a slow GL: COUNTS (two, default 65536,1048576), SIZE (the
# knobs' table's, default 1280x720), SIZES (the rates', default 1280x720
# 1920x1080 3840x2160).
COUNTS=${COUNTS:-65536,1048576}
SIZE=${SIZE:-1280x720}
SIZES=${SIZES:-1280x720 1920x1080 3840x2160}
SMALL=${COUNTS%,*}
# The benchmark's scene: by default puffs emitted, fading in and out, lit
# (plume_frame_bench --smoke --lit: the demo's smoke's kind); "" for its
# ball of opaque particles that never die.
SCENE=${SCENE---smoke --lit}
mkdir -p "$OUT"

# name|flags: the baseline, then one knob value alone per line; a knob's
# group is its name up to the ':'.
KNOBS='baseline|
tile:16|--tile 16
tile:32|--tile 32
chunk:256|--chunk 256
chunk:1024|--chunk 1024
sort:bitonic|--entry-sort bitonic
sort:radix|--entry-sort radix
cull:1/255|--min-alpha 0.00392157
bounds:sprite|--footprint 0.42
batch:64|--batch 64
batch:128|--batch 128
batch:whole|--whole-splat-batch
cover:every|--cover-every-tile
box:every|--box-tiles'

csv_of() { echo "$OUT/$(echo "$1" | tr ':/' '__')-$2-$3.csv"; }

# run NAME SIZE RESOLUTION FLAGS...: one benchmark run of both counts.
run() {
    name=$1 size=$2 resolution=$3
    shift 3
    csv=$(csv_of "$name" "$size" "$resolution")
    # shellcheck disable=SC2086
    "$bin" --path tiled $SCENE --counts "$COUNTS" --size "$size" --resolution "$resolution" --frames "$FRAMES" \
        --max-warmup "$MAX_WARMUP" --csv "$csv" "$@" > "$csv.log" 2>&1 ||
        { echo "FAILED: $name $size $resolution $* (log $csv.log):"; tail -5 "$csv.log"; }
}

# A CSV's rows as "count draw_ms steady entries_per_ms pixels_per_ms".
rows() {
    [ -f "$1" ] || return 0
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
             { print $col["count"], $col["draw_ms"], $col["steady"], $col["entries_per_draw_ms"],
                     $col["blended_pixels_per_draw_ms"] }' "$1"
}

# Lines "name|flags|resolution|count|draw_ms|steady" of every $SIZE run named in $1 (name|flags lines).
collect() {
    echo "$1" | while IFS='|' read -r name flags; do
        for resolution in full half; do
            rows "$(csv_of "$name" "$SIZE" "$resolution")" |
                awk -v n="$name" -v f="$flags" -v r="$resolution" '{ print n "|" f "|" r "|" $1 "|" $2 "|" $3 }'
        done
    done
}

start=$(date +%s)
echo "$KNOBS" | while IFS='|' read -r name flags; do
    # shellcheck disable=SC2086
    for resolution in full half; do run "$name" "$SIZE" "$resolution" $flags; done
done
# The best value of each knob that paid, from the runs alone.
best=$(collect "$KNOBS" | awk -F'|' '
    { key = $1; flags[key] = $2; c = $4 " " $3; ms[key, c] = $5; cases[c] = 1; if (!(key in seen)) { seen[key]; order[++n] = key } }
    END {
        for (k = 1; k <= n; ++k) {
            key = order[k]; if (key == "baseline") continue
            logsum = 0; m = 0
            for (c in cases) if (ms[key, c] > 0 && ms["baseline", c] > 0) { logsum += log(ms[key, c] / ms["baseline", c]); ++m }
            if (m == 0) continue
            mean = exp(logsum / m); g = key; sub(/:.*/, "", g)
            if (mean < 0.99 && (!(g in bestmean) || mean < bestmean[g])) { bestmean[g] = mean; pick[g] = flags[key] }
        }
        for (g in pick) printf " %s", pick[g]
    }')
best=$(echo "$best" | sed 's/^ *//')
if [ -n "$best" ]; then
    # shellcheck disable=SC2086
    for resolution in full half; do run best "$SIZE" "$resolution" $best; done
fi
ALL="$KNOBS
best|$best"

echo
echo "Tiled draw, median GPU ms in steady state, $SIZE, small = ${COUNTS%,*} and large = ${COUNTS#*,} particles:"
echo "$FRAMES frames after each run's steady state"
echo "(ratio to the baseline: below 1.00x is faster; geomean over the four cases)"
grep -h '^GL:' "$(csv_of baseline "$SIZE" full).log" | head -1
echo "scene: plume_frame_bench ${SCENE:-(its ball)}"
collect "$ALL" | awk -F'|' -v small="$SMALL" '
    { key = $1; if (!(key in seen)) { seen[key]; order[++n] = key; flags[key] = $2 }
      c = ($4 == small ? "small" : "large") " " ($3 == "full" ? "full" : "1/2"); ms[key, c] = $5
      if ($6 != 1) unsteady[key] = 1 }
    END {
        split("small full|small 1/2|large full|large 1/2", cs, "|")
        printf "%-13s", "knob"; for (i = 1; i <= 4; ++i) printf " %16s", cs[i]; printf " %8s  %s\n", "geomean", "flags"
        for (k = 1; k <= n; ++k) {
            key = order[k]; logsum = 0; m = 0
            printf "%-13s", key
            for (i = 1; i <= 4; ++i) {
                b = ms["baseline", cs[i]]; v = ms[key, cs[i]]
                if (v > 0 && b > 0) { printf " %7.3f (%5.2fx)", v, v / b; logsum += log(v / b); ++m }
                else printf " %16s", "-"
            }
            printf " %7.3fx  %s%s\n", m ? exp(logsum / m) : 0, flags[key], unsteady[key] ? "  NOT steady" : ""
        }
    }'
echo "best combination: ${best:-none of the knobs beat the baseline by 1 %}"

echo
echo "Entries and blended pixels (the quads' area) per ms of draw, steady state"
printf "%-10s %-9s %-8s %-4s %9s %12s %13s\n" size variant count res "draw ms" "M entries/ms" "M pixels/ms"
for size in $SIZES; do
    for variant in baseline ${best:+best}; do
        flags=""
        [ "$variant" = best ] && flags=$best
        for resolution in full half; do
            csv=$(csv_of "$variant" "$size" "$resolution")
            # shellcheck disable=SC2086
            [ -f "$csv" ] || run "$variant" "$size" "$resolution" $flags
            rows "$csv" | awk -v s="$size" -v v="$variant" -v r="$resolution" '
                { printf "%-10s %-9s %-8s %-4s %9.3f %12.4g %13.4g %s\n", s, v, $1,
                  (r == "full" ? "full" : "1/2"), $2, $4 / 1e6, $5 / 1e6, ($3 == 1 ? "" : "NOT steady") }'
        done
    done
done
echo
echo "$(($(date +%s) - start)) s; CSVs and logs in $OUT"
