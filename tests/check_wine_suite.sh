#!/bin/sh
# The test suite on Windows: plume_tests.exe, built with the MinGW-w64 cross
# compiler (tests/windows/plume_tests.mk: the module with its lab, the WGL
# context of host/headless_gl_wgl.c, cmocka and jansson from
# tools/mingw_test_libraries.sh), run under Debian's wine, whose opengl32
# goes to Mesa's llvmpipe through GLX on Xvfb (xvfb-run). Needs what
# tests/check_windows_build.sh leaves in build/mingw (run that first):
# libepoxy for Windows, the shader header, cglm's and stb's headers.
#     sh tests/check_wine_suite.sh           the quick part CI runs (about a minute)
#     sh tests/check_wine_suite.sh '*'       the whole suite (about 7 minutes on 2 cores)
#     sh tests/check_wine_suite.sh GLOBS     the tests matching any of the comma-separated globs
# Tests that cannot run on Windows skip and say why. The exit status is the
# runner's (the number of failed tests).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/mingw"
[ -f "$out/epoxy/lib/libepoxy.dll.a" ] && [ -f "$out/generated/plume_shaders.h" ] ||
    { echo "no Windows libepoxy or shader header in $out: run tests/check_windows_build.sh first" >&2; exit 1; }
# The quick part: the sorts, particle systems and their draw paths against
# their references, a few pictures, the threads and the test's own context.
quick='*sort*,test_particles_*,*emission*,*spawn*,*draw_group*,*flipbook*,*soft_particles*,*contexts*'
filter=${1:-$quick}

sh "$root/tools/mingw_test_libraries.sh" "$out/test-libs"
jobs=$(nproc 2>/dev/null || echo 2)
make -s -f "$root/tests/windows/plume_tests.mk" ROOT="$root" OUT="$out" EPOXY="$out/epoxy" LIBS="$out/test-libs" \
    -j"$jobs"
cp "$out"/epoxy/bin/*.dll "$out/suite/" 2>/dev/null || cp "$out"/epoxy/lib/*.dll "$out/suite/"

# A wine prefix kept with the other Windows build products (wine makes one
# in ~20 s), a Mesa shader cache of this run's own (see tools/run.sh: the
# compiler's warnings show only when it compiles), quiet wine.
WINEPREFIX="$out/wineprefix"
MESA_SHADER_CACHE_DIR=$(mktemp -d)
trap 'wineserver -w 2>/dev/null; rm -rf "$MESA_SHADER_CACHE_DIR"' EXIT
export WINEPREFIX MESA_SHADER_CACHE_DIR WINEDEBUG=-all
cd "$out/suite"
echo "check_wine_suite: plume_tests.exe \"$filter\" under wine"
xvfb-run -a -s "-screen 0 640x480x24" wine plume_tests.exe "$filter"
