"""Static files: safe path resolution, content types, precompressed copies, caching.

Only files inside a served folder are ever answered; anything else is a 404.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
VENDOR_DIR = HERE / "vendor"
PYODIDE_VERSION = "314.0.8"
PYODIDE_DIR = VENDOR_DIR / f"pyodide-{PYODIDE_VERSION}"
PYODIDE_URL = f"/vendor/pyodide-{PYODIDE_VERSION}/"
BOOT_DIR = VENDOR_DIR / f"loopstep-boot-{PYODIDE_VERSION}"
CODEMIRROR_VERSION = "6.0.2"
CODEMIRROR_DIR = VENDOR_DIR / f"codemirror-{CODEMIRROR_VERSION}"
BOOT_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
              "python_stdlib.zip", "pyodide-lock.json")

# A wrong type for the wasm makes loadPyodide hang instead of failing: be explicit.
CONTENT_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
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
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@dataclass(frozen=True)
class Asset:
    """One file to answer with: where its bytes are and the headers that go with them."""

    path: Path
    headers: dict[str, str]


def resolve(root: Path, relpath: str) -> Path | None:
    """The file `relpath` under `root`, or None when it is not a plain file inside it."""
    if not relpath or "\x00" in relpath or "\\" in relpath:
        return None
    parts = relpath.split("/")
    if any(p in ("", ".", "..") for p in parts) or relpath.startswith("/"):
        return None
    root = root.resolve()
    candidate = (root / relpath).resolve()
    if root not in candidate.parents or not candidate.is_file():
        return None
    if candidate.suffix in (".br", ".gz") and candidate.with_suffix("").is_file():
        return None  # precompressed copies are chosen by Accept-Encoding, not by name
    return candidate


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix, "application/octet-stream")


def accepted_encodings(accept_encoding: str) -> set[str]:
    accepted = set()
    for item in accept_encoding.split(","):
        name, _, params = item.strip().partition(";")
        if params.strip().replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        accepted.add(name.strip().lower())
    return accepted


def etag_of(path: Path) -> str:
    stat = path.stat()
    digest = hashlib.sha1(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()
    return f'"{digest[:20]}"'


def asset(path: Path, accept_encoding: str, *, immutable: bool) -> Asset:
    """Choose the stored copy (brotli, gzip or plain) and the headers for `path`."""
    headers = {
        "Content-Type": content_type(path),
        "Cache-Control": IMMUTABLE if immutable else REVALIDATE,
    }
    chosen = path
    variants = [(enc, path.with_name(path.name + suffix)) for enc, suffix in ENCODINGS]
    if any(p.is_file() for _, p in variants):
        headers["Vary"] = "Accept-Encoding"
        accepted = accepted_encodings(accept_encoding)
        for enc, variant in variants:
            if enc in accepted and variant.is_file():
                chosen = variant
                headers["Content-Encoding"] = enc
                break
    headers["ETag"] = etag_of(chosen)
    return Asset(chosen, headers)


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
