"""The fast boot's import hooks (runtime/browser/boot_hooks.py), run in CPython as the boot
runs them in the page: the file's text in a namespace of its own (boot.json carries it)."""
import io
import sys
import zipfile
from pathlib import Path

from loopstep.runtime.browser import boot_hooks

SOURCE = Path(boot_hooks.__file__).read_text("utf-8")


class Bytes:
    """What a JS loader hands Python: a buffer with ``to_bytes()``."""

    def __init__(self, data):
        self.data = data

    def to_bytes(self):
        return self.data


def zipped(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def hooks():
    namespace = {"__name__": "boot_hooks"}
    exec(compile(SOURCE, "boot_hooks.py", "exec"), namespace)
    return namespace


def test_the_source_runs_alone_and_names_the_python():
    namespace = hooks()
    assert namespace["python_version"]() == sys.version.split()[0]


def test_a_module_only_in_the_stock_library_loads_it_once(tmp_path, monkeypatch):
    loads = []
    data = zipped({"loopstep_stock_probe/__init__.py": "", "loopstep_stock_probe/deep.py": "X = 42\n"})

    def load():
        loads.append(1)
        return Bytes(data)

    stock = tmp_path / "stock.zip"
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.setattr(sys, "path", list(sys.path))
    hooks()["install_stock_stdlib"](["loopstep_stock_probe", "loopstep_stock_probe.deep"],
                                    load, str(stock))
    try:
        from loopstep_stock_probe.deep import X
        assert X == 42
        import loopstep_stock_probe  # noqa: F401
        assert loads == [1] and stock.read_bytes() == data
    finally:
        for name in ("loopstep_stock_probe", "loopstep_stock_probe.deep"):
            sys.modules.pop(name, None)


def test_the_trimmed_zip_is_written_when_first_needed_and_checked(tmp_path, monkeypatch):
    import hashlib
    import types
    import zipimport
    if sys.version_info < (3, 12):   # the page's Python has _sha2; CPython 3.11 _sha256
        monkeypatch.setitem(sys.modules, "_sha2", types.SimpleNamespace(sha256=hashlib.sha256))
    data = zipped({"probe_mod.pyc": b""})
    path = str(tmp_path / "trimmed.zip")
    monkeypatch.setitem(zipimport._zip_directory_cache, path, {"probe_mod.pyc": None})
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    install = hooks()["install_trimmed_on_demand"]
    install(lambda: Bytes(data), path, hashlib.sha256(data).hexdigest())
    finder = sys.meta_path[0]
    assert finder.find_spec("json") is None                       # not in the trimmed zip
    assert finder.find_spec("probe_mod") is None and finder not in sys.meta_path
    assert Path(path).read_bytes() == data
    install(lambda: Bytes(b"other"), path, hashlib.sha256(data).hexdigest())
    try:
        sys.meta_path[0].find_spec("probe_mod")
        raise AssertionError("a zip that differs must not load")
    except ImportError as error:
        assert "did not load intact" in str(error)


def test_after_a_snapshot_each_path_entry_stays_once(monkeypatch):
    monkeypatch.setattr(sys, "path", ["/a", "/b", "/a", "/c", "/b"])
    hooks()["after_snapshot"]()
    assert sys.path == ["/a", "/b", "/c"]
