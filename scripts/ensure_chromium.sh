#!/usr/bin/env bash
# Make sure there is a Chromium to drive (Node.js is scripts/ensure_node.sh's) and print its
# path. `scripts/ensure_chromium.sh [shell|browser]`:
#   shell (the default, the browser tests): Chromium's headless shell, the build Playwright
#     itself runs headless pages in; the same engine without the browser's own windows and
#     UI, so a test costs ~15 % less CPU (docs/performance.md, "The test suite's time").
#     Order: $LOOPSTEP_CHROMIUM, /usr/bin/chromium-headless-shell, then on Debian as root
#     `apt-get install -y chromium-headless-shell`, then /usr/bin/chromium.
#   browser (the benchmarks, whose figures are a reader's Chromium): $LOOPSTEP_CHROMIUM,
#     /usr/bin/chromium, then on Debian as root `apt-get install -y chromium`.
# Otherwise fail with what to do.
set -euo pipefail
apt="$(dirname "$0")/apt_get.sh"   # apt-get, one at a time
kind=${1:-shell}
case "$kind" in
  shell) package=chromium-headless-shell ;;
  browser) package=chromium ;;
  *) echo "usage: $0 [shell|browser]" >&2; exit 2 ;;
esac
if [ -n "${LOOPSTEP_CHROMIUM:-}" ]; then
  [ -x "$LOOPSTEP_CHROMIUM" ] || { echo "LOOPSTEP_CHROMIUM=$LOOPSTEP_CHROMIUM is not an executable" >&2; exit 1; }
  echo "$LOOPSTEP_CHROMIUM"
  exit 0
fi
if [ ! -x "/usr/bin/$package" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing: $package" >&2
  "$apt" update -qq >&2
  DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq "$package" >&2 || true
fi
for found in "/usr/bin/$package" /usr/bin/chromium; do
  if [ -x "$found" ]; then
    echo "$found"
    exit 0
  fi
done
echo "The browser tests need Chromium. Install it (Debian: apt-get install -y $package)" >&2
echo "or point LOOPSTEP_CHROMIUM at a Chromium/Chrome executable." >&2
exit 1
