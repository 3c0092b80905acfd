"""Options shared by the whole suite, and the audit that keeps it self-contained."""

import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_BESIDE = []   # files the test process opened or listed beside the repository
# the shared temporary folder, read once: a test may point `tempfile` elsewhere for a while
_SHARED_TEMP = Path(tempfile.gettempdir()).resolve()


def beside_the_repository(path, root=ROOT):
    """A path in the repository's own parent folder but outside the repository (the
    place a development checkout keeps material a clone does not have)."""
    parent = root.parent
    if parent == Path(parent.anchor) or parent in (Path.home(), _SHARED_TEMP):
        return False   # the repository sits in a shared place: only the static scan applies
    try:
        path = Path(path).resolve()
    except (OSError, TypeError, ValueError):
        return False
    return path.is_relative_to(parent) and not path.is_relative_to(root)


def _audit(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, Path)):
        if beside_the_repository(args[0]):
            _BESIDE.append(str(args[0]))


def pytest_addoption(parser):
    parser.addoption("--site", choices=("server", "export", "nginx"), default="server",
                     help="run the browser tests against the server (default), a static export "
                          "served by Python's http.server, or an export served by nginx with "
                          "deploy/nginx/loopstep.conf")


def pytest_configure(config):
    sys.addaudithook(_audit)


def _long_files():
    lines = (ROOT / "tests" / "long_files.txt").read_text("utf-8").splitlines()
    paths = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    missing = [path for path in paths if not (ROOT / path).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/long_files.txt names files that are not there: {missing}")
    return paths


def pytest_collection_modifyitems(items):
    """The long files first (tests/long_files.txt, then those marked `slow`), so that
    `make test`'s two workers, each handed whole files in this order (xdist's
    --no-loadscope-reorder), do not end with one long file left on one of them."""
    rank = {path: number for number, path in enumerate(_long_files())}

    def key(item):
        path = item.nodeid.split("::")[0]
        return rank.get(path, len(rank)), item.get_closest_marker("slow") is None
    items.sort(key=key)


@pytest.fixture(autouse=True)
def _nothing_read_beside_the_repository():
    yield
    if _BESIDE:
        found, _BESIDE[:] = list(_BESIDE), []
        pytest.fail(f"the test read files outside the repository: {found}")
