#!/bin/sh
# fuzz/run.sh SECONDS - runs every libFuzzer harness in build/fuzz for SECONDS
# each (make fuzz builds them first). Each starts from the committed seeds in
# fuzz/seeds/NAME plus, for the binary formats, a real world snapshot and
# chunk written by ./terrain in the current format (so seeds never go stale
# when a format version or the knob table changes). Prints one line per
# harness and a last line "fuzz: N passed, M failed" (scripts/test.mjs reads
# it). Crash inputs are kept in build/fuzz/crashes/.
set -u
cd "$(dirname "$0")/.."
secs=${1:-60}
F=build/fuzz
mkdir -p "$F/crashes" "$F/gen"
./terrain --set macro_resolution=8 --set surface_lod=1 --out "$F/gen" --chunk +Z 1 1 0 >/dev/null || exit 1
passed=0
failed=0
total=0
for name in snapshot ctc config palette set; do
    corpus="$F/corpus/$name"
    mkdir -p "$corpus"
    cp fuzz/seeds/$name/* "$corpus/" 2>/dev/null
    case $name in
        snapshot) cp "$F/gen/world.ctw" "$corpus/world.ctw" ;;
        ctc) cp "$F/gen/chunk_pz_1_1_0.ctc" "$corpus/chunk.ctc" ;;
    esac
    log="$F/$name.log"
    # One process, no forking: the machine is shared. rss limit guards leaks.
    "$F/fuzz_$name" -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=2048 \
        -artifact_prefix="$F/crashes/$name-" "$corpus" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    runs=${runs:-0}
    total=$((total + runs))
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        echo "fuzz $name: $runs executions in ${secs} s, no crash (corpus $(ls "$corpus" | wc -l) inputs)"
    else
        failed=$((failed + 1))
        echo "fuzz $name: FAILED after $runs executions (exit $rc); see $log and $F/crashes/"
        grep -m 5 -E "ERROR|runtime error|SUMMARY" "$log"
    fi
done
echo "fuzz: $total executions in all"
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
