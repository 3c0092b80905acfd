#!/usr/bin/env bash
# Make sure the nginx tests (`pytest tests/browser --site=nginx`) have an nginx, with the
# brotli_static module where Debian has it. Prints the nginx executable. Order:
# $LOOPSTEP_NGINX, `nginx` on PATH or /usr/sbin/nginx, then on Debian as root
# `apt-get install -y nginx libnginx-mod-http-brotli-static`; otherwise fail with what to do.
# The tests run their own nginx process on a free loopback port; no service is started here.
set -euo pipefail
apt="$(dirname "$0")/apt_get.sh"   # apt-get, one at a time
if [ -n "${LOOPSTEP_NGINX:-}" ]; then
  [ -x "$LOOPSTEP_NGINX" ] || { echo "LOOPSTEP_NGINX=$LOOPSTEP_NGINX is not an executable" >&2; exit 1; }
  echo "$LOOPSTEP_NGINX"
  exit 0
fi
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
brotli_module=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
nginx_path=$(find_nginx)
if [ -z "$nginx_path" ] || [ ! -e "$brotli_module" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    want="nginx"
    "$apt" update -qq >&2
    if apt-cache show libnginx-mod-http-brotli-static >/dev/null 2>&1; then
      want="$want libnginx-mod-http-brotli-static"
    fi
    echo "installing: $want" >&2
    DEBIAN_FRONTEND=noninteractive "$apt" install -y -qq $want >&2
    nginx_path=$(find_nginx)
  elif [ -z "$nginx_path" ]; then
    echo "The nginx tests need nginx. Install it (Debian: apt-get install -y nginx" >&2
    echo "libnginx-mod-http-brotli-static) or point LOOPSTEP_NGINX at an nginx executable." >&2
    exit 1
  fi
fi
[ -n "$nginx_path" ] || { echo "nginx was not found after installing it" >&2; exit 1; }
echo "$nginx_path"
