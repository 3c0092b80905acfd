#!/usr/bin/env bash
# Re-create tests/vendor/axe-core-$VERSION/ (the accessibility audit engine of the browser
# tests) from the npm registry and verify it against SHA256SUMS.
#   scripts/vendor_axe.sh           fetch, copy, verify
#   scripts/vendor_axe.sh --init    (first vendoring) write SHA256SUMS from what was fetched
# axe-core is MPL-2.0; its LICENSE is copied beside it. It is used by the tests only,
# never served to readers. npm is needed by this script only.
set -euo pipefail
VERSION=4.14.1
here=$(cd "$(dirname "$0")/.." && pwd)
dest="$here/tests/vendor/axe-core-$VERSION"
init=()
[ "${1:-}" = "--init" ] && init=(--init)
"$here/scripts/npm_vendor.sh" "${init[@]}" axe-core "$VERSION" "$dest" axe.min.js LICENSE
echo "vendored axe-core $VERSION into $dest"
