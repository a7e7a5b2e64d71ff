#!/bin/sh
# Runs the command lines read from standard input (one a line, each by sh),
# at most N at once, starting each in the order given as soon as one before
# it ends, and prints their output one after the other, in that order, each
# with its seconds. On llvmpipe most of a suite's time is compiling shaders,
# one core a program: N processes keep N cores busy where one keeps about
# one. Longest first gives the shortest run. tools/run.sh feeds it the
# suites' shares (PLUME_TEST_SHARD, tests/support/run_tables.c) and the
# shorter checks.
# Usage: ... | sh tests/run_together.sh N
# Exits non-zero when any command failed (a test, a sanitizer, a crash).
set -u
at_once=${1:-2}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
count=0
while IFS= read -r command; do
    [ -n "$command" ] || continue
    printf '%s\n' "$command" > "$logs/$count.command"
    count=$((count + 1))
done

# Command k in the background: its output, then its seconds and exit
# status in files of its own (the status file last: it says k has ended).
start() {
    (
        began=$(date +%s)
        sh -c "$(cat "$logs/$1.command")" > "$logs/$1.log" 2>&1 < /dev/null
        status=$?
        echo $(($(date +%s) - began)) > "$logs/$1.seconds"
        echo "$status" > "$logs/$1.status"
    ) &
}

began=$(date +%s)
next=0
ended=0
while [ "$ended" -lt "$count" ]; do
    ended=0
    for marker in "$logs"/*.status; do [ -e "$marker" ] && ended=$((ended + 1)); done
    while [ "$next" -lt "$count" ] && [ $((next - ended)) -lt "$at_once" ]; do
        start "$next"
        next=$((next + 1))
    done
    [ "$ended" -lt "$count" ] && sleep 1
done
wait

failed=0
k=0
while [ "$k" -lt "$count" ]; do
    status=$(cat "$logs/$k.status")
    echo "=== $(cat "$logs/$k.command") ($(cat "$logs/$k.seconds") s)"
    cat "$logs/$k.log"
    [ "$status" -eq 0 ] || { echo "=== (exit $status)"; failed=$((failed + 1)); }
    k=$((k + 1))
done
passed=$(cat "$logs"/*.log 2>/dev/null | sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' |
    awk '{ s += $1 } END { print s + 0 }')
echo "=== $count commands, $at_once at once, in $(($(date +%s) - began)) s: $failed failed;" \
    "$passed tests passed in all"
[ "$failed" -eq 0 ]
