"""The source tree as the ``loopstep`` package, for the build scripts, which run with the
Python that runs make (the standard library only, nothing installed): the repository's
root is the package's folder, as pyproject.toml maps it for an install."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def as_package() -> None:
    """Make ``import loopstep`` (and ``loopstep.web``, ``loopstep.runtime``, …) import this
    tree, unless a ``loopstep`` is imported already."""
    if "loopstep" in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(
        "loopstep", ROOT / "__init__.py", submodule_search_locations=[str(ROOT)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["loopstep"] = module
    spec.loader.exec_module(module)
