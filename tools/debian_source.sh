#!/bin/sh
# Fetches the upstream source of a Debian source package, the tarball that
# the Debian archive this machine installs from builds it from, checked
# against the hash in the archive's signed source index, and unpacks it into
# WORK (emptied first). Prints the unpacked folder. For the MinGW-w64 builds
# of libraries Debian ships for Linux only (tools/mingw_epoxy.sh,
# tools/mingw_test_libraries.sh).
#     sh tools/debian_source.sh PACKAGE WORK
# When apt knows no source packages, a deb-src entry for that archive is
# added (/etc/apt/sources.list.d/plume-deb-src.*) and the lists updated.
set -eu
package=$1
work=$2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
rm -rf "$work"
mkdir -p "$work"
cd "$work"  # apt-get source --print-uris leaves out files already in the current folder

if ! apt-get source --print-uris -qq "$package" > /dev/null 2>&1; then
    echo "debian_source: adding deb-src entries for the Debian archive apt installs from" >&2
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
    $sudo apt-get update -qq >&2
fi

# The upstream tarball only (Debian's packaging is not needed to build it).
set -- $(apt-get source --print-uris -qq "$package" | grep "\.orig\.tar\.")
[ $# -ge 4 ] || { echo "debian_source: apt lists no source tarball for $package" >&2; exit 1; }
uri=$(echo "$1" | tr -d "'")
/usr/lib/apt/apt-helper download-file "$uri" "$work/$2" "$4" 2>&1 | grep -v "unsandboxed" >&2 || true
[ -f "$work/$2" ] || { echo "debian_source: could not download $uri" >&2; exit 1; }
tar -xf "$2"
find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1
