#!/bin/sh
# The README's gallery pictures (docs/gallery/<name>.png): every effect of
# demo/effects/ drawn by the release demo offscreen at 1280x720 without the
# overlay, after `frames` frames of 1/60 s (default 480: 8 s, long enough for
# the snow to reach the ground), into $OUT/<name>.png with its log beside it.
# On the GPU machine, from a tree or a copy that holds build/release/bin,
# demo/effects and demo/assets (the effects name their sprites relative to
# themselves):
#     . .gl/prelude.sh; sh tools/gpu_gallery.sh [frames [WxH]]
# (a size other than 1280x720 for a quick look on a software renderer).
# Prints a line per effect: the live count, the median GPU ms per stage and
# the picture; exits 1 if any effect failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build/gallery}
demo=${PLUME_DEMO:-$root/build/release/bin/plume_demo}
frames=${1:-480}
size=${2:-1280x720}
mkdir -p "$out"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L
status=0
for effect in "$root"/demo/effects/*.json; do
    name=$(basename "$effect" .json)
    if "$demo" --offscreen --size "$size" --no-hud --frames "$frames" --effect "$effect" \
        --out "$out/$name.png" > "$out/$name.log" 2>&1; then
        echo "$name: $(grep -E '^(frames:|GPU per frame)' "$out/$name.log" | tr '\n' ' ')-> $out/$name.png"
    else
        echo "$name: FAILED"; tail -5 "$out/$name.log"; status=1
    fi
done
grep -h "^plume_demo offscreen" "$out"/*.log | sort -u
exit $status
