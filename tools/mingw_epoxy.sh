#!/bin/sh
# Builds libepoxy for 64-bit Windows with the MinGW-w64 cross compiler, from
# the source that Debian's libepoxy package is built from (Debian ships no
# Windows libepoxy), for cross builds of plume (tests/check_windows_build.sh).
# Installs headers, libepoxy.dll.a and libepoxy-0.dll under PREFIX; does
# nothing when PREFIX already has them.
#     sh tools/mingw_epoxy.sh [PREFIX]     (default build/mingw/epoxy)
# Needs gcc-mingw-w64-x86-64 and meson (tools/run.sh installs them). The
# source comes through apt from the Debian archive this machine installs
# from: when apt knows no source packages, a deb-src entry for that archive
# is added (/etc/apt/sources.list.d/plume-deb-src.*) and the lists updated.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/build/mingw/epoxy}
[ -f "$prefix/lib/libepoxy.dll.a" ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
work="$root/build/mingw/epoxy-source"
rm -rf "$work"
mkdir -p "$work"
cd "$work"  # apt-get source --print-uris leaves out files already in the current folder

if ! apt-get source --print-uris -qq libepoxy > /dev/null 2>&1; then
    echo "mingw_epoxy: adding deb-src entries for the Debian archive apt installs from"
    lists=/etc/apt/sources.list.d
    # deb822 stanzas (Types: deb ... URIs: .../debian...) as deb-src stanzas.
    cat "$lists"/*.sources 2>/dev/null | awk 'BEGIN { RS = ""; ORS = "\n\n" }
        /Types:[ \t]*([^\n]*[ \t])?deb([ \t\n]|$)/ && /URIs:[^\n]*debian/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' \
        > "$work/deb-src.sources"
    # One-line entries, from sources.list and *.list.
    cat /etc/apt/sources.list "$lists"/*.list 2>/dev/null | sed -n 's/^deb \(.*debian.*\)/deb-src \1/p' \
        > "$work/deb-src.list"
    for kind in sources list; do
        [ -s "$work/deb-src.$kind" ] && $sudo cp "$work/deb-src.$kind" "$lists/plume-deb-src.$kind"
    done
    $sudo apt-get update -qq
fi

# The upstream tarball only (Debian's packaging is not needed to build it),
# checked against the hash in the archive's signed source index.
set -- $(apt-get source --print-uris -qq libepoxy | grep "\.orig\.tar\.")
[ $# -ge 4 ] || { echo "mingw_epoxy: apt lists no source tarball for libepoxy" >&2; exit 1; }
uri=$(echo "$1" | tr -d "'")
/usr/lib/apt/apt-helper download-file "$uri" "$work/$2" "$4" 2>&1 | grep -v "unsandboxed" || true
[ -f "$work/$2" ] || { echo "mingw_epoxy: could not download $uri" >&2; exit 1; }
tar -xf "$2"
source_dir=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'libepoxy*' | head -n 1)

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
