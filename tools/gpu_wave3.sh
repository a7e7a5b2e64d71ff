#!/bin/sh
# The GPU machine's call for the third wave's open figures, most important
# first, each part under a time limit of its own so that one slow part
# cannot eat the call (notes/wave3-draws-h200.md lists what each answers):
#   suites  the test suite (static), the plugin table's, the GL 3.3 list and
#           the OpenGL ES list (NVIDIA's ES context)
#   many    many small systems: per-system calls against the batch, and a
#           system's GPU memory by the driver's count (NVX) (#36)
#   trails  64 K x 16-point trails in a draw group, raster and tiled (#31)
#   meshes  100 K lit meshes, levels of detail and culling (#32)
#   gallery the ten stills and their GPU ms (#33), into $OUT/gallery
#   gles    the fragment path in NVIDIA's OpenGL ES context at 64 K beside
#           the desktop GL's paths (#34)
#   web     the WebGL 2 page in Chromium, where chromium and emcc exist (#34)
#   cover   the tiled blend and upsample over the particles' tiles against
#           every tile (the full-screen pixels), 64 K and 1 M, full and 1/2,
#           steady state (#37)
#   fill    the automatic path's fill probe: the dust storm (eleven thousand
#           puffs metres across, under the count that makes the path tiled)
#           automatic beside raster and tiled; expected tiled (#37)
#   binning the tiles a splat is listed in: those it may show in against
#           every tile of its box (--box-tiles), for the smoke's puffs and
#           velocity-stretched streaks; every pixel walking the tile's whole
#           batch (--whole-tile-lists) against its quadrant's list, both at
#           tiles of 16, the default's 8 beside them; 64 K
#           and 1 M, steady state (#37); the trails' rows of both are in
#           `trails`
# Builds nothing: run from a folder that holds build/release/bin, demo/ and
# tests/ (the device's copy of the tree, the build carried):
#     . .gl/prelude.sh; sh tools/gpu_wave3.sh "$OUT" [PART...]
# No PART: all of them, in the order above. Each part's output goes to
# $OUT/PART.log; one line per part is printed with its exit and seconds.
set -u
out=${1:-/tmp/plume-wave3}
[ $# -gt 0 ] && shift
parts=${*:-suites many trails meshes gallery gles web cover fill binning}
bin=./build/release/bin
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
run_part() {
    name=$1 limit=$2
    shift 2
    begin=$(date +%s)
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    echo "== $name: exit $? in $(( $(date +%s) - begin )) s"
}
for part in $parts; do
    case $part in
    suites)
        run_part tests 240 $bin/plume_tests
        grep -E "^GL:|PASSED|FAILED|^\[  (FAILED|ERROR)" "$out/tests.log" | head -20
        run_part plugin_host 120 $bin/plume_plugin_host
        grep -E "PASSED|FAILED" "$out/plugin_host.log" | head -5
        eval "$(sed -n '/^tests="/,/[^\\]"$/p' tests/run_gl33.sh)"
        run_part gl33 60 env PLUME_TEST_GL=3.3 PLUME_TEST_PATH=fragment $bin/plume_tests "$tests"
        grep -E "PASSED|FAILED" "$out/gl33.log" | head -5
        eval "$(sed -n '/^tests="/,/[^\\]"$/p' tests/run_gles3.sh)"
        run_part gles3 60 env PLUME_TEST_GL=es3.0 $bin/plume_tests "$tests"
        grep -E "^GL:|PASSED|FAILED" "$out/gles3.log" | head -5 ;;
    many)
        run_part many 240 $bin/plume_many_systems --counts 1,10,50,200,1000 --paths raster,tiled --frames 120 \
            --warmup 70 --creations 200 --capacity 1024
        tail -30 "$out/many.log"
        run_part memory 120 $bin/plume_screen_memory_bench
        tail -15 "$out/memory.log" ;;
    trails)
        run_part trails 200 $bin/plume_trail_bench --count 65536 --points 16 --frames 120 --warmup 30 --size 1280x720
        tail -36 "$out/trails.log" ;;
    meshes)
        for impostor in 6 12; do
            run_part "meshes_$impostor" 120 $bin/plume_mesh_bench --count 100000 --frames 300 --warmup 60 \
                --size 1280x720 --coarse-below 24 --impostor-below "$impostor"
            tail -12 "$out/meshes_$impostor.log"
        done ;;
    gallery)
        run_part gallery 300 env OUT="$out/gallery" sh tools/gallery.sh
        cat "$out/gallery.log" ;;
    gles)
        run_part gles 120 $bin/plume_gles_bench --count 65536 --frames 300
        tail -8 "$out/gles.log" ;;
    web)
        run_part web 120 sh tests/check_web_page.sh
        tail -3 "$out/web.log" ;;
    cover)
        for resolution in full half; do
            for cover in tiles every; do
                flag=""
                [ "$cover" = every ] && flag=--cover-every-tile
                run_part "cover_${resolution}_$cover" 200 $bin/plume_frame_bench --path tiled --smoke --lit \
                    --counts 65536,1048576 --size 1280x720 --resolution "$resolution" --frames 150 \
                    --max-warmup 400 $flag
                grep -E -A1 "^ *(65536|1048576) " "$out/cover_${resolution}_$cover.log" | head -8
            done
        done ;;
    fill)
        for path in automatic raster tiled; do
            run_part "fill_$path" 120 $bin/plume_demo --offscreen --size 1280x720 --frames 600 --effect dust_storm \
                --path "$path" --out "$out/fill_$path.png"
            grep -iE "draw|path|steady" "$out/fill_$path.log" | tail -4
        done ;;
    binning)
        for orientation in camera_facing velocity_stretched; do
            ways="shown box tile16 whole_lists16"
            for listed in $ways; do
                flag=""
                [ "$listed" = box ] && flag=--box-tiles
                [ "$listed" = tile16 ] && flag="--tile 16"
                [ "$listed" = whole_lists16 ] && flag="--tile 16 --whole-tile-lists"
                run_part "binning_${orientation}_$listed" 140 $bin/plume_frame_bench --path tiled --smoke --lit \
                    --orientation "$orientation" --counts 65536,1048576 --size 1280x720 --frames 100 \
                    --max-warmup 300 $flag
                grep -E -A1 "^ *(65536|1048576) " "$out/binning_${orientation}_$listed.log" | head -8
            done
        done ;;
    *) echo "gpu_wave3: no part '$part' (suites many trails meshes gallery gles web cover fill binning)" >&2; exit 2 ;;
    esac
done
