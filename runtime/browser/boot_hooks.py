"""Import hooks of the fast boot (web/static/js/boot/boot.js), run before anything else.

The boot set (scripts/build_boot.mjs) carries this file's text in ``boot.json``
(``hooks.source``); boot.js runs it in a namespace of its own and calls these functions,
so the file runs as it is, in the page's Python or in CPython (tests/test_boot_hooks.py).
Nothing here may import from the trimmed standard library at module level: after a
snapshot restore that zip is a placeholder until the first import that needs it.
"""
import sys
import zipimport


class StockStdlib:
    """Appended to ``sys.meta_path``: only asked for modules nothing else found. A module
    of the stock standard library that the trimmed one left out (``names``) makes it load
    the stock zip once (``load()`` gives its bytes), written to ``path``, then imported
    from it."""

    def __init__(self, names, load, path):
        self.names, self.load, self.path, self.ready = frozenset(names), load, path, False

    def find_spec(self, name, path=None, target=None):
        if name not in self.names:
            return None
        if not self.ready:
            import importlib
            data = self.load().to_bytes()
            with open(self.path, "wb") as out:
                out.write(data)
            self.ready = True
            sys.path.append(self.path)
            importlib.invalidate_caches()
        package = name.rpartition(".")[0]
        where = self.path + ("/" + package.replace(".", "/") if package else "")
        return zipimport.zipimporter(where).find_spec(name)


class TrimmedStdlib:
    """First on ``sys.meta_path`` after a snapshot restore that left the trimmed zip for
    later: the snapshot holds every module the lessons import, and zipimport already knows
    the zip's directory; the first import of another module from it loads the zip (and
    checks its sha256) before zipimport reads it."""

    def __init__(self, load, path, sha256):
        files = zipimport._zip_directory_cache.get(path, {})
        names = set()
        for name in files:
            if name.endswith(".pyc"):
                name = name[:-4].replace("/", ".").removesuffix(".__init__")
                names.add(name)
        self.names, self.load, self.path, self.sha256 = frozenset(names), load, path, sha256

    def find_spec(self, name, path=None, target=None):
        if name not in self.names:
            return None
        sys.meta_path.remove(self)
        data = self.load().to_bytes()
        import _sha2
        if _sha2.sha256(data).hexdigest() != self.sha256:
            raise ImportError(f"{self.path}: the trimmed standard library did not load intact")
        with open(self.path, "wb") as out:
            out.write(data)
        return None


def install_stock_stdlib(names, load, path):
    sys.meta_path.append(StockStdlib(names, load, path))


def install_trimmed_on_demand(load, path, sha256):
    sys.meta_path.insert(0, TrimmedStdlib(load, path, sha256))


def after_snapshot():
    """A restored snapshot's interpreter made ready for this page: each ``sys.path`` entry
    once, and a random generator that is not the snapshot's."""
    sys.path[:] = list(dict.fromkeys(sys.path))
    if "random" in sys.modules:
        sys.modules["random"].seed()


def python_version():
    return sys.version.split()[0]
