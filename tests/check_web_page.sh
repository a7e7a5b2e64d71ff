#!/bin/sh
# The smoke demo as a WebGL 2 page (tools/web_build.sh: the module and the
# demo compiled to WebAssembly with Debian's emscripten) loaded in Debian's
# headless Chromium with a software WebGL 2 (SwiftShader), through
# tests/web/check_page.py: it must draw at least FRAMES frames within the
# timeout, say WebGL 2 and a live count above zero in its text, log no error
# (the page's log and Chromium's console, where WebGL reports its own
# errors) and show a picture that is not blank. Writes build/web_check.png
# (the screenshot), .json (the page's text) and .log (Chromium's log).
# Without emcc or chromium it says so and skips (exit 0, "SKIPPED" printed).
# usage: sh tests/check_web_page.sh [ARGS for the demo, as the page's ?args=]
set -eu
cd "$(dirname "$0")/.."
frames=${PLUME_WEB_FRAMES:-12}
for tool in emcc chromium python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "check_web_page: SKIPPED: no $tool here (Debian: apt-get install emscripten chromium python3);" \
             "the WebGL 2 page was neither built nor checked"
        exit 0
    fi
done
# The embedded shaders come from the native build's tool.
[ -f build/generated/plume_shaders.h ] || make -C build config=release plume_shaders >/dev/null
sh tools/web_build.sh >build/web_build.log 2>&1 || { cat build/web_build.log; echo "check_web_page: the build failed" >&2; exit 1; }
python3 tests/web/check_page.py build/web --frames "$frames" --timeout 90 --out build/web_check --args="${*:-}"
