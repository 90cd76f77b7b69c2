#!/bin/sh
# validate.sh - `make validate`: runs the native test suite, both sanitizer
# builds, the sweep and (when the Makefile has it) `make fuzz`, then writes
# docs/validation.md with what actually happened on this machine: exit
# status, wall time, pass/fail counts, the toolchain and the machine. Full
# logs stay in build/validate/. Exit status 1 if any step failed.
set -u
MAKE=${MAKE:-make}
LOG=build/validate
OUT=docs/validation.md
mkdir -p "$LOG"
status=0
rows=""
details=""

# Runs "make TARGET", records its status, wall seconds and summary line.
step() {
    target=$1; pattern=$2
    echo "validate: make $target ..." >&2
    t0=$(date +%s%N)
    $MAKE --no-print-directory "$target" >"$LOG/$target.log" 2>&1
    rc=$?
    t1=$(date +%s%N)
    secs=$(awk "BEGIN { printf \"%.1f\", ($t1 - $t0) / 1e9 }")
    summary=$(grep -E "$pattern" "$LOG/$target.log" | tail -n 1)
    [ -n "$summary" ] || summary="(no summary line; see $LOG/$target.log)"
    if [ "$rc" = 0 ]; then verdict=pass; else verdict="FAIL (exit $rc)"; status=1; fi
    rows="$rows| \`make $target\` | $verdict | $secs s | $summary |
"
    echo "validate: make $target: $verdict in $secs s: $summary" >&2
}

# Per-binary lines ("name: N passed, M failed") of a suite, as a list.
per_binary() {
    grep -E '^[a-z_0-9]+: [0-9]+ passed, [0-9]+ failed' "$LOG/$1.log" | grep -v '^native:' | sed 's/^/    /'
}

date_utc=$(date -u '+%Y-%m-%d %H:%M UTC')
step test 'native: [0-9]+ passed'
step sanitize 'native: [0-9]+ passed'
step thread-sanitize 'native: [0-9]+ passed'
step sweep 'sweep: [0-9]+ worlds'
if grep -qE '^fuzz:' Makefile; then
    step fuzz 'passed|fuzz|runs|execs'
    fuzz_note="\`make fuzz\` exists and was run (its summary line is above; full log in \`$LOG/fuzz.log\`)."
else
    fuzz_note="\`make fuzz\` does not exist on this branch yet (it is being added on another branch); nothing was run for it."
fi

cc_version=$(${CC:-cc} --version 2>/dev/null | head -n 1)
emcc_version=$( (. ./emsdk.env >/dev/null 2>&1; emcc --version 2>/dev/null | head -n 1) )
node_version=$(node --version 2>/dev/null)
zlib_version=$(printf '#include <zlib.h>\n#include <stdio.h>\nint main(void){puts(zlibVersion());return 0;}\n' |
    ${CC:-cc} -x c - -lz -o "$LOG/zv" 2>/dev/null && "$LOG/zv")
cpu=$(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
commit=$(git rev-parse --short HEAD 2>/dev/null)
dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo " plus uncommitted changes")

{
    echo "# Validation record"
    echo
    echo "Written by \`make validate\` (scripts/validate.sh): the actual results of the"
    echo "native suites, the sanitizers, the sweep and the fuzz targets on the machine"
    echo "below. The reference calls this VALIDATION.txt. Re-run \`make validate\` to"
    echo "refresh it; full logs are in \`$LOG/\`."
    echo
    echo "- date: $date_utc"
    echo "- commit: ${commit:-unknown}${dirty:-}"
    echo "- machine: $(uname -srm), $(nproc 2>/dev/null) cores, ${cpu:-unknown cpu}, ${mem:-unknown memory}"
    echo "- C compiler: ${cc_version:-unknown}"
    echo "- Emscripten: ${emcc_version:-not found}"
    echo "- Node: ${node_version:-not found}"
    echo "- zlib (CLI PNGs only): ${zlib_version:-not found}"
    echo
    echo "| step | result | wall time | summary |"
    echo "| --- | --- | ---: | --- |"
    printf '%s' "$rows"
    echo
    echo "$fuzz_note"
    echo
    echo "Wall times are on a shared machine and vary from run to run; the counts do not."
    echo "\`make test\` and \`make sanitize\` run the same binaries (\`tests/c/test_*.c\`);"
    echo "\`make thread-sanitize\` runs them under ThreadSanitizer."
    echo
    echo "## Per test binary (\`make test\`)"
    echo
    echo '```'
    per_binary test | sed 's/^    //'
    echo '```'
    echo
    echo "## Sweep worlds"
    echo
    echo '```'
    grep -E '^world ' "$LOG/sweep.log" | sed -E 's/ +[0-9]+ ms//'
    echo '```'
} >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
echo "validate: wrote $OUT" >&2
exit $status
