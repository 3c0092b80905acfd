#!/usr/bin/env bash
# Copy FILES of the npm package NAME@VERSION into DEST and verify them against DEST/SHA256SUMS
# (with --init first: write SHA256SUMS from what was fetched). Used by the vendor_* scripts.
#   scripts/npm_vendor.sh [--init] NAME VERSION DEST FILE...
set -euo pipefail
init=""
if [ "${1:-}" = "--init" ]; then init=1; shift; fi
name=$1 version=$2 dest=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$name@$version" >/dev/null && tar xzf "$name-$version.tgz")
mkdir -p "$dest"
for f in "$@"; do cp "$tmp/package/$f" "$dest/$f"; done
cd "$dest"
if [ -n "$init" ]; then
  sha256sum "$@" > SHA256SUMS
fi
sha256sum -c SHA256SUMS
