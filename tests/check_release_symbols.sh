#!/bin/sh
# Checks that the shipped library is the product only:
#   1. no object of libplume.a keeps writable process-wide data: no symbol in
#      .data, .bss or their thread-local twins .tdata and .tbss (state
#      belongs to a context; tables are const);
#   2. neither libplume.a nor libplume.so has the laboratory (lab/plume_lab.h,
#      built only into plume_lab with PLUME_LAB) or a benchmark hook.
# Why objdump and not nm: with -fPIC a const table that holds pointers (a
# `static const char *const NAMES[]`) needs load-time relocations, so the
# compiler puts it in .data.rel.ro, which the dynamic loader makes read-only
# once it has relocated it (RELRO). In the object file that section is
# writable, and nm, which reports a symbol's kind from its section's flags,
# prints such a table as `d`/`D` like real .data. objdump -t prints the
# section's name, which tells them apart.
# usage: tests/check_release_symbols.sh [CONFIG]   (default release; build it first)
# Only an optimized build answers for the product: at -O0 (the sanitize
# build) stb_image's never-written settings and tables stay as .data/.bss.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=${1:-release}
archive=${ARCHIVE:-"$root/build/$CONFIG/lib/static/libplume.a"}
shared="$root/build/$CONFIG/lib/libplume.so"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }

# Each data symbol as "object symbol section": objdump -t's line is
# "VALUE FLAGS SECTION<TAB>SIZE NAME"; FLAGS "d" marks a section's own
# symbol, "df" a file, "F" a function (thread-locals have no "O").
writable=$(objdump -t "$archive" | awk -F'\t' '
    /file format/ { object = $0; sub(/:.*/, "", object); next }
    NF == 2 {
        n = split($1, head, " "); section = head[n]
        m = split($2, tail, " "); name = tail[m]
        skip = 0
        for (i = 2; i < n; ++i) if (head[i] == "d" || head[i] == "df" || head[i] == "F") skip = 1
        if (!skip && section ~ /^\.(data|bss|tdata|tbss)(\.|$)/ && section !~ /^\.data\.rel\.ro(\.|$)/)
            print object, name, section
    }')
if [ -z "$writable" ]; then
    pass "libplume.a keeps no writable process-wide data"
else
    echo "$writable" | while read -r object name section; do echo "  $object: $name ($section)"; done
    fail "libplume.a keeps writable process-wide data: $(echo "$writable" | wc -l) symbols above"
fi

# The laboratory's entries and the hooks it sets, by name.
lab_names='plume_lab_|pass_hook|stage_hook|plume_radix_set|plume_feedback_|plume_fragment_use'
lab_static=$(nm --defined-only "$archive" 2>/dev/null | awk '$2 ~ /^[TDRB]$/ {print $3}' | grep -E "$lab_names" || true)
unexpected=$lab_static
[ -z "$unexpected" ] && pass "libplume.a has no lab entry or benchmark hook" \
    || fail "libplume.a defines: $(echo "$unexpected" | tr '\n' ' ')"
lab_shared=$(nm -D --defined-only "$shared" | awk '{print $3}' | grep -E "$lab_names" || true)
[ -z "$lab_shared" ] && pass "libplume.so exports no lab entry or benchmark hook" \
    || fail "libplume.so exports: $(echo "$lab_shared" | tr '\n' ' ')"

[ "$failures" -eq 0 ] && echo "check_release_symbols: all passed" || echo "check_release_symbols: $failures failed"
[ "$failures" -eq 0 ]
