#!/bin/sh
# image_check.sh - builds deploy/Containerfile with buildah (no daemon needed)
# and runs the image the way the Jobs in deploy/k8s/bake-job.yaml do: two
# shards into one shared folder, then merge and verify in a third container.
# The result must equal a native `terrain bake` of the same LODs byte for
# byte. Needs buildah (root, or rootless with subuids); not part of npm test,
# because a fresh CI machine has no container runtime.
#
#   sh deploy/image_check.sh [LODS]        (default 0-3: 510 tiles, ~340 MB)
#
# Without a registry, seed the two base images from a Debian mirror first:
#   debootstrap --variant=minbase bookworm ROOTFS http://deb.debian.org/debian
#   b='buildah --storage-driver vfs'; c=$($b from scratch)
#   cp -a ROOTFS/. "$($b mount "$c")"/ && $b commit "$c" docker.io/library/debian:bookworm
#   $b tag docker.io/library/debian:bookworm docker.io/library/debian:bookworm-slim
set -eu
# vfs storage works everywhere (no overlay or fuse needed); slower, but small
b="buildah --storage-driver ${BUILDAH_STORAGE:-vfs}"
cd "$(dirname "$0")/.."
lods=${1:-0-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/image" "$work/native"
chmod 777 "$work/image"   # the image runs as 65534, like the pods (fsGroup)

$b bud --pull=never --isolation chroot -f deploy/Containerfile -t terrain-bake:check .

in_image() {
    c=$($b from -q terrain-bake:check)
    $b run --isolation chroot -v "$work/image:/bake/out" "$c" -- "$@"
    rc=$?
    $b rm "$c" > /dev/null
    return $rc
}
in_image /usr/local/bin/terrain bake --lods "$lods" --out /bake/out --shard 0/2
in_image /usr/local/bin/terrain bake --lods "$lods" --out /bake/out --shard 1/2
in_image sh -c '/usr/local/bin/terrain bake --merge /bake/out && /usr/local/bin/terrain bake --verify /bake/out'

make --no-print-directory -s terrain
./terrain bake --lods "$lods" --out "$work/native"
diff -r "$work/image" "$work/native"
echo "image_check: the image's sharded bake equals the native bake ($(find "$work/image" -type f | wc -l) files)"
