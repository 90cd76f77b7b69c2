#!/bin/sh
# Runs the native test binaries given as arguments, CT_TEST_JOBS at a time
# (default 2: both cores of the reference machine), prints each one's output
# in argument order once all have finished, and adds up their
# "N passed, M failed" lines into "native: N passed, M failed".
# The binaries known to take longest start first, so that no core is left
# running one of them alone at the end (order of start only; the output
# keeps the argument order).
jobs=${CT_TEST_JOBS:-2}
LONG="test_skips test_coasts test_knob_effect test_rivers test_ground"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ct-native-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# "index path" lines: the long ones first, then the rest in argument order.
{
    i=0
    for t in "$@"; do
        i=$((i + 1))
        case " $LONG " in *" ${t##*/} "*) echo "$i $t" ;; esac
    done
    i=0
    for t in "$@"; do
        i=$((i + 1))
        case " $LONG " in *" ${t##*/} "*) ;; *) echo "$i $t" ;; esac
    done
} | xargs -P "$jobs" -L 1 sh -c '"$2" >"$0/$1.out" 2>&1; echo $? >"$0/$1.rc"' "$tmp"

passed=0; failed=0
i=0
for t in "$@"; do
    i=$((i + 1))
    out=$(cat "$tmp/$i.out" 2>/dev/null); rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo 127)
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
