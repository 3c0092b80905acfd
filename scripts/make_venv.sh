#!/usr/bin/env bash
# Create the virtual environment: `scripts/make_venv.sh PYTHON DIR`.
# Debian's system Python needs the python3-venv package for this; as root it is installed.
set -euo pipefail
apt="$(dirname "$0")/apt_get.sh"   # apt-get, one at a time
python=$1
dir=$2
if ! "$python" -m venv "$dir" 2>/dev/null; then
  rm -rf "$dir"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    "$apt" update -qq
    DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq "python$version-venv" \
      || DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq python3-venv
    "$python" -m venv "$dir"
  else
    echo "$python cannot create a virtual environment; install its venv module (Debian: python3-venv)" >&2
    exit 1
  fi
fi
"$dir/bin/python" -m pip install -q --upgrade pip
