"""The recorder's precompiled modules (web/static/pyc, built by `make build`:
scripts/build.py runs scripts/build_runtime_pyc.mjs) are those of the current sources,
every module bundles.runtime_modules lists, sub-packages' too: the worker imports them
without compiling anything."""

import _imp
import json

from loopstep.web import assets, bundles

REBUILD = "stale: run `make build` (scripts/build.py; needs Node 20+)"
CACHE = "__pycache__"


def bundle():
    return bundles.unpack(assets.RUNTIME_PYC.read_bytes())


def compiled_path(rel: str) -> str:
    """runtime/REL's .pyc, where Python looks for it (importlib.util.cache_from_source)."""
    folder, _, name = f"runtime/{rel}".rpartition("/")
    return f"{folder}/{CACHE}/{name.removesuffix('.py')}.{assets.PYODIDE_CACHE_TAG}.pyc"


def test_every_runtime_module_is_precompiled_from_its_current_source():
    files = bundle()
    modules = bundles.runtime_modules()
    assert sorted(files) == sorted(compiled_path(rel) for rel in modules), REBUILD
    for rel in modules:
        path = bundles.RUNTIME_DIR / rel
        pyc = files[compiled_path(rel)]
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
