#!/bin/sh
# Builds the libraries the test suite links besides libepoxy for 64-bit
# Windows with the MinGW-w64 cross compiler, from the sources Debian builds
# its packages from (Debian ships neither for MinGW): cmocka (the test
# runner) and jansson (the effect files' library), static, for the suite's
# Windows build (tests/check_wine_suite.sh). Installs headers and libcmocka-
# static.a, libjansson.a under PREFIX; does nothing when PREFIX has them.
#     sh tools/mingw_test_libraries.sh [PREFIX]   (default build/mingw/test-libs)
# Needs gcc-mingw-w64-x86-64 and cmake.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/build/mingw/test-libs}
[ -f "$prefix/lib/libcmocka-static.a" ] && [ -f "$prefix/lib/libjansson.a" ] && exit 0

work="$root/build/mingw/test-libs-source"
mkdir -p "$work"
cat > "$work/mingw.cmake" <<'TOOLCHAIN'
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
TOOLCHAIN

build() {  # $1: Debian source package, then its CMake options
    package=$1
    shift
    source_dir=$(sh "$root/tools/debian_source.sh" "$package" "$work/$package")
    echo "mingw_test_libraries: building $(basename "$source_dir") for Windows into $prefix"
    if ! { cmake -S "$source_dir" -B "$work/$package/build" -DCMAKE_TOOLCHAIN_FILE="$work/mingw.cmake" \
               -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release "$@" &&
           cmake --build "$work/$package/build" -j2 && cmake --install "$work/$package/build"; } \
         > "$work/$package.log" 2>&1; then
        tail -n 30 "$work/$package.log" >&2
        echo "mingw_test_libraries: the $package build failed; the whole log: $work/$package.log" >&2
        exit 1
    fi
}
# cmocka's messages with MinGW's C99 printf (the tests' formats have %zu),
# as -std=c11 gives the suite itself.
build cmocka -DCMAKE_C_FLAGS=-D__USE_MINGW_ANSI_STDIO=1 -DWITH_STATIC_LIB=ON -DUNIT_TESTING=OFF \
    -DWITH_EXAMPLES=OFF -DPICKY_DEVELOPER=OFF
build jansson -DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF \
    -DJANSSON_BUILD_DOCS=OFF
