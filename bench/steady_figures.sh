#!/bin/sh
# The README's steady-state figures: the demo run offscreen, lit as shipped,
# its GPU medians over the frames from its steady state on (the demo waits
# for the smoke's live count and coverage to stop growing, at most half the
# run: host/steady_state.h), one markdown row per case. Builds nothing.
# usage: sh bench/steady_figures.sh [CONFIG]   (default release)
#   FRAMES (default 3000: 50 s of smoke, the steady state within its first
#   half), SIZES (default 1280x720 1920x1080 3840x2160: the first also gets
#   the 64 K raster row, today's default's).
# About 7 minutes on an H100 or H200.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=${1:-release}
demo="$root/build/$CONFIG/bin/plume_demo"
[ -x "$demo" ] || { echo "no $demo: build it first (make -C build config=$CONFIG)"; exit 1; }
FRAMES=${FRAMES:-3000}
SIZES=${SIZES:-1280x720 1920x1080 3840x2160}
first=${SIZES%% *}

# row SIZE PARTICLES PATH RESOLUTION: one demo run as a table row.
row() {
    out=$("$demo" --offscreen --size "$1" --particles "$2" --path "$3" --resolution "$4" --frames "$FRAMES" 2>&1) ||
        { echo "| $1 | $2 $3 $4 | failed | | |"; return 0; }
    echo "$out" | awk -v label="$1 | $2 $3 $4" '
        /^GPU per frame/ {
            steady = ($0 ~ /NOT steady/) ? "NOT steady" : "steady"
            match($0, /steady state from frame [0-9]+/); if (RSTART) steady = substr($0, RSTART + 13, RLENGTH - 13)
            match($0, /draw [0-9.]+ ms/); draw = substr($0, RSTART + 5, RLENGTH - 8)
            match($0, /update [0-9.]+ ms/); update = substr($0, RSTART + 7, RLENGTH - 10)
            printf "| %s | **%s** | %s | %s |\n", label, draw, update, steady }'
}

echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); commit $(git -C "$root" rev-parse --short HEAD); $FRAMES frames a row"
echo
echo "| size | demo | draw (steady) | update | steady from |"
echo "|---|---|---:|---:|---|"
for size in $SIZES; do
    for particles in 64K 1M; do
        for resolution in full half; do row "$size" "$particles" tiled "$resolution"; done
        if [ "$size" = "$first" ] && [ "$particles" = 64K ]; then row "$size" "$particles" raster full; fi
    done
done
