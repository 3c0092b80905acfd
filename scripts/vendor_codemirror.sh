#!/usr/bin/env bash
# Re-create web/vendor/codemirror-$VERSION/ from the npm registry and verify it.
#   scripts/vendor_codemirror.sh          install the exact packages of scripts/codemirror/
#                                         (package-lock.json), bundle them with esbuild into one
#                                         ES module, verify it against SHA256SUMS
#   scripts/vendor_codemirror.sh --init   (first vendoring, or after a version change)
#                                         write package-lock.json and SHA256SUMS
# Writes codemirror.mjs (+ .br/.gz), LICENSES.md (the license of every bundled package),
# README.md (versions and sha256) and SHA256SUMS.
# Node.js and npm are needed by this script only, never to run or test the app.
set -euo pipefail
VERSION=6.0.2
here=$(cd "$(dirname "$0")/.." && pwd)
src="$here/scripts/codemirror"
dest="$here/web/vendor/codemirror-$VERSION"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/package.json" "$src/entry.mjs" "$tmp/"
cd "$tmp"
if [ "${1:-}" = "--init" ]; then
  npm install --silent --no-audit --no-fund
  cp package-lock.json "$src/package-lock.json"
else
  cp "$src/package-lock.json" .
  npm ci --silent --no-audit --no-fund
fi
mkdir -p "$dest"
npx --no-install esbuild entry.mjs --bundle --format=esm --minify --legal-comments=none \
  --target=es2020 --metafile=meta.json --outfile="$dest/codemirror.mjs" --log-level=warning
node "$src/notices.mjs" meta.json "$dest" "$VERSION"
cd "$dest"
if [ "${1:-}" = "--init" ]; then
  sha256sum codemirror.mjs > SHA256SUMS
fi
sha256sum -c SHA256SUMS
node "$here/scripts/precompress.mjs" codemirror.mjs
echo "vendored codemirror $VERSION into $dest"
