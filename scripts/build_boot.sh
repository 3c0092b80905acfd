#!/usr/bin/env bash
# Re-build web/vendor/loopstep-boot-314.0.8/ (trimmed .pyc stdlib, memory snapshot,
# boot.json, .br/.gz copies, SHA256SUMS) with the vendored Pyodide. Needs Node 20+.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec node "$here/scripts/build_boot.mjs" "$@"
