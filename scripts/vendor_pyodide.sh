#!/usr/bin/env bash
# Re-create web/vendor/pyodide-$VERSION/ from the npm registry and verify it.
#   scripts/vendor_pyodide.sh           fetch, copy the boot set, verify against SHA256SUMS
#   scripts/vendor_pyodide.sh --init    (first vendoring) write SHA256SUMS from what was fetched
# Precompressed .br and .gz copies of each file are written beside it.
# Node.js and npm are needed by this script only, never to run or test the app.
set -euo pipefail
VERSION=314.0.8
here=$(cd "$(dirname "$0")/.." && pwd)
dest="$here/web/vendor/pyodide-$VERSION"
files="pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "pyodide@$VERSION" >/dev/null && tar xzf "pyodide-$VERSION.tgz")
mkdir -p "$dest"
for f in $files; do cp "$tmp/package/$f" "$dest/$f"; done
cd "$dest"
if [ "${1:-}" = "--init" ]; then
  sha256sum $files > SHA256SUMS
fi
sha256sum -c SHA256SUMS
node "$here/scripts/precompress.mjs" $files
echo "vendored pyodide $VERSION into $dest"
