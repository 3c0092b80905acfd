"""The shipped traces (web/shipped_traces.py, built by scripts/build_shipped_traces.mjs): one per
block × preset of the bundled lessons, current, reproducible, and offered to a page only for
the lesson files they were made from. That each is the run a live Pyodide records (a stock
boot: another process, another heap) is checked where such a recording of every bundled
block × preset is made anyway: tests/test_questions_differential.py's Pyodide run.
Like tests/test_boot_artifacts.py, this does not build: it fails when `make build` is due."""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import brotli
import pytest

from loopstep.runtime.catalog.lessons import BUNDLED_ROOTS, load_lessons
from loopstep.runtime.recorder import DEFAULT_MAX_STEPS
from loopstep.web import bundles, page_data, shipped_traces

from build_script import build

ROOT = Path(__file__).resolve().parent.parent
REBUILD = "stale: run `make build` (scripts/build.py; needs Node 20+)"
LESSONS = load_lessons(BUNDLED_ROOTS)
RUNS = [(lesson.id, block, preset) for lesson in LESSONS.values()
        for block, presets in shipped_traces.runs(lesson).items() for preset in presets]


def shipped_file(lesson: str, block: str, preset: str) -> Path:
    return shipped_traces.DIR / lesson / block / f"{preset}.json"


@pytest.fixture(scope="module")
def index() -> dict:
    assert build.stale_reason() is None, REBUILD
    found = shipped_traces.read_index()
    assert found is not None, REBUILD
    return found


def test_the_index_covers_every_block_and_preset_of_the_current_files(index):
    assert index["runtime"] == bundles.runtime_digest()
    assert index["maxSteps"] == DEFAULT_MAX_STEPS
    assert sorted(index["lessons"]) == sorted(LESSONS)
    for lesson in LESSONS.values():
        entry = index["lessons"][lesson.id]
        assert entry["files"] == shipped_traces.lesson_digest(lesson)
        assert entry["runs"] == shipped_traces.runs(lesson)
    assert len(RUNS) > 40
    for run in RUNS:
        assert shipped_file(*run).is_file(), run


def test_the_traces_are_part_of_the_build_stamp(index):
    stamped = build.stamp()["outputs"]
    for run in RUNS:
        for suffix in ("", ".br", ".gz"):
            path = shipped_file(*run)
            rel = path.with_name(path.name + suffix).relative_to(ROOT).as_posix()
            assert rel in stamped, rel
    inputs = {p.relative_to(ROOT).as_posix() for p in build.inputs()}
    assert {"scripts/build_shipped_traces.mjs", "web/static/js/worker.js", "web/shipped_traces.py"} <= inputs


@pytest.mark.parametrize("run", RUNS, ids=["/".join(r) for r in RUNS])
def test_compressed_copies_decompress_to_the_recording(index, run):
    path = shipped_file(*run)
    data = path.read_bytes()
    assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == data
    assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == data


# rebuilt by the second build: the seed's lesson, a course file's and a team of threads (the
# content of every trace is checked against another process's recording where the Pyodide
# differential test records them all)
REBUILT = ("s06", "lcc-s06", "s09-team")


def test_a_second_build_writes_the_same_bytes(index, tmp_path):
    """Nothing of the moment leaks in: temporary paths, ids, addresses, hash order."""
    config = build.config()
    config["traces"]["dir"] = str(tmp_path / "traces")
    config["traces"]["lessons"] = [lesson for lesson in config["traces"]["lessons"]
                                   if lesson["id"] in REBUILT]
    assert sorted(lesson["id"] for lesson in config["traces"]["lessons"]) == sorted(REBUILT)
    config_path = tmp_path / "config.json"
    config_path.write_text(json.dumps(config), "utf-8")
    node = shutil.which("node")
    assert node, "Node.js (node) is required to rebuild the traces"
    done = subprocess.run([node, str(ROOT / "scripts" / "build_shipped_traces.mjs"),
                           "--config", str(config_path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    again = tmp_path / "traces"
    built = sorted(p.relative_to(shipped_traces.DIR) for lesson in REBUILT
                   for p in (shipped_traces.DIR / lesson).rglob("*") if p.is_file())
    assert built == sorted(p.relative_to(again) for p in again.rglob("*")
                           if p.is_file() and p.name != "index.json")
    for rel in built:
        assert (again / rel).read_bytes() == (shipped_traces.DIR / rel).read_bytes(), rel
    rebuilt = json.loads((again / "index.json").read_text("utf-8"))
    assert rebuilt == {**index, "lessons": {lesson: index["lessons"][lesson] for lesson in REBUILT}}


def test_a_page_is_offered_the_traces_of_the_files_it_serves(index, tmp_path):
    s06 = LESSONS["s06"]
    config = page_data.runtime_config(s06, "zh", "/")
    offered = config["traces"]
    assert offered["url"] == f"/vendor/{shipped_traces.DIR.parent.name}/traces/s06/"
    assert offered["version"] == index["lessons"]["s06"]["version"]
    assert offered["runs"]["run_subagent"][0] == "normal"
    # another step limit: the traces would not be the page's
    assert page_data.runtime_config(s06, "zh", "/", {"maxSteps": 50})["traces"] is None
    # a lesson of the same id whose files differ (`--lessons DIR`) records live
    for root in BUNDLED_ROOTS:
        shutil.copytree(root, tmp_path / root.name, dirs_exist_ok=True)
    setup = tmp_path / "stubs" / "s06" / "setup.py"
    if not setup.is_file():
        setup = next((tmp_path / "lessons").rglob("s06/setup.py"))
    setup.write_text(setup.read_text("utf-8") + "\n# edited\n", "utf-8")
    edited = load_lessons([tmp_path / r.name for r in BUNDLED_ROOTS])["s06"]
    assert page_data.runtime_config(edited, "zh", "/")["traces"] is None
    same = load_lessons([tmp_path / r.name for r in BUNDLED_ROOTS])["s01"]
    assert page_data.runtime_config(same, "zh", "/")["traces"] is not None
