#!/bin/sh
# Builds the smoke demo as a WebGL 2 page with Debian's Emscripten (emcc):
# the module (plugin/) and the demo (demo/: its main and GLFW window, on
# Emscripten's GLFW, whose window is the page's canvas) compiled to
# WebAssembly, the sprites preloaded into the page's file system. Writes
# build/web/index.html (+ .js, .wasm, .data); serve the folder over HTTP
# (sh tools/run.sh web does). What is left out, and why: web/web.mk. The
# compute path is compiled but not run (WebGL 2 is OpenGL ES 3.0: the module
# runs its fragment path there). libepoxy's role is played by
# web/shim/epoxy/gl.h and web/epoxy_web.c over Emscripten's GL. Each source
# is compiled again only when it changed (WEB_JOBS compiles at once, 2).
# usage: sh tools/web_build.sh   (the shaders are embedded by the native
# build's tool first: tools/run.sh web runs it)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/web"
mkdir -p "$out/include"
command -v emcc >/dev/null 2>&1 || { echo "web build: no emcc (apt-get install emscripten)" >&2; exit 1; }
[ -f "$root/build/generated/plume_shaders.h" ] || { echo "web build: no build/generated/plume_shaders.h (make plume_shaders first)" >&2; exit 1; }
# Header-only libraries from the Debian packages, seen by emcc alone (not
# all of /usr/include: its system headers are not Emscripten's).
ln -sfn /usr/include/cglm "$out/include/cglm"
ln -sfn /usr/include/stb "$out/include/stb"
cd "$out"
# Debian's emscripten runs its JavaScript optimizer on node with acorn from node-acorn.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
make -s -f "$root/web/web.mk" ROOT="$root" -j"${WEB_JOBS:-2}"
echo "web build: $out/index.html"
