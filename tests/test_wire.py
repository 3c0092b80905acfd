"""The packed trace (runtime/trace/wire.py): it round-trips to the dict form and stays small."""

import importlib.util
import json
from pathlib import Path

import pytest

from loopstep.runtime.trace import wire
from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record, record_packed

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_recorder_tests", HERE / "test_recorder.py")
recorder_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recorder_tests)

BUNDLED = [(lesson.id, block.id, preset)
           for lesson in load_lessons().values()
           for block in lesson.blocks for preset in block.presets]

# Deletions, generators resumed from different stacks, lambdas, multi-line
# statements, output changes and exceptions caught and uncaught.
SHAPES = '''
def shapes(n):
    items = [1, 2]
    del items
    items = {"k": [n,
                   n + 1]}
    gen = (x * 2 for x in range(3))
    first = next(gen)
    rest = list(gen)
    print("out", first, rest)
    try:
        (lambda v: 1 / v)(0)
    except ZeroDivisionError as err:
        note = str(err)
    print("again")
    return note


def counter(n):
    def step():
        nonlocal n
        n += 1
        yield n
        yield n + 1
    g = step()
    a = next(g)
    b = [next(g) for _ in range(1)]
    return a, b
'''


def test_bundled_lessons_are_listed():
    assert len(BUNDLED) >= 10 and {run[0] for run in BUNDLED} >= {"s06", "s01"}


@pytest.mark.parametrize("run", BUNDLED, ids="/".join)
def test_round_trip_bundled(run):
    trace = record(*run)
    text = wire.pack(trace)
    assert wire.unpack(text) == trace
    assert record_packed(*run) == text
    data = json.loads(text)
    assert data["count"] == len(trace["steps"]) == len(data["event"]) == len(data["line"])
    assert sum(data["frame"][1::2]) == data["count"]


@pytest.mark.parametrize("block", ["shapes", "counter", "spin", "one_line", "deep", "boom"])
@pytest.mark.parametrize("backend", ["settrace", None])
def test_round_trip_fixtures(tmp_path, block, backend):
    root = recorder_tests.write_lesson(tmp_path, SHAPES + recorder_tests.LOOPS)
    trace = record("t", block, "normal", roots=[root], max_steps=3000, backend=backend)
    assert trace["steps"]
    assert wire.unpack(wire.pack(trace)) == trace
    assert wire.unpack(record_packed("t", block, "normal", roots=[root], max_steps=3000,
                                     backend=backend)) == trace


def test_fixture_shapes_are_covered(tmp_path):
    root = recorder_tests.write_lesson(tmp_path, SHAPES)
    trace = record("t", "shapes", "normal", roots=[root])
    steps = trace["steps"]
    assert any("del" in s for s in steps)
    assert any("exc" in s for s in steps)
    assert any(s["end"] != s["line"] for s in steps)
    assert len({s["out"] for s in steps}) >= 3
    data = json.loads(wire.pack(trace))
    assert data["del"] and data["exc"] and data["end"] and data["names"]


MILLION = '''def count(limit):
    total = 0
    i = 0
    while i < limit:
        total += i
        i += 1
    return total
'''


def test_million_steps_pack_under_100_bytes_per_step(tmp_path):
    folder = tmp_path / "spin"
    folder.mkdir()
    (folder / "code.py").write_text(MILLION, "utf-8")
    (folder / "setup.py").write_text("N = 333_334\n", "utf-8")
    (folder / "lesson.toml").write_text(
        'title = {zh = "x", en = "x"}\nsummary = {zh = "x", en = "x"}\n'
        'setup = "spin/setup.py"\nmodules = ["spin/code.py"]\n'
        '[[presets]]\nname = "n"\nzh = "n"\nen = "n"\n'
        '[[blocks]]\nsymbol = "count"\nsource = "spin/code.py"\npresets = ["n"]\n'
        'entry = "print(count(N))\\n"\n', "utf-8")
    text = record_packed("spin", "count", "n", roots=[tmp_path], max_steps=1_000_000)
    data = json.loads(text)
    assert data["count"] == 1_000_000 and data["status"] == "step_limit"
    per_step = len(text.encode("utf-8")) / data["count"]
    assert per_step <= 100, f"{per_step:.1f} bytes per step"


CHECK_JS = """
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { fromPacked } from "%s";
for (const [dictPath, packedPath] of JSON.parse(process.argv[1])) {
  const trace = JSON.parse(readFileSync(dictPath, "utf8"));
  const t = fromPacked(readFileSync(packedPath, "utf8"));
  assert.equal(t.count, trace.steps.length);
  trace.steps.forEach((s, i) => assert.deepEqual(t.at(i), s, `${dictPath} step ${i}`));
  for (const key of ["stdout", "stacks", "status", "error", "result"]) {
    assert.deepEqual(t[key], trace[key], key);
  }
}
console.log("ok");
"""


def test_page_reads_the_packed_form(tmp_path):
    """web/static/js/model/trace.js gives back every step of the dict form."""
    import shutil
    import subprocess
    node = shutil.which("node")
    assert node, "node is required to check the page's trace reader"
    root = recorder_tests.write_lesson(tmp_path / "lessons", SHAPES)
    runs = [(("t", "shapes", "normal"), {"roots": [root]}),
            (("t", "counter", "normal"), {"roots": [root]})]
    runs += [(run, {}) for run in BUNDLED if run[0] == "s06"]
    pairs = []
    for k, (run, kwargs) in enumerate(runs):
        trace = record(*run, **kwargs)
        dict_path, packed_path = tmp_path / f"{k}.json", tmp_path / f"{k}.packed.json"
        dict_path.write_text(json.dumps(trace, ensure_ascii=False), "utf-8")
        packed_path.write_text(wire.pack(trace), "utf-8")
        pairs.append([str(dict_path), str(packed_path)])
    module = (HERE.parent / "web" / "static" / "js" / "model" / "trace.js").as_uri()
    done = subprocess.run([node, "--input-type=module", "-e", CHECK_JS % module,
                           json.dumps(pairs)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]
