"""The vendored Pyodide boot set is exactly the npm package's, and its compressed twins match."""
import gzip
import hashlib
import subprocess
from pathlib import Path

import brotli
import pytest

from loopstep.web import assets

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


def test_the_version_is_the_vendored_pyodides():
    """web/vendor/PYODIDE_VERSION names the one vendored Pyodide folder, whose loader says
    the same version."""
    folders = sorted(p.name for p in assets.VENDOR_DIR.glob("pyodide-*") if p.is_dir())
    assert folders == [f"pyodide-{assets.PYODIDE_VERSION}"]
    loader = (assets.PYODIDE_DIR / "pyodide.mjs").read_text(encoding="utf-8")
    assert f'"{assets.PYODIDE_VERSION}"' in loader


def test_the_version_is_written_in_one_place():
    """Everything outside the vendored folders reads the version (web/assets.py,
    web/vendor/PYODIDE_VERSION); only the benchmark's recorded results and the report made
    from them, which say what was measured, may name it."""
    root = Path(__file__).resolve().parent.parent
    found = subprocess.run(["git", "grep", "-l", "-F", assets.PYODIDE_VERSION, "--", ":!web/vendor"],
                           cwd=root, capture_output=True, text=True)
    assert found.returncode in (0, 1), found.stderr
    assert set(found.stdout.split()) <= {"bench/results.json", "docs/performance.md"}
