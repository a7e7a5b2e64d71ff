#!/bin/sh
# Checks that every public header compiles as C++ on its own, for C++ engines:
# C++11 and C++17, -Wall -Wextra -pedantic -Werror, each header alone in a
# translation unit (so each includes what it needs), then all of them in one.
# Needs no build. usage: tests/check_cxx_headers.sh   (CXX may be set; g++)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
CXX=${CXX:-g++}
failures=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
all="$scratch/all_headers.cpp"
: > "$all"
for header in "$root"/include/plume/*.h; do
    name=$(basename "$header")
    printf '#include <plume/%s>\n' "$name" >> "$all"
    printf '#include <plume/%s>\nint main() { return 0; }\n' "$name" > "$scratch/one.cpp"
    for standard in c++11 c++17; do
        if $CXX -std=$standard -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$root/include" "$scratch/one.cpp"
        then echo "ok:   $name as $standard"
        else echo "FAIL: $name as $standard"; failures=$((failures + 1))
        fi
    done
done
printf 'int main() { return 0; }\n' >> "$all"
for standard in c++11 c++17; do
    if $CXX -std=$standard -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$root/include" "$all"
    then echo "ok:   every header together as $standard"
    else echo "FAIL: every header together as $standard"; failures=$((failures + 1))
    fi
done
[ "$failures" -eq 0 ] && echo "check_cxx_headers: all passed" || echo "check_cxx_headers: $failures failed"
[ "$failures" -eq 0 ]
