"""Mutated lesson files: every bundled lesson.toml and every test fixture lesson, changed
at random places (a value of another type, a key deleted, an entry duplicated, an unknown
key added, a list or a text emptied, a value swapped for another of the same file) and
written back. Each must either fail to load with a LessonError that names the file, or
load into a lesson whose every page and API route answers 200 through the app.

Deterministic (derandomized, no example database) and bounded: about EXAMPLES files."""
import copy
import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from loopstep import server
from loopstep.runtime.catalog import lessons as catalog
from loopstep.runtime.catalog.lessons import LessonError

pytestmark = pytest.mark.slow   # hypothesis mutates every lesson folder

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = 6           # per lesson file
# Every bundled lesson and every lesson folder anywhere under tests/ (a fixture root is the
# folder holding the lesson's folder), found anew on each run.
LESSON_FILES = sorted(
    [(list(catalog.BUNDLED_ROOTS), path) for path in (REPO / "stubs").glob("*/lesson.toml")]
    + [([path.parent.parent], path) for path in (REPO / "tests").rglob("lesson.toml")],
    key=lambda found: str(found[1]))

# Values a mutation puts in: one of each TOML kind, empty ones, and near misses.
VALUES = ["", "x", "normal", "../x.py", 0, 1, -3, 10**6, True, 1.5, [], ["x"], [1], [""],
          {}, {"zh": "x", "en": "x"}, [{"x": 1}], [{"block": "x", "from": 1, "to": 1}],
          ["*"], {"A": "x"}, {"../x": "x"}, ["anthropic"], "reply"]
KEYS = ["extra", "symbol", "symbols", "id", "entry", "name", "lines", "presets", "zh", "fr",
        "tools", "standins", "modules", "model", "shell", "env", "files", "input"]
MUTATIONS = ["retype", "delete", "duplicate", "unknown-key", "empty", "swap"]


def places(node, path=()):
    """Every place in the parsed file: the path of keys and indexes to each value."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from places(value, (*path, index))


def leaves(node):
    return [value for value in (at(node, path) for path in places(node))
            if not isinstance(value, (dict, list))]


def at(node, path):
    for step in path:
        node = node[step]
    return node


def mutate(data, path, kind, value, key):
    """Apply one mutation at `path`; False when it does not apply there."""
    node = at(data, path)
    parent = at(data, path[:-1]) if path else None
    if kind == "retype" and path:
        parent[path[-1]] = copy.deepcopy(value)
    elif kind == "delete" and path:
        del parent[path[-1]]
    elif kind == "duplicate" and isinstance(node, list) and node:
        node.append(copy.deepcopy(node[0]))
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(path[-1], copy.deepcopy(node))
    elif kind == "unknown-key" and isinstance(node, dict):
        node[key] = copy.deepcopy(value)
    elif kind == "empty" and isinstance(node, (dict, list, str)) and path:
        parent[path[-1]] = type(node)()
    elif kind == "swap" and path and not isinstance(node, (dict, list)):
        same = [leaf for leaf in leaves(data) if type(leaf) is type(node) and leaf != node]
        if not same:
            return False
        parent[path[-1]] = same[hash(str(value)) % len(same)]
    else:
        return False
    return True


@st.composite
def mutated(draw, original):
    data = copy.deepcopy(original)
    applied = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(places(data))))
        kind = draw(st.sampled_from(MUTATIONS))
        value, key = draw(st.sampled_from(VALUES)), draw(st.sampled_from(KEYS))
        if mutate(data, path, kind, value, key):
            applied.append((kind, path))
    return data, applied


def urls(lesson):
    """Every page and API route of one lesson, with each block's presets (each page
    holds every preset's setup text; English pages differ only in their labels)."""
    lid = lesson.id
    found = ["/", "/?lang=en", f"/lessons/{lid}", f"/lessons/{lid}?lang=en",
             "/api/lessons", f"/api/lessons/{lid}", f"/py/bundles/lessons/{lid}.bin"]
    found += [f"/py/lessons/{rel}" for rel in lesson.files]
    for block in lesson.blocks:
        bid = block.id
        found += [f"/embed/{lid}/{bid}/", f"/api/lessons/{lid}/blocks/{bid}"]
        found += [f"/embed/{lid}/{bid}?scenario={preset}" for preset in block.presets[1:]]
        found += [f"/api/lessons/{lid}/blocks/{bid}/presets/{preset}" for preset in block.presets]
    return found


def serve_or_fail_clearly(root, toml_path):
    """A LessonError naming `toml_path`, or every route of the lesson answers 200."""
    try:
        app = server.create_app([root])
    except LessonError as error:
        assert str(toml_path) in str(error), str(error)
        return "refused"
    with TestClient(app) as client:
        for lesson in app.state.lessons.values():
            for url in urls(lesson):
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code, response.text[:300])
    return "served"


def lesson_copy(tmp_path_factory, roots, toml_path):
    """The lesson's own files, copied into a lessons root of their own."""
    lesson = catalog.load_lesson(toml_path.parent.name, roots)
    root = tmp_path_factory.mktemp("lessons")
    for rel, path in lesson.files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, root / rel)
    return root, root / lesson.id / "lesson.toml"


@pytest.fixture(scope="module")
def outcomes():
    seen = {"refused": 0, "served": 0}
    yield seen
    if sum(seen.values()) >= EXAMPLES * len(LESSON_FILES):   # the whole module ran
        assert min(seen.values()) >= len(LESSON_FILES), f"too one-sided: {seen}"


@pytest.mark.parametrize("roots,toml_path", LESSON_FILES,
                         ids=[str(path.parent.relative_to(REPO)) for _, path in LESSON_FILES])
def test_a_mutated_lesson_file_fails_clearly_or_serves_every_page(tmp_path_factory, outcomes,
                                                                  roots, toml_path):
    root, copied = lesson_copy(tmp_path_factory, roots, toml_path)
    original = tomllib.loads(toml_path.read_text("utf-8"))
    assert serve_or_fail_clearly(root, copied) == "served"   # the copy itself is valid

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(mutated(original))
    def check(case):
        data, applied = case
        copied.write_text(tomli_w.dumps(data), "utf-8")
        outcomes[serve_or_fail_clearly(root, copied)] += 1

    check()
