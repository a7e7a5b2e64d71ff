#!/bin/sh
# Builds bench/cub_sort.cu with nvcc into OUTDIR (default build/cub) and runs
# it with the given arguments; where there is no nvcc it says so and exits 0,
# so that scripts can call it on any machine.
# Usage: sh bench/cub_sort.sh [--out OUTDIR] [cub_sort options]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=build/cub
if [ "${1:-}" = "--out" ]; then out=$2; shift 2; fi
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || for candidate in /usr/local/cuda/bin/nvcc /usr/lib/cuda/bin/nvcc; do
    [ -x "$candidate" ] && nvcc=$candidate && break
done
if [ -z "$nvcc" ]; then
    echo "cub_sort: no nvcc here; CUB is not measured"
    exit 0
fi
mkdir -p "$out"
"$nvcc" -O3 -std=c++17 -arch=native -o "$out/cub_sort" "$here/cub_sort.cu" ||
    "$nvcc" -O3 -std=c++17 -arch=sm_90 -o "$out/cub_sort" "$here/cub_sort.cu"
"$out/cub_sort" "$@"
