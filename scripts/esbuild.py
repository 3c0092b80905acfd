"""Find esbuild, the bundler of the page's modules (scripts/build_page.py).

    python3 scripts/esbuild.py        # prints the executable's path

Order: $LOOPSTEP_ESBUILD; a copy fetched earlier into $LOOPSTEP_ESBUILD_CACHE (default
~/.cache/loopstep/esbuild-<version>-<arch>); else the npm registry's
@esbuild/linux-<arch>@VERSION package (the official esbuild binary, one file), checked
against its integrity in scripts/codemirror/package-lock.json and unpacked into that
cache. The version is pinned there: the same sources give the same bundle everywhere.

The standard library only, like the rest of the build.
"""
from __future__ import annotations

import io
import json
import os
import platform
import subprocess
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npm_package  # noqa: E402  (scripts/npm_package.py)

# The one pin of esbuild: the lock file the vendored CodeMirror is bundled with
# (scripts/vendor_codemirror.sh), which holds each platform package's integrity too.
LOCK = Path(__file__).resolve().parent / "codemirror" / "package-lock.json"
_PACKAGES = json.loads(LOCK.read_text("utf-8"))["packages"]
VERSION = _PACKAGES["node_modules/esbuild"]["version"]


def integrity(arch: str) -> str:
    """The lock's dist.integrity of @esbuild/linux-<arch>@VERSION."""
    package = _PACKAGES.get(f"node_modules/@esbuild/linux-{arch}", {})
    if package.get("version") != VERSION or not package.get("integrity"):
        raise SystemExit(f"esbuild: {LOCK} pins no @esbuild/linux-{arch}@{VERSION}")
    return package["integrity"]

ARCHES = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}


def platform_arch() -> str:
    arch = ARCHES.get(platform.machine().lower())
    if arch is None or not sys.platform.startswith("linux"):
        raise SystemExit(f"esbuild: no pinned binary for {sys.platform}/{platform.machine()}; "
                         "point LOOPSTEP_ESBUILD at an esbuild " + VERSION)
    return arch


def cache_dir(arch: str) -> Path:
    if os.environ.get("LOOPSTEP_ESBUILD_CACHE"):
        return Path(os.environ["LOOPSTEP_ESBUILD_CACHE"])
    return npm_package.cache_root() / f"esbuild-{VERSION}-{arch}"


def version_of(executable: str) -> str | None:
    try:
        done = subprocess.run([executable, "--version"], capture_output=True, text=True,
                              timeout=30)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def fetch(arch: str, folder: Path) -> Path:
    """The package's tarball from the registry, checked, its binary written to `folder`."""
    url = f"/@esbuild/linux-{arch}/-/linux-{arch}-{VERSION}.tgz"
    data = npm_package.download(url, integrity(arch), "esbuild")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        binary = archive.extractfile("package/bin/esbuild")
        if binary is None:
            raise SystemExit(f"esbuild: {url} holds no package/bin/esbuild")
        body = binary.read()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "esbuild"
    partial = folder / "esbuild.partial"
    partial.write_bytes(body)
    partial.chmod(0o755)
    partial.replace(target)
    return target


def find() -> str:
    """The esbuild executable (VERSION), fetched on first use."""
    given = os.environ.get("LOOPSTEP_ESBUILD")
    if given:
        if version_of(given) != VERSION:
            raise SystemExit(f"esbuild: LOOPSTEP_ESBUILD={given} is not esbuild {VERSION}")
        return given
    arch = platform_arch()
    cached = cache_dir(arch) / "esbuild"
    if cached.is_file() and version_of(str(cached)) == VERSION:
        return str(cached)
    fetched = fetch(arch, cache_dir(arch))
    if version_of(str(fetched)) != VERSION:
        raise SystemExit(f"esbuild: the fetched {fetched} does not run here")
    return str(fetched)


if __name__ == "__main__":
    print(find())
