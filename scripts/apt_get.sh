#!/usr/bin/env bash
# apt-get, one at a time: `make test` installs Chromium and nginx while the environment is
# made and the build runs (scripts/ensure_*.sh, scripts/make_venv.sh), and apt holds one lock.
set -euo pipefail
exec flock "${TMPDIR:-/tmp}/loopstep-apt.lock" apt-get "$@"
