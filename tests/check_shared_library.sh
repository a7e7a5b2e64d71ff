#!/bin/sh
# Checks the built libraries the way an integrator meets them:
#   1. libplume.so exports plume_get_api and nothing else, and its soname is
#      libplume.so.<PLUME_ABI_MAJOR>;
#   2. tools/install.sh installs into a scratch PREFIX, and the examples of
#      docs/integration.md build and run three ways: linked statically through
#      pkg-config (and a C++11 host, tests/install/link_static.cpp, the same
#      way), loading the installed plugin with dlopen, and compiled from a
#      copy of the sources.
# usage: tests/check_shared_library.sh [CONFIG]   (default release; build it first)
# CC, CXX and CFLAGS may be set; CFLAGS defaults to the sanitizers for
# CONFIG=sanitize (its objects need the runtimes).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=${1:-release}
export CONFIG
CC=${CC:-cc}
CXX=${CXX:-g++}
if [ -z "${CFLAGS+set}" ]; then
    CFLAGS=
    [ "$CONFIG" = sanitize ] && CFLAGS="-fsanitize=address,undefined"
fi
warnings="-std=c11 -Wall -Wextra -Werror"
version=$(sh "$root/tools/abi_version.sh")
major=${version%%.*}
shared="$root/build/$CONFIG/lib/libplume.so"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }

exports=$(nm -D --defined-only "$shared" | awk '{print $3}' | sort | tr '\n' ' ')
[ "$exports" = "plume_get_api " ] && pass "libplume.so exports only plume_get_api" \
    || fail "libplume.so exports: $exports"
soname=$(readelf -d "$shared" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libplume.so.$major" ] && pass "soname $soname" || fail "soname '$soname', expected libplume.so.$major"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
PREFIX="$scratch/prefix" sh "$root/tools/install.sh" > /dev/null
export PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig"
[ "$(pkg-config --modversion plume)" = "$version" ] \
    && pass "installed plume.pc" || fail "plume.pc version $(pkg-config --modversion plume)"
[ -L "$scratch/prefix/lib/libplume.so.$major" ] && [ ! -e "$scratch/prefix/lib/libplume.so" ] \
    && pass "soname link, no unversioned link" || fail "installed library links"
example="$root/tests/install"
# The test host's context: its EGL part and the part every window system shares.
host="$root/host/headless_gl.c $root/host/headless_gl_common.c -I$root/host"

# shellcheck disable=SC2046,SC2086  # word splitting of flags is intended
$CC $warnings $CFLAGS -I"$example" "$example/link_static.c" $host $(pkg-config --cflags --libs plume) \
    -o "$scratch/link_static" && "$scratch/link_static" && pass "linked statically through pkg-config" \
    || fail "static link example"

# The C++ host: the test host's C helper compiled as C, the example as C++11.
# shellcheck disable=SC2046,SC2086
$CC $warnings $CFLAGS -c "$root/host/headless_gl.c" -o "$scratch/headless_gl.o" \
    && $CC $warnings $CFLAGS -c "$root/host/headless_gl_common.c" -o "$scratch/headless_gl_common.o" \
    && $CXX -std=c++11 -Wall -Wextra -pedantic -Werror $CFLAGS -I"$root/host" "$example/link_static.cpp" \
        "$scratch/headless_gl.o" "$scratch/headless_gl_common.o" $(pkg-config --cflags --libs plume) -o "$scratch/link_static_cxx" \
    && "$scratch/link_static_cxx" && pass "a C++11 host linked statically through pkg-config" \
    || fail "C++ static link example"

# shellcheck disable=SC2046,SC2086
$CC $warnings $CFLAGS -I"$example" "$example/load_plugin.c" $host $(pkg-config --cflags plume) -lepoxy -ldl \
    -o "$scratch/load_plugin" && "$scratch/load_plugin" "$(pkg-config --variable=plugin plume)" \
    && pass "loaded the installed plugin with dlopen" || fail "dlopen example"

# A host of ABI 1.2 built against the 1.2 headers as shipped
# (tests/abi/include_1_2) on this library: its descriptors keep 1.2's sizes
# and layouts (read and written at exactly those; under the sanitizers an
# overflow of its heap descriptor fails it).
# shellcheck disable=SC2086
$CC $warnings $CFLAGS -I"$root/tests/abi/include_1_2" "$root/tests/abi/host_1_2.c" $host \
    "$scratch/prefix/lib/libplume.so.$major" -lepoxy -lm -Wl,-rpath,"$scratch/prefix/lib" -o "$scratch/host_1_2" && "$scratch/host_1_2" > "$scratch/host_1_2.log" 2>&1 \
    && pass "a host of ABI 1.2 (its headers as shipped) on this library" \
    || { cat "$scratch/host_1_2.log"; fail "the ABI 1.2 host"; }

# shellcheck disable=SC2046,SC2086
$CC $warnings $CFLAGS "$example/load_effect.c" $(pkg-config --cflags --libs plume_effects) -o "$scratch/load_effect" \
    && "$scratch/load_effect" "$root/demo/effects/smoke.json" && pass "loaded an effect file through plume_effects.pc" \
    || fail "effects example"

copy="$scratch/copy"
mkdir -p "$copy/tools"
cp -r "$root/include" "$root/plugin" "$root/shaders" "$copy/"
cp "$root/tools/embed_shaders.c" "$copy/tools/"
# shellcheck disable=SC2086
$CC $warnings $CFLAGS "$copy/tools/embed_shaders.c" -o "$scratch/embed_shaders" \
    && "$scratch/embed_shaders" "$copy/shaders" "$copy/generated/plume_shaders.h" > /dev/null \
    && $CC $warnings $CFLAGS -I"$copy/include" -I"$copy/plugin" -I"$copy/shaders" -I"$copy/generated" \
        -I"$example" "$copy"/plugin/*/*.c "$example/link_static.c" $host -lepoxy -lm -o "$scratch/copied_sources" \
    && "$scratch/copied_sources" && pass "compiled from a copy of the sources" || fail "copied-sources example"

[ "$failures" -eq 0 ] && echo "check_shared_library: all passed" || echo "check_shared_library: $failures failed"
[ "$failures" -eq 0 ]
