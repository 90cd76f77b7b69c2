#!/bin/sh
# Regenerates tests/golden/digests.txt from the native CLI.
#
# Only run this when a change of generated output is deliberate: review the
# diff, bump CT_ALGORITHM_VERSION in core/include/ct.h when published
# semantics change, and say so in the commit message. The native suite
# (tests/c/test_golden.c) and the WASM suite (tests/js/golden.test.mjs) both
# compare against this file, so it pins native and WebAssembly output alike.
set -eu
cd "$(dirname "$0")/../.."
make --no-print-directory terrain >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
{
    echo "# Frozen generation IDs and chunk digests. Regenerate deliberately with"
    echo "# tests/golden/regenerate.sh (see its header). Format:"
    echo "#   world PRESET generation HEX"
    echo "#   chunk PRESET FACE LOD X Y digest HEX"
    # Presets at their own settings; chunks on several faces, a cube edge
    # (+X x=63 touches -Z), a face corner (-Y 3 7 0) and a whole face at LOD 0.
    for preset in balanced walk noise regional; do
        ./terrain --preset "$preset" --out "$out" \
            --chunk +Z 6 22 52 --chunk +X 6 63 10 --chunk -Y 3 7 0 --chunk +Y 0 0 0 \
          | awk -v p="$preset" '
              $1 == "generation" { print "world " p " generation " $2 }
              $1 == "chunk" { print "chunk " p " " $2 " " $3 " " $4 " " $5 " digest " $7 }'
    done
} > tests/golden/digests.txt
echo "wrote tests/golden/digests.txt"
# Scatter and sites stand on the generated ground: their digests follow it.
sh tests/golden/regenerate_scatter.sh
