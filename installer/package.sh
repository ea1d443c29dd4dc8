#!/usr/bin/env bash
# Kept for old habits: the installers are built by `mvn -Pdist package` (installer/linux/build.sh), output in
# target/dist/. Arguments are the package types: installer/package.sh app-image deb
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -Pdist -DskipTests package ${1:+-Ddist.types="$*"}
