#!/bin/sh
# Prints the plugin ABI version of include/plume/plume_plugin.h as MAJOR.MINOR
# (the one place it is written; premake5.lua reads the same lines).
set -eu
header="$(cd "$(dirname "$0")/.." && pwd)/include/plume/plume_plugin.h"
major=$(sed -n 's/^#define PLUME_ABI_MAJOR \([0-9]*\)$/\1/p' "$header")
minor=$(sed -n 's/^#define PLUME_ABI_MINOR \([0-9]*\)$/\1/p' "$header")
[ -n "$major" ] && [ -n "$minor" ] || { echo "$0: no ABI version in $header" >&2; exit 1; }
echo "$major.$minor"
