#!/bin/sh
# Runs the Windows build under Debian's wine (wine's opengl32 goes to
# Mesa's llvmpipe through GLX, so an X server: Xvfb through xvfb-run):
# tests/windows/wine_run.c, linked with the MinGW-w64 libplume.a that
# tests/check_windows_build.sh makes (run that first), makes a hidden window
# and a WGL context and sorts on both paths against qsort and counts a
# particle system's burst (tests/windows/wine_run.c).
# usage: tests/check_wine_run.sh   (needs wine and xvfb)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/mingw"
epoxy="$out/epoxy"
[ -f "$out/lib/libplume.a" ] || { echo "no $out/lib/libplume.a: run tests/check_windows_build.sh first" >&2; exit 1; }
x86_64-w64-mingw32-gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -I"$epoxy/include" \
    "$root/tests/windows/wine_run.c" "$out/lib/libplume.a" -L"$epoxy/lib" -lepoxy -lgdi32 -lopengl32 \
    -static-libgcc -o "$out/hosts/wine_run.exe"
cp "$epoxy"/bin/*.dll "$out/hosts/" 2>/dev/null || cp "$epoxy"/lib/*.dll "$out/hosts/"
# A prefix of this run's own (wine makes one in ~20 s), quiet wine.
WINEPREFIX=$(mktemp -d)
trap 'wineserver -w 2>/dev/null; rm -rf "$WINEPREFIX"' EXIT
export WINEPREFIX WINEDEBUG=-all
cd "$out/hosts"
xvfb-run -a -s "-screen 0 640x480x24" wine wine_run.exe
