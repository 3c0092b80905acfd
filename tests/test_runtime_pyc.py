"""The recorder's precompiled modules (web/static/pyc, scripts/build_runtime_pyc.sh) are
those of the current sources: the worker imports them without compiling anything."""

import _imp
import json
from pathlib import Path

from web import assets, bundles

ROOT = Path(__file__).parent.parent
REBUILD = "stale: run scripts/build_runtime_pyc.sh (needs node) and commit the bundle"
CACHE = "__pycache__"


def bundle():
    return bundles.unpack(assets.RUNTIME_PYC.read_bytes())


def test_every_runtime_module_is_precompiled_from_its_current_source():
    files = bundle()
    sources = sorted((ROOT / "runtime").glob("*.py"))
    assert sorted(files) == [f"runtime/{CACHE}/{p.stem}.cpython-314.pyc" for p in sources], REBUILD
    for path in sources:
        pyc = files[f"runtime/{CACHE}/{path.stem}.cpython-314.pyc"]
        assert int.from_bytes(pyc[4:8], "little") == 0b11   # hash-based, checked on import
        key = int.from_bytes(pyc[:4], "little")
        assert pyc[8:16] == _imp.source_hash(key, path.read_bytes()), f"{path.name}: {REBUILD}"


def test_the_bundle_is_for_the_vendored_pyodide():
    """Its magic number is that of the CPython inside the vendored Pyodide."""
    lock = json.loads((assets.PYODIDE_DIR / "pyodide-lock.json").read_text())
    assert lock["info"]["python"].startswith("3.14")
    magics = {pyc[:4] for pyc in bundle().values()}
    assert magics == {(3627).to_bytes(2, "little") + b"\r\n"}


def test_its_compressed_copies_are_of_it():
    import brotli
    import gzip
    data = assets.RUNTIME_PYC.read_bytes()
    assert brotli.decompress(assets.RUNTIME_PYC.with_name(assets.RUNTIME_PYC.name + ".br").read_bytes()) == data
    assert gzip.decompress(assets.RUNTIME_PYC.with_name(assets.RUNTIME_PYC.name + ".gz").read_bytes()) == data
