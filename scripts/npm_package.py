"""Node and npm packages for the build: the Node it runs its scripts with (find_node), and a
pinned package fetched from the npm registry (scripts/esbuild.py, scripts/rollup.py), the
tarball checked against its integrity before anything is unpacked.

The standard library only, like the rest of the build.
"""
from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
REGISTRY = os.environ.get("LOOPSTEP_NPM_REGISTRY", "https://registry.npmjs.org").rstrip("/")


def cache_root() -> Path:
    """~/.cache/loopstep (or $XDG_CACHE_HOME/loopstep)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "loopstep"


def download(path: str, integrity: str, label: str) -> bytes:
    """The registry's file at `path` (e.g. "/esbuild/-/esbuild-1.0.0.tgz"), checked against
    `integrity` ("sha512-<base64>", as npm's lock files hold it)."""
    url = f"{REGISTRY}{path}"
    print(f"{label}: fetching {url}", file=sys.stderr)
    with urllib.request.urlopen(url, timeout=120) as response:
        data = response.read()
    algorithm, _, expected = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if got != expected:
        raise SystemExit(f"{label}: {url} does not match its pinned integrity")
    return data


def find_node() -> str:
    """$LOOPSTEP_NODE, else what scripts/ensure_node.sh finds or installs (Node 20+)."""
    if os.environ.get("LOOPSTEP_NODE"):
        return os.environ["LOOPSTEP_NODE"]
    done = subprocess.run([str(SCRIPTS / "ensure_node.sh")], stdout=subprocess.PIPE, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit("build: Node.js 20+ is needed to build (see above)")
    return done.stdout.strip().splitlines()[-1]
