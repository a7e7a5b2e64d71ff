#!/bin/sh
# Checks that the library builds for Windows, with the MinGW-w64 cross
# compiler against a Windows libepoxy (tools/mingw_epoxy.sh, built once and
# kept in build/mingw/epoxy):
#   1. every file of plugin/ compiles warning-free as C11 (no VLAs, which
#      MSVC lacks), once for the static library and once for the DLL;
#   2. libplume.a links: every object of it into a program, with nothing
#      left undefined;
#   3. plume.dll links and exports plume_get_api and nothing else, and needs
#      no DLL beyond Windows', the C runtime's and libepoxy's;
#   4. a host that loads plume.dll (LoadLibrary, GetProcAddress) compiles
#      and links against the public headers.
# The shader header comes from tools/embed_shaders.c, built for this machine.
# Nothing runs on Windows here: that needs a Windows machine.
# usage: tests/check_windows_build.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/mingw"
epoxy="$out/epoxy"
CC=x86_64-w64-mingw32-gcc
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }

sh "$root/tools/mingw_epoxy.sh" "$epoxy"
rm -rf "$out/obj" "$out/lib" "$out/generated" "$out/hosts"
mkdir -p "$out/obj/static" "$out/obj/shared" "$out/lib" "$out/generated" "$out/hosts" "$out/include"

cc -std=c11 -O2 "$root/tools/embed_shaders.c" -o "$out/embed_shaders"
"$out/embed_shaders" "$root/shaders" "$out/generated/plume_shaders.h" > /dev/null
# cglm and stb are header-only and the same on every system: Debian's copies.
for header_only in cglm stb; do ln -sfn "/usr/include/$header_only" "$out/include/$header_only"; done

flags="-std=c11 -O2 -Wall -Wextra -Werror -Wvla -Werror=implicit-function-declaration -Wshadow -Wstrict-prototypes
       -I$root/include -I$root/plugin -I$root/shaders -I$out/generated -I$epoxy/include -isystem $out/include"
export CC flags out
compile_all() {  # $1: obj/static or obj/shared, then extra flags
    find "$root/plugin" -name '*.c' | sort | awk -v dir="$1" '{ n = $0; gsub("/", "_", n); print $0 " " dir "/" n ".o" }' |
        xargs -P 2 -n 2 sh -c '$CC $flags '"${2:-}"' -c "$0" -o "$out/$1" || exit 255'
}
compile_all obj/static && compile_all obj/shared -DPLUME_SHARED_BUILD \
    && pass "plugin/ compiles for Windows: $(find "$root/plugin" -name '*.c' | wc -l) files, twice" \
    || fail "plugin/ does not compile for Windows"

x86_64-w64-mingw32-ar rcs "$out/lib/libplume.a" "$out"/obj/static/*.o
cat > "$out/hosts/link_static.c" <<'EOF'
#include <plume/plume_plugin.h>
int main(void) {
    const plume_api *api = 0;
    return plume_get_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR, 0, &api) == PLUME_OK ? 0 : 1;
}
EOF
# shellcheck disable=SC2086  # word splitting of flags is intended
$CC $flags "$out/hosts/link_static.c" -Wl,--whole-archive "$out/lib/libplume.a" -Wl,--no-whole-archive \
    -L"$epoxy/lib" -lepoxy -o "$out/hosts/link_static.exe" \
    && pass "libplume.a: all of it links into a program" || fail "libplume.a does not link"

dll="$out/lib/plume.dll"
$CC -shared -static-libgcc -o "$dll" "$out"/obj/shared/*.o -Wl,--out-implib,"$out/lib/libplume.dll.a" \
    -L"$epoxy/lib" -lepoxy && pass "plume.dll links" || fail "plume.dll does not link"
if [ -f "$dll" ]; then
    # The names of objdump's export table, "[   0] plume_get_api" lines.
    exports=$(x86_64-w64-mingw32-objdump -p "$dll" |
        sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/s/^[[:space:]]*\[ *[0-9]*\] //p' | sort | tr '\n' ' ')
    [ "$exports" = "plume_get_api " ] && pass "plume.dll exports only plume_get_api" \
        || fail "plume.dll exports: ${exports:-nothing}"
    imports=$(x86_64-w64-mingw32-objdump -p "$dll" | sed -n 's/^[[:space:]]*DLL Name: //p' | sort | tr '\n' ' ')
    unexpected=$(echo "$imports" | tr ' ' '\n' | grep -v -i -x -e '' -e 'kernel32.dll' -e 'msvcrt.dll' \
        -e 'api-ms-win-crt-.*\.dll' -e 'ucrtbase.dll' -e 'libepoxy-0.dll' | tr '\n' ' ' || true)
    [ -z "$unexpected" ] && pass "plume.dll imports $imports" || fail "plume.dll also needs $unexpected"
fi

cat > "$out/hosts/load_plugin.c" <<'EOF'
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <plume/plume_plugin.h>
int main(void) {
    HMODULE library = LoadLibraryA("plume.dll");
    if (!library) return 1;
    plume_get_api_fn get_api = (plume_get_api_fn)(void (*)(void))GetProcAddress(library, PLUME_GET_API_SYMBOL);
    const plume_api *plume = NULL;
    int granted = get_api && get_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR, NULL, &plume) == PLUME_OK;
    FreeLibrary(library);
    return granted ? 0 : 1;
}
EOF
# shellcheck disable=SC2086
$CC $flags "$out/hosts/load_plugin.c" -o "$out/hosts/load_plugin.exe" \
    && pass "a host loading plume.dll compiles against the headers" || fail "plugin host example"

[ "$failures" -eq 0 ] && echo "check_windows_build: all passed" || echo "check_windows_build: $failures failed"
[ "$failures" -eq 0 ]
