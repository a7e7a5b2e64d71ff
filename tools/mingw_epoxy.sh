#!/bin/sh
# Builds libepoxy for 64-bit Windows with the MinGW-w64 cross compiler, from
# the source that Debian's libepoxy package is built from (Debian ships no
# Windows libepoxy), for cross builds of plume (tests/check_windows_build.sh).
# Installs headers, libepoxy.dll.a and libepoxy-0.dll under PREFIX; does
# nothing when PREFIX already has them.
#     sh tools/mingw_epoxy.sh [PREFIX]     (default build/mingw/epoxy)
# Needs gcc-mingw-w64-x86-64 and meson (tools/run.sh installs them). The
# source comes through apt from the Debian archive this machine installs
# from (tools/debian_source.sh).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/build/mingw/epoxy}
[ -f "$prefix/lib/libepoxy.dll.a" ] && exit 0

work="$root/build/mingw/epoxy-source"
source_dir=$(sh "$root/tools/debian_source.sh" libepoxy "$work")

cat > "$work/cross.ini" <<'EOF'
[binaries]
c = 'x86_64-w64-mingw32-gcc'
ar = 'x86_64-w64-mingw32-ar'
strip = 'x86_64-w64-mingw32-strip'
windres = 'x86_64-w64-mingw32-windres'

[host_machine]
system = 'windows'
cpu_family = 'x86_64'
cpu = 'x86_64'
endian = 'little'
EOF
# Without optimisation: the checks link against it and never run it, and
# the build takes a third of the time.
echo "mingw_epoxy: building $(basename "$source_dir") for Windows into $prefix"
if ! { meson setup --cross-file "$work/cross.ini" --prefix "$prefix" --buildtype=plain \
           -Dtests=false -Ddocs=false -Dglx=no -Degl=no -Dx11=false "$work/build" "$source_dir" &&
       ninja -C "$work/build" -j2 install; } > "$work/build.log" 2>&1; then
    tail -n 30 "$work/build.log" >&2
    echo "mingw_epoxy: the build failed; the whole log: $work/build.log" >&2
    exit 1
fi
