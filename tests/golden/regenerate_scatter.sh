#!/bin/sh
# Regenerates tests/golden/scatter.txt (scatter and sites digests) from the
# native library through tools/scatter_golden.c.
#
# Run it when a change of scatter or sites output is deliberate (the
# catalogue, the grid, the rules), or after generation output changed (the
# instances stand on the ground): review the diff and say so in the commit.
# tests/c/test_scatter.c and tests/js/scatter.test.mjs compare against it.
set -eu
cd "$(dirname "$0")/../.."
make --no-print-directory build/native/libct.a >/dev/null
tool=$(mktemp)
trap 'rm -f "$tool" "$tool.txt"' EXIT
cc -std=c99 -pedantic -Wall -Wextra -Werror -ffp-contract=off -O2 -Icore/include -Itests/c \
    tools/scatter_golden.c build/native/libct.a -lm -pthread -o "$tool"
"$tool" > "$tool.txt"
mv "$tool.txt" tests/golden/scatter.txt
echo "wrote tests/golden/scatter.txt"
