#!/usr/bin/env bash
# The Debian root of the lab's full guests, packages only (mmdebstrap --mode=root --variant=minbase): the
# slow part of prepare-as-root.sh, cached on its own under OUT/tree/KEY (KEY = this script + the package
# versions), so that a change of the guest's configuration does not download and install it again.
# Root only. Prints the tree's directory. Usage: build-root-tree.sh OUT
source "$(dirname "$0")/lab-common.sh"
[ "$(id -u)" = 0 ] || die "build-root-tree.sh needs root (mmdebstrap --mode=root)"
need mmdebstrap mmdebstrap
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
SUITE="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$SUITE" ] || die "cannot tell the Debian suite from /etc/os-release"
PACKAGES="$LAB_ROOT_PACKAGES"
# shellcheck disable=SC2086
KEY="$(cache_key "$LAB_DIR/lab-common.sh" "$LAB_DIR/build-root-tree.sh" -- $PACKAGES)"
DEST="$OUT/tree/$KEY"
if [ -f "$DEST/.lab-done" ]; then echo "$DEST"; exit 0; fi
# apt sources: this machine's own (the guest gets the same mirror and security updates)
SOURCES=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -s "$f" ] && grep -qvE '^\s*(#|$)' "$f" && SOURCES+=("$f")
done
[ "${#SOURCES[@]}" -gt 0 ] || die "no apt sources on this machine"
rm -rf "$DEST.tmp"; mkdir -p "$OUT/tree"
mmdebstrap --mode=root --variant=minbase --include="$(echo "$PACKAGES" | tr ' ' ,)" --skip=cleanup/apt/lists \
  "$SUITE" "$DEST.tmp" "${SOURCES[@]}" >&2
touch "$DEST.tmp/.lab-done"
rm -rf "$DEST"; mv "$DEST.tmp" "$DEST"
echo "$DEST"
