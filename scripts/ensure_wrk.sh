#!/usr/bin/env bash
# Make sure the benchmark's load run has `wrk` (an HTTP load generator). Prints its path.
# Order: $LOOPSTEP_WRK, `wrk` on PATH, then on Debian as root `apt-get install -y wrk`;
# otherwise fail with what to do.
set -euo pipefail
apt="$(dirname "$0")/apt_get.sh"   # apt-get, one at a time
if [ -n "${LOOPSTEP_WRK:-}" ]; then
  [ -x "$LOOPSTEP_WRK" ] || { echo "LOOPSTEP_WRK=$LOOPSTEP_WRK is not an executable" >&2; exit 1; }
  echo "$LOOPSTEP_WRK"
  exit 0
fi
if ! command -v wrk >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing: wrk" >&2
    "$apt" update -qq >&2
    DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq wrk >&2
  else
    echo "The benchmark's load run needs wrk. Install it (Debian: apt-get install -y wrk)" >&2
    echo "or point LOOPSTEP_WRK at a wrk executable." >&2
    exit 1
  fi
fi
command -v wrk
