#!/bin/sh
# Writes plume.pc from tools/plume.pc.in, and plume_effects.pc (the effects
# library's, tools/plume_effects.pc.in) beside it; the version is the ABI
# version of include/plume/plume_plugin.h.
# usage: make_pc.sh OUTPUT PREFIX INCLUDEDIR LIBDIR PLUGIN
set -eu
[ $# -eq 5 ] || { echo "usage: $0 OUTPUT PREFIX INCLUDEDIR LIBDIR PLUGIN" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sh "$root/tools/abi_version.sh")
mkdir -p "$(dirname "$1")"
# '|' delimits: the paths hold '/'; they must not hold '|', '&' or '\'.
for template in plume plume_effects; do
    out="$(dirname "$1")/$template.pc"
    [ "$template" = plume ] && out=$1
    sed -e "s|@PREFIX@|$2|" -e "s|@INCLUDEDIR@|$3|" -e "s|@LIBDIR@|$4|" -e "s|@PLUGIN@|$5|" \
        -e "s|@VERSION@|$version|" "$root/tools/$template.pc.in" > "$out.tmp"
    mv "$out.tmp" "$out"
done
