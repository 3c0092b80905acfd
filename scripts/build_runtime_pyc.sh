#!/usr/bin/env bash
# Re-build web/static/pyc/runtime.cpython-314.bin (the recorder's modules precompiled by the
# vendored Pyodide, checked against their sources on import). Needs Node 20+.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec node "$here/scripts/build_runtime_pyc.mjs" "$@"
