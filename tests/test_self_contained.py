"""The suite needs nothing outside the repository.

1. The lesson texts the verbatim tests compare against are kept in
   ``tests/fixtures/seeds`` with the sha256 their README names.
2. Every path a test module builds from its own location (``Path(__file__)…`` in
   Python, ``import.meta.url`` in the Node scripts) resolves inside the repository
   root, and no test names a folder beside the clone.
3. While the suite runs, ``tests/conftest.py`` audits every file the test process
   opens or lists: one beside the repository (a sibling of its folder) fails the test
   that opened it.
"""

import ast
import hashlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SEEDS = TESTS / "fixtures" / "seeds"


def test_seed_copies_are_the_ones_the_readme_names():
    rows = re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$",
                      (SEEDS / "README.md").read_text("utf-8"), re.M)
    on_disk = sorted(p.name for p in SEEDS.glob("*.txt"))
    assert sorted(name for name, _ in rows) == on_disk and on_disk
    for name, digest in rows:
        assert hashlib.sha256((SEEDS / name).read_bytes()).hexdigest() == digest, name


def _sources():
    return [p for p in TESTS.rglob("*") if p.is_file() and p.suffix in {".py", ".mjs", ".js"}
            and "fixtures" not in p.relative_to(TESTS).parts[:1]]


def _grows(parent, child):
    """Whether `parent` extends the path expression `child`: .parent, .parents[n],
    .resolve(), / "name"."""
    if isinstance(parent, ast.Attribute):
        return parent.attr in {"parent", "parents", "resolve", "absolute"}
    if isinstance(parent, ast.Subscript):
        return parent.value is child
    if isinstance(parent, ast.Call):
        return parent.func is child and not parent.args
    if isinstance(parent, ast.BinOp):
        return isinstance(parent.op, ast.Div) and parent.left is child
    return False


def file_anchored_paths(source):
    """Every path expression built on ``Path(__file__)`` in a Python module, evaluated."""
    tree = ast.parse(source.read_text("utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    values = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "Path" and len(node.args) == 1
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "__file__"):
            continue
        chain = [node]
        while chain[-1] in parents and _grows(parents[chain[-1]], chain[-1]):
            chain.append(parents[chain[-1]])
        for node in reversed(chain):   # the longest part that needs no other name
            try:
                value = eval(compile(ast.Expression(node), str(source), "eval"),
                             {"Path": Path, "__file__": str(source)})
            except NameError:
                continue
            values.append((ast.unparse(node), value))
            break
    return values


@pytest.mark.parametrize("source", _sources(), ids=lambda p: str(p.relative_to(TESTS)))
def test_paths_built_from_a_test_stay_in_the_repository(source):
    if source.suffix == ".py":
        for text, value in file_anchored_paths(source):
            assert value.resolve().is_relative_to(ROOT), f"{text} → {value.resolve()}"
    else:
        here = source.parent
        for call in re.findall(r"path\.resolve\(path\.dirname\(fileURLToPath\(import\.meta\.url\)\)"
                               r"((?:,\s*\"[^\"]*\")*)\)", source.read_text("utf-8")):
            parts = re.findall(r"\"([^\"]*)\"", call)
            assert here.joinpath(*parts).resolve().is_relative_to(ROOT), (source, parts)
    text = source.read_text("utf-8")
    for beside in ("shared/seeds", "/work/", "parents[2]", "parent.parent.parent.parent"):
        assert beside not in text or source == Path(__file__), (source, beside)


def test_the_scan_sees_an_escaping_path(tmp_path):
    """The check above is able to fail: a module that reaches beside the clone."""
    inside = tmp_path / "repo" / "tests"
    inside.mkdir(parents=True)
    module = inside / "test_x.py"
    module.write_text('from pathlib import Path\nSEED = Path(__file__).parent.parent.parent / "shared"\n',
                      "utf-8")
    [(text, value)] = file_anchored_paths(module)
    assert value.resolve() == tmp_path / "shared"
    assert not value.resolve().is_relative_to(tmp_path / "repo")


def test_the_audit_sees_a_file_beside_the_repository():
    spec = importlib.util.spec_from_file_location("loopstep_conftest", TESTS / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    beside_the_repository = conftest.beside_the_repository
    root = Path("/srv/checkout/loopstep")
    assert beside_the_repository("/srv/checkout/shared/seeds/000.txt", root)
    assert beside_the_repository("/srv/checkout/loopstep/../shared", root)
    assert not beside_the_repository("/srv/checkout/loopstep/tests/fixtures/seeds/000.txt", root)
    assert not beside_the_repository("/usr/lib/python3/os.py", root)
