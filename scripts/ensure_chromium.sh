#!/usr/bin/env bash
# Make sure the browser tests have a Chromium (Node.js is scripts/ensure_node.sh's).
# Prints the Chromium path. Order: $LOOPSTEP_CHROMIUM, /usr/bin/chromium, then on
# Debian as root `apt-get install -y chromium`; otherwise fail with what to do.
set -euo pipefail
apt="$(dirname "$0")/apt_get.sh"   # apt-get, one at a time
need_apt=""
if [ -n "${LOOPSTEP_CHROMIUM:-}" ]; then
  [ -x "$LOOPSTEP_CHROMIUM" ] || { echo "LOOPSTEP_CHROMIUM=$LOOPSTEP_CHROMIUM is not an executable" >&2; exit 1; }
elif [ ! -x /usr/bin/chromium ]; then
  need_apt="chromium"
fi
if [ -n "$need_apt" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing: $need_apt" >&2
    "$apt" update -qq >&2
    DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq $need_apt >&2
  else
    echo "The browser tests need Chromium. Install it (Debian: apt-get install -y chromium)" >&2
    echo "or point LOOPSTEP_CHROMIUM at a Chromium/Chrome executable." >&2
    exit 1
  fi
fi
echo "${LOOPSTEP_CHROMIUM:-/usr/bin/chromium}"
