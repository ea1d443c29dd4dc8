#!/usr/bin/env bash
# The uncompressed vmlinux of a bzImage, cached in CACHE by the bzImage's hash; prints its path.
# Usage: extract-vmlinux.sh BZIMAGE CACHE
source "$(dirname "$0")/lab-common.sh"
mkdir -p "$2"
out="$2/$(sha256sum "$1" | cut -c1-16).vmlinux"
if [ ! -s "$out" ]; then
  extract_vmlinux "$1" "$out.tmp"
  mv "$out.tmp" "$out"
fi
echo "$out"
