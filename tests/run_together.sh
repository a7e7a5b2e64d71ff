#!/bin/sh
# Runs the command lines read from standard input (one a line, each by sh)
# all at once, and prints their output one after the other, in the order
# given. On llvmpipe most of a suite's time is compiling shaders, one core a
# program: commands run side by side keep every core busy where one keeps
# about one. tools/run.sh feeds it a test program's shares (PLUME_TEST_SHARD,
# tests/support/run_tables.c) and the shorter checks.
# Exits non-zero when any command failed (a test, a sanitizer, a crash).
set -u
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
count=0
while IFS= read -r command; do
    [ -n "$command" ] || continue
    printf '%s\n' "$command" > "$logs/$count.command"
    sh -c "$command" > "$logs/$count.log" 2>&1 < /dev/null &
    echo $! > "$logs/$count.pid"
    count=$((count + 1))
done
failed=0
k=0
while [ "$k" -lt "$count" ]; do
    wait "$(cat "$logs/$k.pid")" || { echo "(exit $?)" >> "$logs/$k.log"; failed=$((failed + 1)); }
    k=$((k + 1))
done
k=0
while [ "$k" -lt "$count" ]; do
    echo "=== $(cat "$logs/$k.command")"
    cat "$logs/$k.log"
    k=$((k + 1))
done
passed=$(cat "$logs"/*.log /dev/null | sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' | awk '{ s += $1 } END { print s + 0 }')
echo "=== $count commands side by side: $failed failed; $passed tests passed in all"
[ "$failed" -eq 0 ]
