#!/bin/sh
# Set-up and run in one command on a fresh Debian (bookworm) machine: installs
# the Debian packages that are missing, generates the makefiles with premake
# (premake5 if installed, else Debian's premake4 on the same premake5.lua),
# builds and runs.
#     sh tools/run.sh test     all tests (ASan + UBSan build, headless EGL):
#                              static library, plugin table, installed forms,
#                              the headers as C++, the release library's
#                              symbols, the Windows build (MinGW-w64 cross
#                              compiler) and its run under wine, a 30-second soak
#     sh tools/run.sh demo     the smoke demo (offscreen without a display; see README)
#     sh tools/run.sh bench    the sort benchmark (GPU times need a real GPU)
#     sh tools/run.sh web      the smoke demo as a WebGL 2 page (emscripten), served
#                              on http://localhost:8080/ (PLUME_WEB_PORT)
# Extra arguments go to the program.
set -eu
cd "$(dirname "$0")/.."
what=${1:-test}
[ $# -gt 0 ] && shift

packages="make gcc pkg-config premake4 libepoxy-dev libcglm-dev libstb-dev libglfw3-dev libcmocka-dev libjansson-dev
          libegl1 libegl-mesa0 libgl1-mesa-dri"
# The C++ checks (headers, a C++ host); the Windows build check: the cross
# compiler, meson for its libepoxy, cmake for the suite's cmocka and jansson;
# wine and Xvfb to run that build.
[ "$what" = test ] && packages="$packages g++ gcc-mingw-w64-x86-64 meson cmake wine xvfb xauth"
# The web page: Emscripten to build it, and for its check headless Chromium
# to load it; without what they merely recommend (about a minute to install
# on a fresh machine).
case "$what" in
test) web_packages="emscripten chromium" ;;
web) web_packages="emscripten" ;;
*) web_packages="" ;;
esac
missing="" missing_web=""
for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
for p in $web_packages; do dpkg -s "$p" >/dev/null 2>&1 || missing_web="$missing_web $p"; done
if [ -n "$missing$missing_web" ]; then
    echo "installing:$missing$missing_web"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    [ -z "$missing" ] || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
    [ -z "$missing_web" ] ||
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing_web >/dev/null
fi

if command -v premake5 >/dev/null 2>&1; then premake5 gmake >/dev/null
else premake4 --file=premake5.lua gmake >/dev/null; fi

jobs=$(nproc 2>/dev/null || echo 2)
case "$what" in
test)
    make -C build config=sanitize -j"$jobs" >/dev/null
    # LeakSanitizer stays on: the module must free everything it allocates.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
    export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/lsan_mesa.supp:print_suppressions=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    # Mesa's disk cache in a folder of this run's own, removed at the end:
    # every shader is compiled, and its warnings (which the tests count as
    # errors) reported, the first time the run builds it; the later tests'
    # contexts that build the same program find it there instead of compiling
    # it once per test (most of the suites' time on llvmpipe). A cache kept
    # from an earlier run would skip the compiler, and its warnings, for good:
    # that hid a warning once (notes/gpu-findings.md).
    MESA_SHADER_CACHE_DIR=$(mktemp -d)
    trap 'rm -rf "$MESA_SHADER_CACHE_DIR"' EXIT
    export MESA_SHADER_CACHE_DIR MESA_SHADER_CACHE_DISABLE=false
    # The headers as C++ first; the shipped library as shipped (optimized):
    # no writable process-wide data, no lab. Only the two library projects
    # of the release build.
    sh tests/check_cxx_headers.sh
    make -C build config=release plume_static plume -j"$jobs" >/dev/null
    sh tests/check_release_symbols.sh release
    # The exports, soname and installed forms (a C++ host among them); the
    # Windows build (MinGW-w64: plume.dll's exports), its run under wine and
    # the quick part of the suite built for Windows under wine (the whole
    # suite: sh tests/check_wine_suite.sh '*', notes/windows.md).
    installed_forms="sh tests/check_shared_library.sh sanitize"
    windows="sh tests/check_windows_build.sh && sh tests/check_wine_run.sh && sh tests/check_wine_suite.sh"
    if [ $# -gt 0 ]; then
        printf '%s\n' "$windows" "$installed_forms" | sh tests/run_together.sh "$jobs"
        ./build/sanitize/bin/plume_tests "$@"
        ./build/sanitize/bin/plume_plugin_host "$@"
        exit 0
    fi
    # Without a filter, every suite and check, as many at once as there are
    # cores (tests/run_together.sh: on llvmpipe a process keeps about one
    # core busy), the longest first, each suite's tests shared among as many
    # processes as there are cores:
    # the suite through the static library; the Windows checks and the
    # installed forms (above); the fragment path's part once more in a real
    # GL 3.3 core context (Mesa told to be one, sharing the cache folder
    # above) and its sort in an OpenGL ES 3.0 context (GLSL ES 3.00); the
    # demo as a WebGL 2 page in headless Chromium (software WebGL); 30
    # frames of the soak (notes/soak.md) under the sanitizers (frames, not
    # seconds: the same work whatever runs beside it): random host
    # operations from a fixed seed (PLUME_SOAK_SEED to change it), checked
    # for GL errors, GL objects, memory and determinism (each lane's new
    # buffers filled with noise of its own: lanes agree only where no pass
    # reads what it did not write). The RSS only catches a gross leak here
    # (ASan's quarantine and llvmpipe's code for each new program move it
    # about); the allocator's bytes and the GL objects, flat at every drain,
    # are the exact checks. Last, the suite through libplume.so's plugin
    # table.
    shares() {
        share=0
        while [ "$share" -lt "$jobs" ]; do
            echo "PLUME_TEST_SHARD=$share/$jobs $1"
            share=$((share + 1))
        done
    }
    {
        shares ./build/sanitize/bin/plume_tests
        echo "$windows"
        echo "$installed_forms"
        echo "sh tests/run_gl33.sh sanitize && sh tests/run_gles3.sh sanitize"
        echo "sh tests/check_web_page.sh && ./build/sanitize/bin/plume_soak --seed ${PLUME_SOAK_SEED:-35}" \
            "--frames 30 --check-every 10 --drain-every 2 --max-capacity 8000 --max-size 160x100" \
            "--rss-growth 1 --poison"
        shares ./build/sanitize/bin/plume_plugin_host
    } | sh tests/run_together.sh "$jobs"
    ;;
demo)
    make -C build config=release -j"$jobs" >/dev/null
    # A window where there is a display; otherwise (or with --offscreen)
    # headless EGL: build/smoke.png and a timing summary.
    exec ./build/release/bin/plume_demo "$@"
    ;;
bench)
    make -C build config=release -j"$jobs" >/dev/null
    exec ./build/release/bin/plume_bench "$@"
    ;;
web)
    # emscripten (emcc) is Debian's; the shaders are embedded by the native tool.
    command -v emcc >/dev/null 2>&1 || { echo "no emcc: apt-get install emscripten" >&2; exit 1; }
    make -C build config=release plume_shaders >/dev/null
    WEB_JOBS=$jobs sh tools/web_build.sh
    port=${PLUME_WEB_PORT:-8080}
    echo "the smoke demo in WebGL 2: http://localhost:$port/ (the demo's options after ?args=, e.g. ?args=--particles%2016K; Ctrl-C stops)"
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory build/web
    ;;
*)
    echo "usage: sh tools/run.sh test|demo|bench|web [arguments]" >&2
    exit 2
    ;;
esac
