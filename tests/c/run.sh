#!/bin/sh
# Runs each native test binary and adds up their "N passed, M failed" lines.
passed=0; failed=0; broken=0
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out" | grep -v '^ok ' 
    line=$(printf '%s\n' "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    p=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    [ -n "$line" ] || { p=0; f=1; echo "$t: no summary (exit $rc)"; }
    [ "$rc" = 0 ] || [ "$f" != 0 ] || { f=1; echo "$t: exit status $rc"; }
    passed=$((passed + p)); failed=$((failed + f))
done
echo "native: $passed passed, $failed failed"
[ "$failed" = 0 ]
