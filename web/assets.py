"""Where the served files are, their content types and cache policies.

Serving them (precompressed copies, ETags, ranges) is web/files.py's; a static export
and the nginx configuration in deploy/ use the same types and policies.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
from pathlib import Path

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
VENDOR_DIR = HERE / "vendor"
# The vendored Pyodide's version: written in this one file, which scripts/vendor_pyodide.sh
# and the build (scripts/build.py) read too; the page receives it through its URLs.
PYODIDE_VERSION = (VENDOR_DIR / "PYODIDE_VERSION").read_text("utf-8").strip()
PYODIDE_DIR = VENDOR_DIR / f"pyodide-{PYODIDE_VERSION}"
PYODIDE_URL = f"/vendor/pyodide-{PYODIDE_VERSION}/"
# The CPython inside it (its pyodide-lock.json), e.g. "3.14.2", and its .pyc cache tag.
PYODIDE_PYTHON = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_bytes())["info"]["python"]
PYODIDE_CACHE_TAG = "cpython-" + "".join(PYODIDE_PYTHON.split(".")[:2])
# The fast boot set, built from the vendored Pyodide (scripts/build.py, `make build`),
# not held in the repository.
BOOT_DIR = VENDOR_DIR / f"loopstep-boot-{PYODIDE_VERSION}"

# A digest of the fast boot set (of its SHA256SUMS), put on its files' URLs (?v=): they are
# served as immutable, and a rebuilt set must not be taken from a cache. Read once, like
# the early script: the set is rebuilt by `make build`, then the app restarts.
_BOOT_SUMS = BOOT_DIR / "SHA256SUMS"
BOOT_VERSION = (hashlib.sha256(_BOOT_SUMS.read_bytes()).hexdigest()[:16]
                if _BOOT_SUMS.is_file() else "")
CODEMIRROR_VERSION = "6.0.2"
CODEMIRROR_DIR = VENDOR_DIR / f"codemirror-{CODEMIRROR_VERSION}"
# The script that starts the Python worker, inlined in the document's head (no request
# before it runs) and allowed by its hash in the Content-Security-Policy (server.py,
# deploy/nginx/loopstep.conf)
EARLY_SCRIPT = (STATIC_DIR / "js" / "boot" / "runtime-early.js").read_text("utf-8")
EARLY_SCRIPT_HASH = "'sha256-" + base64.b64encode(
    hashlib.sha256(EARLY_SCRIPT.encode("utf-8")).digest()).decode("ascii") + "'"
# The recorder's modules precompiled by the vendored Pyodide (built: scripts/build.py)
RUNTIME_PYC = STATIC_DIR / "pyc" / f"runtime.{PYODIDE_CACHE_TAG}.bin"
BOOT_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
              "python_stdlib.zip", "pyodide-lock.json")

# A wrong type for the wasm makes loadPyodide hang instead of failing: be explicit.
CONTENT_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".html": "text/html; charset=utf-8",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
# Where the page's worker puts the recorder and the lessons in Pyodide's file system (its
# sys.path entry); the build (scripts/build.py) hands it to the Node scripts that record
# in that Pyodide as the worker does.
WORKER_ROOT = "/loopstep"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Never changed under the same URL: the versioned runtime folders and the page's bundle,
# whose file names carry their content's digest (scripts/build_page.py); its manifest
# is not one of them.
IMMUTABLE_PREFIXES = ("/vendor/", "/static/js/bundle/")


def immutable(url: str) -> bool:
    return url.startswith(IMMUTABLE_PREFIXES) and not url.endswith("/manifest.json")


def files_digest(files: dict[str, Path | bytes]) -> str:
    """One sha256 of files' paths and contents (bytes, or a file's path: read then), in
    path order: the build's stamp, the shipped traces' and the page bundle's sources."""
    total = hashlib.sha256()
    for rel in sorted(files):
        data = files[rel]
        data = data.read_bytes() if isinstance(data, Path) else data
        total.update(f"{rel}\0{hashlib.sha256(data).hexdigest()}\n".encode())
    return total.hexdigest()


def write_gz(path: Path, data: bytes) -> None:
    """A deterministic gzip copy of `data` beside `path` (`path.gz`: no name, no time),
    which servestatic and nginx's gzip_static send as it is."""
    with open(path.with_name(path.name + ".gz"), "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
            gz.write(data)


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix, "application/octet-stream")


def boot_sizes() -> dict[str, int]:
    """Uncompressed size of each file a first boot fetches, for the page's progress bar:
    the stock boot set, with the fast boot's files in place of the stock standard
    library: the snapshot when the boot set has one (boot.js's default path), else the
    trimmed standard library (boot.js falls back to the stock files when it must)."""
    sizes = {name: (PYODIDE_DIR / name).stat().st_size for name in BOOT_FILES}
    for name in ("python_stdlib.zip", "boot.json"):
        if (BOOT_DIR / name).is_file():
            sizes[name] = (BOOT_DIR / name).stat().st_size
    if (BOOT_DIR / "snapshot.bin").is_file():
        del sizes["python_stdlib.zip"]
        sizes["snapshot.bin"] = (BOOT_DIR / "snapshot.bin").stat().st_size
    return sizes
