#!/usr/bin/env bash
# Make sure the build (scripts/build.py) and the Node tests have Node.js 20 or newer.
# Prints the node executable. Order:
#   1. $LOOPSTEP_NODE (must be Node 20+);
#   2. `node` on PATH, if it is 20+;
#   3. a Node 20 fetched earlier into $LOOPSTEP_NODE_CACHE (default ~/.cache/loopstep/node);
#   4. on Debian as root, `apt-get install -y nodejs`, if that gives 20+ (Debian 13);
#   5. the npm registry's node-linux-<arch>@20 package (the official Node binaries),
#      fetched with `npm pack` into the cache; npm comes from PATH, or on Debian as root
#      from `apt-get install -y npm` (Debian 12's npm, on its Node 18, is enough to fetch it);
# otherwise fails with what to do.
set -euo pipefail
apt="$(dirname "$0")/apt_get.sh"   # apt-get, one at a time
MAJOR=20
cache=${LOOPSTEP_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/loopstep/node}

# the major version of the node at $1, or nothing when it does not run
major() { "$1" --version 2>/dev/null | sed -n 's/^v\([0-9][0-9]*\)\..*/\1/p' | head -n1; }
new_enough() { local m; m=$(major "$1"); [ -n "$m" ] && [ "$m" -ge "$MAJOR" ]; }
as_root_on_debian() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

if [ -n "${LOOPSTEP_NODE:-}" ]; then
  new_enough "$LOOPSTEP_NODE" || {
    echo "LOOPSTEP_NODE=$LOOPSTEP_NODE is not a Node.js $MAJOR or newer" >&2; exit 1; }
  echo "$LOOPSTEP_NODE"
  exit 0
fi
on_path=$(command -v node 2>/dev/null || true)
if [ -n "$on_path" ] && new_enough "$on_path"; then
  echo "$on_path"
  exit 0
fi
if [ -x "$cache/bin/node" ] && new_enough "$cache/bin/node"; then
  echo "$cache/bin/node"
  exit 0
fi

updated=""
apt_install() {
  [ -n "$updated" ] || { "$apt" update -qq >&2; updated=1; }
  echo "installing: $*" >&2
  DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq "$@" >&2
}
if as_root_on_debian && [ -z "$on_path" ]; then
  apt_install nodejs || true
  on_path=$(command -v node 2>/dev/null || true)
  if [ -n "$on_path" ] && new_enough "$on_path"; then
    echo "$on_path"
    exit 0
  fi
fi

case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch="" ;;
esac
npm=$(command -v npm 2>/dev/null || true)
if [ -z "$npm" ] && [ -n "$arch" ] && as_root_on_debian; then
  apt_install npm || true
  npm=$(command -v npm 2>/dev/null || true)
fi
if [ -z "$npm" ] || [ -z "$arch" ]; then
  echo "The build needs Node.js $MAJOR or newer (found: ${on_path:-none}${on_path:+, $(major "$on_path")})." >&2
  echo "Install it (Debian 13: apt-get install -y nodejs), or point LOOPSTEP_NODE at a node $MAJOR+," >&2
  echo "or install npm, with which this script fetches the node-linux-<arch>@$MAJOR package." >&2
  exit 1
fi

package="node-linux-$arch@$MAJOR"
echo "fetching $package from the npm registry into $cache" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(cd "$work" && "$npm" pack --silent "$package" | tail -n1)
[ -f "$work/$tarball" ] || { echo "npm pack $package did not give a tarball" >&2; exit 1; }
mkdir -p "$work/unpacked"
tar -xzf "$work/$tarball" -C "$work/unpacked"
[ -x "$work/unpacked/package/bin/node" ] || { echo "$package holds no bin/node" >&2; exit 1; }
new_enough "$work/unpacked/package/bin/node" || {
  echo "the node in $package does not run here" >&2; exit 1; }
mkdir -p "$(dirname "$cache")"
rm -rf "$cache"
mv "$work/unpacked/package" "$cache"
echo "$cache/bin/node"
