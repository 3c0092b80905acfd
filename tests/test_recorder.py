"""The trace recorder in this CPython: outputs, stepping facts, bounds, values, goldens."""

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from loopstep.runtime.trace import values
from loopstep.runtime.recorder import record

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_facts", HERE / "facts.py")
facts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(facts)

@pytest.fixture(scope="module")
def traces():
    return {run: record("s06", *run) for run in facts.RUNS}


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_output(traces, run):
    trace = traces[run]
    assert trace["stdout"] == facts.OUTPUTS[run]
    assert trace["status"] == "finished" and trace["message"] is None


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_facts(traces, run):
    for check in facts.FACTS[run]:
        check(traces[run])


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_trace_shape(traces, run):
    trace = traces[run]
    assert json.loads(json.dumps(trace)) == trace
    assert trace["format"] == 1 and trace["first_line"] >= 1
    for step in trace["steps"]:
        assert step["depth"] == len(trace["stacks"][step["stack"]])
        assert 1 <= step["line"] <= step["end"]
        assert ("ret" in step) == (step["event"] == "return")
        assert ("exc" in step) == (step["event"] == "exception")
        assert step["out"] <= len(trace["stdout"].encode("utf-16-le")) // 2
        outer = trace["stacks"][step["stack"]]
        assert outer[0]["hidden"] and outer[0]["file"] == f"s06/entry/{run[0]}.py"


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_deterministic(traces, run):
    assert record("s06", *run) == traces[run]


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_golden(traces, run):
    facts.check_golden(run, traces[run])


def test_unchanged_locals_not_repeated(traces):
    trace = traces[("run_subagent", "normal")]
    seen = {}
    for step in trace["steps"]:
        for name, value in step["set"].items():
            assert seen.get((step["frame"], name)) != value
            seen[(step["frame"], name)] = value


def test_stdout_units_count_utf16(tmp_path):
    root = write_lesson(tmp_path, "def say():\n    print('😀é')\n    return 1\n")
    trace = record("t", "say", "normal", roots=[root])
    assert trace["stdout"] == "😀é\n"
    assert trace["steps"][-1]["out"] == 4


# -- bounds ----------------------------------------------------------------------

LOOPS = '''\
def spin(n):
    while True:
        n += 1


def one_line():
    while True: pass


def swallow():
    while True:
        try:
            x = 1
        except BaseException:
            pass


def deep(n):
    return deep(n + 1) if n < 50 else n


def boom(n):
    items = {"a": [1, 2]}
    return items["b"]
'''


def write_lesson(tmp_path, source, lesson="t", entry=None):
    """A one-block-per-function lesson in a fresh lessons root."""
    folder = tmp_path / lesson
    folder.mkdir(parents=True)
    (folder / "setup.py").write_text("n = 0\n", "utf-8")
    (folder / "code.py").write_text(source, "utf-8")
    blocks = "".join(
        f'[[blocks]]\nsymbol = "{name}"\nsource = "{lesson}/code.py"\npresets = ["normal"]\n'
        f'entry = "result = {name}({args})"\n'
        for name, args in re.findall(r"^def (\w+)\((\w*)\)", source, re.M))
    (folder / "lesson.toml").write_text(
        'title = {zh = "测", en = "T"}\nsummary = {zh = "测", en = "T"}\n'
        f'setup = "{lesson}/setup.py"\nmodules = ["{lesson}/code.py"]\n'
        '[[presets]]\nname = "normal"\nzh = "正常"\nen = "Normal"\n' + blocks, "utf-8")
    return tmp_path


@pytest.fixture
def loops(tmp_path):
    return write_lesson(tmp_path, LOOPS)


def test_infinite_loop_ends_at_step_cap(loops):
    trace = record("t", "spin", "normal", roots=[loops], max_steps=5000)
    assert trace["status"] == "step_limit" and "5000 steps" in trace["message"]
    assert len(trace["steps"]) == 5000
    assert [s["line"] for s in trace["steps"][:5]] == [1, 2, 3, 2, 3]
    assert trace["result"] is None and trace["error"] is None


def test_single_line_loop_ends_at_event_cap(loops):
    trace = record("t", "one_line", "normal", roots=[loops], max_steps=1000)
    assert trace["status"] == "step_limit" and "events inside one step" in trace["message"]
    assert len(trace["steps"]) <= 3


# How soon the caps stop these loops is measured in bench/ (`bench/run.py --only caps`).
# Code that catches the stop itself (the `swallow` fixture) is bounded by the
# monitoring backend only; test_pyodide_parity.py checks it in Pyodide's 3.14.


def test_recursion_frames_and_stacks(loops):
    trace = record("t", "deep", "normal", roots=[loops])
    assert trace["status"] == "finished" and trace["result"] == "50"
    assert max(s["depth"] for s in trace["steps"]) == 51
    assert len({s["frame"] for s in trace["steps"]}) == 51


def test_uncaught_exception(loops):
    trace = record("t", "boom", "normal", roots=[loops])
    assert trace["status"] == "exception"
    assert trace["message"] == "KeyError: 'b'"
    assert trace["error"] == {"type": "KeyError", "message": "'b'", "line": 3}
    assert trace["stdout"].startswith("Traceback (most recent call last):\n")
    assert 'File "t/code.py", line 24, in boom' in trace["stdout"]
    assert "recorder" not in trace["stdout"]
    assert [s["event"] for s in trace["steps"]][-1] == "exception"


def test_stdio_restored(loops):
    before = sys.stdout, sys.stderr, sys.stdin, sys.gettrace()
    record("t", "boom", "normal", roots=[loops])
    record("t", "spin", "normal", roots=[loops], max_steps=10)
    assert (sys.stdout, sys.stderr, sys.stdin, sys.gettrace()) == before


def test_rejects_bad_arguments():
    with pytest.raises(KeyError):
        record("s06", "child_tools", "nonsense")
    with pytest.raises(KeyError):
        record("s06", "nope", "normal")
    with pytest.raises(ValueError):
        record("s06", "child_tools", "normal", max_steps=0)


# -- values ----------------------------------------------------------------------

class Loud:
    def __repr__(self):
        raise RuntimeError("no")


class Plain:
    pass


ENCODINGS = [
    (42, "42"), (None, "None"), (True, "True"), (1.5, "1.5"), ("abc", "'abc'"),
    ("<b>&amp;</b>", "'<b>&amp;</b>'"),
    ("长" * 201, ["str", repr("长" * 200), 201]),
    ({}, ["dict", 0]), ([1, "a"], ["list", 2, "1", "'a'"]), ((1,), ["tuple", 1, "1"]),
    ({"k": [None]}, ["dict", 1, ["'k'", ["list", 1, "None"]]]),
    ({3, 1, 2}, ["set", 3, "1", "2", "3"]),
    (len, "<function len>"), (dict, "<class 'dict'>"), (Loud(), "<Loud object>"),
    (Plain(), "<Plain object>"), (json, "<module 'json'>"),
    (10 ** 5000, "<int of 16610 bits>"),
]


@pytest.mark.parametrize("value,expected", ENCODINGS, ids=[str(i) for i in range(len(ENCODINGS))])
def test_encode(value, expected):
    assert values.encode(value) == expected


def test_encode_lambda_and_address_free():
    assert values.encode(lambda: 1) == "<function <lambda>>"
    text = values.encode(type("N", (), {"__repr__": lambda self: f"<N at 0x{id(self):x}>"})())
    assert "0x" not in text


def test_encode_deep_nesting_is_iterative():
    deep = []
    for _ in range(200_000):
        deep = [deep]
    encoded = values.encode(deep)
    text = json.dumps(encoded)
    assert text.count("list") == values.MAX_DEPTH + 1
    assert encoded[:2] == ["list", 1]


def test_encode_cycles():
    items = [1]
    items.append(items)
    assert values.encode(items) == ["list", 2, "1", "[...]"]
    table = {}
    table["self"] = table
    assert values.encode(table) == ["dict", 1, ["'self'", "{...}"]]


def test_encode_bounds():
    big = list(range(1000))
    encoded = values.encode(big)
    assert encoded[:2] == ["list", 1000] and len(encoded) == 2 + values.MAX_ITEMS
    wide = [[list(range(50)) for _ in range(50)] for _ in range(50)]
    encoded = values.encode(wide)
    assert len(json.dumps(encoded)) < 200_000
    assert encoded[2][:2] == ["list", 50]


def test_encode_long_repr_is_cut():
    class Long:
        def __repr__(self):
            return "x" * 1000
    assert len(values.encode(Long())) == values.MAX_CHARS


@pytest.mark.parametrize("source", [
    "def down(n):\n    return down(n + 1)\n",
    "def down(n):\n    return list(map(down, [n + 1]))\n",
])
def test_running_out_of_stack_is_the_programs_own_error(tmp_path, source):
    root = write_lesson(tmp_path, source)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        trace = record("t", "down", "normal", roots=[root])
    finally:
        sys.setrecursionlimit(limit)
    assert trace["status"] == "exception"
    assert trace["error"]["type"] == "RecursionError"
    assert trace["stdout"].startswith("Traceback (most recent call last):\n")
    # 3.11 adds " while calling a Python object" to the message
    last = trace["stdout"].rstrip().splitlines()[-1]
    assert last.startswith("RecursionError: maximum recursion depth exceeded"), last
    assert "runtime/" not in trace["stdout"] and "traceback.py" not in trace["stdout"]
    assert "[Previous line repeated" in trace["stdout"]
