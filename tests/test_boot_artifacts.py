"""The fast boot set (web/vendor/loopstep-boot-<version>/) is built, current, intact and
matches the vendored Pyodide. `make build` (scripts/build.py) builds it; this test does not:
it fails, saying so, when the build has not run since an input changed."""
import gzip
import hashlib
import importlib.util
import io
import json
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli
import pytest

from loopstep.web import assets, bundles

from build_script import build

_spec = importlib.util.spec_from_file_location(
    "loopstep_formats_b", Path(__file__).parent / "fixtures" / "formats.py")
formats = importlib.util.module_from_spec(_spec)   # the zero-run form (tests/fixtures/zero_runs.json)
_spec.loader.exec_module(formats)

BOOT_DIR = assets.BOOT_DIR
FILES = ("boot.json", "empty.zip", "python_stdlib.zip", "snapshot.bin")
ROOT = Path(__file__).resolve().parent.parent
REBUILD = "stale: run `make build` (scripts/build.py; needs Node 20+)"


def test_the_build_ran_for_the_current_inputs():
    """build/outputs.json names the digest of today's inputs (the vendored Pyodide, the
    recorder's modules, the lessons, the build scripts) and the outputs on disk."""
    assert build.stale_reason() is None, REBUILD
    recorded = build.stamp()
    # the boot set's files and its shipped traces (traces/, tests/test_shipped_traces.py)
    boot_files = {p.relative_to(ROOT).as_posix() for p in BOOT_DIR.rglob("*") if p.is_file()}
    assert boot_files <= set(recorded["outputs"])
    assert assets.RUNTIME_PYC.relative_to(ROOT).as_posix() in recorded["outputs"]


def test_every_input_counts(monkeypatch):
    """The recorder's modules, the lessons, the build scripts and the vendored Pyodide are
    inputs: a change to one (here: a recorder module's bytes) makes the outputs stale."""
    names = {p.relative_to(ROOT).as_posix() for p in build.inputs()}
    assert {"runtime/recorder.py", "stubs/s06/lesson.toml", "scripts/build_boot.mjs",
            "scripts/build_runtime_pyc.mjs", "scripts/build_boot.py", "web/vendor/PYODIDE_VERSION",
            f"{assets.PYODIDE_DIR.relative_to(ROOT).as_posix()}/pyodide.asm.wasm"} <= names
    assert all(f"runtime/{rel}" in names for rel in bundles.runtime_modules())
    before = build.inputs_digest()
    edited = bundles.RUNTIME_DIR / "trace" / "values.py"
    real = Path.read_bytes   # the file edited, as the digest reads it
    monkeypatch.setattr(Path, "read_bytes", lambda path: b"edited" if path == edited else real(path))
    assert build.inputs_digest() != before
    assert build.stale_reason() == "inputs changed since the last build"


def sums(folder: Path) -> dict[str, str]:
    rows = [line.split() for line in (folder / "SHA256SUMS").read_text().splitlines() if line]
    return {name: digest for digest, name in rows}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def manifest():
    return json.loads((BOOT_DIR / "boot.json").read_text())


def test_sums_list_every_file_and_copy():
    expected = sorted(f"{name}{suffix}" for name in FILES for suffix in ("", ".br", ".gz"))
    assert sorted(sums(BOOT_DIR)) == expected
    on_disk = sorted(p.name for p in BOOT_DIR.iterdir() if p.is_file() and p.name != "SHA256SUMS")
    assert on_disk == expected


@pytest.mark.parametrize("name", [f"{n}{s}" for n in FILES for s in ("", ".br", ".gz")])
def test_file_matches_sums(name):
    assert sha256(BOOT_DIR / name) == sums(BOOT_DIR)[name]


@pytest.mark.parametrize("name", FILES)
def test_compressed_copies_decompress_to_the_file(name):
    data = (BOOT_DIR / name).read_bytes()
    assert brotli.decompress((BOOT_DIR / f"{name}.br").read_bytes()) == data
    assert gzip.decompress((BOOT_DIR / f"{name}.gz").read_bytes()) == data


def test_manifest_names_the_vendored_build(manifest):
    assert manifest["format"] == 1
    assert manifest["pyodide"] == assets.PYODIDE_VERSION
    assert manifest["wasmSha256"] == sums(assets.PYODIDE_DIR)["pyodide.asm.wasm"]
    assert manifest["wasmSha256"] == sha256(assets.PYODIDE_DIR / "pyodide.asm.wasm")
    assert manifest["stockStdlibSha256"] == sha256(assets.PYODIDE_DIR / "python_stdlib.zip")


def test_manifest_describes_the_files(manifest):
    for key in ("stdlib", "snapshot"):
        entry = manifest[key]
        path = BOOT_DIR / entry["file"]
        assert path.stat().st_size == entry["size"]
        assert sha256(path) == entry["sha256"]
    assert manifest["snapshot"]["failed"] == []


def test_the_snapshot_holds_the_current_recorder(manifest):
    """The snapshot has imported the recorder from the current sources, in the folder the
    worker puts them in; a stale one still works (the worker imports the served files,
    tests/node/boot_check.mjs) but costs the reader the import."""
    recorder = manifest["snapshot"]["runtime"]
    assert recorder["folder"] == assets.WORKER_ROOT
    assert recorder["module"] == "runtime.browser.worker"
    current = {f"runtime/{rel}": sha256(bundles.RUNTIME_DIR / rel) for rel in bundles.runtime_modules()}
    assert recorder["sources"] == current, REBUILD
    # the digest the worker compares with the page's (web/bundles.py runtime_digest): the
    # build makes it from the same files as the server, the same way
    assert recorder["digest"] == bundles.runtime_digest()
    # every module the recorder imports (as CPython imports it here) is in the snapshot
    code = ("import json, sys, runtime.browser.worker; "
            "print(json.dumps(sorted(n for n in sys.modules if n.split('.')[0] == 'runtime')))")
    imported = subprocess.run([sys.executable, "-c", code], cwd=bundles.RUNTIME_DIR.parent,
                              capture_output=True, text=True, check=True).stdout
    assert recorder["modules"] == json.loads(imported)


def stored_memory() -> bytes:
    """snapshot.bin with its zero runs expanded: the snapshot XOR the wasm's data."""
    return formats.expand_zero_runs((BOOT_DIR / "snapshot.bin").read_bytes())


def test_snapshot_is_stored_as_a_delta_against_the_wasm_without_its_zero_runs(manifest):
    """The static-data part of the stored memory is XOR the wasm's data segments: mostly
    zeros (web/static/js/boot/snapshot-delta.js; boot.js decodes it, tests/node/boot_check.mjs
    restores it); runs of zeros are left out of the file."""
    assert manifest["snapshot"]["encoding"] == "zero-runs+xor-data-segments"
    packed = (BOOT_DIR / "snapshot.bin").read_bytes()
    data = stored_memory()
    assert len(packed) < 0.4 * len(data)
    offset = int.from_bytes(data[4:8], "little")
    static = data[offset + 1024:offset + 1024 + 400_000]   # the first data segment's range
    assert static.count(0) > 0.95 * len(static)


def test_the_placeholder_is_an_empty_zip(manifest):
    path = BOOT_DIR / manifest["placeholder"]
    assert zipfile.ZipFile(path).namelist() == []


def pyodide_constant(pattern: str, file: str) -> str:
    found = re.search(pattern, (assets.PYODIDE_DIR / file).read_text(encoding="utf-8"))
    assert found, f"{pattern} not found in the vendored {file}"
    return found.group(1)


def test_snapshot_header_is_pyodides():
    """The header Pyodide's makeSnapshot writes and restoreSnapshot checks: u32 magic,
    u32 offset of the heap, u32 length of the JSON at byte 48, u32 0, the 256-bit
    build id; then the heap, a whole number of 64 KiB wasm pages."""
    data = stored_memory()
    magic, offset, length, reserved = struct.unpack_from("<4I", data)
    build_id = "".join(f"{word:08x}" for word in struct.unpack_from("<8I", data, 16))
    magic_name = pyodide_constant(r'if\(\w+\[0\]!==([\w$]+)\)throw new Error\("Snapshot has invalid magic',
                                  "pyodide.asm.mjs")
    assert magic == int(pyodide_constant(rf"[,\s]{re.escape(magic_name)}=(\d+)", "pyodide.asm.mjs"))
    assert magic.to_bytes(4, "little") == b"\0snp"
    assert reserved == 0
    assert build_id == pyodide_constant(r'BUILD_ID:"([0-9a-f]{64})"', "pyodide.mjs")
    state = json.loads(data[48:48 + length])
    assert set(state) == {"hiwireKeys", "immortalKeys"}
    assert offset == -(-(48 + 2 * length) // 16) * 16   # makeSnapshot's rounding
    assert (len(data) - offset) % 65536 == 0 and len(data) > offset


def test_stdlib_is_precompiled_and_deterministic(manifest):
    data = (BOOT_DIR / "python_stdlib.zip").read_bytes()
    infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    names = [info.filename for info in infos]
    assert names == sorted(names)
    assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in infos)
    assert not [n for n in names if n.endswith(".py")]
    assert {"json/__init__.pyc", "ast.pyc", "tomllib/__init__.pyc", "dataclasses.pyc",
            "copy.pyc", "types.pyc", "pathlib/__init__.pyc"} <= set(names)
    # unchecked hash-based pycs (PEP 552): flags word is 0b01, no timestamps inside
    flags = {int.from_bytes(zipfile.ZipFile(io.BytesIO(data)).read(n)[4:8], "little")
             for n in names if n.endswith(".pyc")}
    assert flags == {1}
    assert manifest["stdlib"]["files"] == len(names)
