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
init=()
[ "${1:-}" = "--init" ] && init=(--init)
"$here/scripts/npm_vendor.sh" "${init[@]}" pyodide "$VERSION" "$dest" $files
cd "$dest"
node "$here/scripts/precompress.mjs" $files
echo "vendored pyodide $VERSION into $dest"
