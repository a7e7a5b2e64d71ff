#!/bin/sh
# The gallery of ten effects (docs/gallery.md): each drawn by the release demo
# offscreen without the overlay, the still taken after the seconds its line
# names (steps of 1/60 s, or GALLERY_DT's: 0.05 makes a software renderer's
# run a third as long), into docs/gallery/<name>.png (or $OUT/<name>.png) with
# its log beside it in build/gallery/. Every effect is a file of
# demo/effects/ (--effect NAME finds demo/effects/NAME.json); the fire with
# smoke is the built-in smoke column and the built-in fire in one draw group
# (--fire); --night dims the scene so that what the particles emit lights it
# (plume_system_write_lights).
#     sh tools/gallery.sh [WxH]          # default 1280x720
#     GALLERY_DT=0.05 sh tools/gallery.sh 480x270   # on llvmpipe
# Prints a line per effect: the live count, the median GPU ms per stage and
# the picture; exits 1 if any effect failed. PLUME_DEMO names another demo
# binary; GALLERY_ONLY=name renders that effect alone.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/docs/gallery}
logs=$root/build/gallery
demo=${PLUME_DEMO:-$root/build/release/bin/plume_demo}
size=${1:-1280x720}
dt=${GALLERY_DT:-0.0166667}
mkdir -p "$out" "$logs"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L
status=0
# name | seconds | the demo's options
while IFS='|' read -r name seconds options; do
    [ -n "$name" ] || continue
    [ -z "${GALLERY_ONLY:-}" ] || [ "$GALLERY_ONLY" = "$name" ] || continue
    frames=$(awk -v s="$seconds" -v dt="$dt" 'BEGIN { printf "%d", s / dt + 0.5 }')
    # shellcheck disable=SC2086 # the options are words
    if "$demo" --offscreen --size "$size" --no-hud --frames "$frames" --dt "$dt" $options \
        --out "$out/$name.png" > "$logs/$name.log" 2>&1; then
        echo "$name: $(grep -E '^(frames:|GPU per frame)' "$logs/$name.log" | tr '\n' ' ')-> $out/$name.png"
    else
        echo "$name: FAILED"; tail -5 "$logs/$name.log"; status=1
    fi
done <<'LIST'
fire_smoke|4|--effect smoke --fire
grinder|2.5|--effect grinder --night
explosion|3.9|--effect explosion --night
fountain|3|--effect fountain_splash --camera -3.6,1.1,2.2,22,8,6
rain|2.5|--effect rain --night
snow|10|--effect snow_settling
magic|3.5|--effect magic --night
dust_storm|5|--effect dust_storm --path tiled
fireflies|2|--effect fireflies --night --camera 0.3,0.9,0.6,22,10,7
candle|1.5|--effect candle --night --camera -1.5,0.9,1.1,22,18,1.9
LIST
grep -h "^plume_demo offscreen" "$logs"/*.log 2>/dev/null | sort -u
exit $status
