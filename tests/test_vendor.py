"""The vendored Pyodide boot set is exactly the npm package's, and its compressed twins match."""
import gzip
import hashlib
from pathlib import Path

import brotli
import pytest

from web import assets

SUMS = assets.PYODIDE_DIR / "SHA256SUMS"


def manifest() -> dict[str, str]:
    rows = [line.split() for line in SUMS.read_text().splitlines() if line.strip()]
    return {name: digest for digest, name in rows}


def test_manifest_names_exactly_the_boot_set():
    assert sorted(manifest()) == sorted(assets.BOOT_FILES)


@pytest.mark.parametrize("name", assets.BOOT_FILES)
def test_file_matches_manifest(name):
    data = (assets.PYODIDE_DIR / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == manifest()[name]


@pytest.mark.parametrize("name", assets.BOOT_FILES)
def test_precompressed_copies_decompress_to_the_file(name):
    data = (assets.PYODIDE_DIR / name).read_bytes()
    assert brotli.decompress((assets.PYODIDE_DIR / f"{name}.br").read_bytes()) == data
    assert gzip.decompress((assets.PYODIDE_DIR / f"{name}.gz").read_bytes()) == data


def test_license_notice_is_shipped():
    notice = (assets.PYODIDE_DIR / "THIRD_PARTY_NOTICES.md").read_text()
    assert "MPL" in notice or "Mozilla Public License" in notice
    for component in ("CPython", "zlib", "bzip2", "xz", "zstd", "SQLite", "Expat",
                      "libmpdec", "libffi", "musl", "libc++"):
        assert component.lower() in notice.lower(), component
