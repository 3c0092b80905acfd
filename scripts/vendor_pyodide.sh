#!/usr/bin/env bash
# Re-create web/vendor/pyodide-$VERSION/ from the npm registry and verify it; $VERSION is
# web/vendor/PYODIDE_VERSION (the one place it is written: change it there to move on).
#   scripts/vendor_pyodide.sh           fetch, copy the boot set, verify against SHA256SUMS
#   scripts/vendor_pyodide.sh --init    (first vendoring) write SHA256SUMS from what was fetched
# Precompressed .br and .gz copies of each file are written beside it.
# npm is needed by this script only; Node 20+ also by the build (`make build`), never to run the app.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
VERSION=$(tr -d '[:space:]' < "$here/web/vendor/PYODIDE_VERSION")
dest="$here/web/vendor/pyodide-$VERSION"
files="pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json"
init=()
[ "${1:-}" = "--init" ] && init=(--init)
"$here/scripts/npm_vendor.sh" "${init[@]}" pyodide "$VERSION" "$dest" $files
cd "$dest"
node "$here/scripts/precompress.mjs" $files
echo "vendored pyodide $VERSION into $dest"
