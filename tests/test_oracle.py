"""Replay fidelity: the page's replay equals a plain ``sys.settrace`` run, step by step.

For every block of the corpus ``tests/oracle_lessons`` (one construct per block), in
CPython (this interpreter's best backend) and in the vendored Pyodide under Node
(``sys.monitoring``, booted once per session):

1. the recorder records the block (``record_packed``, the text the worker posts);
2. ``tests/node/replay_dump.mjs`` feeds it to ``web/static/js/model/trace.js`` and
   ``replay.js`` as shipped and reads, for every step, ``locals(i)`` (the variables
   panel at a cursor on step i) and ``output(i)``;
3. ``tests/oracle.py`` runs the same programs in the same interpreter under a plain
   ``sys.settrace`` hook that snapshots ``f_locals`` of the displayed functions'
   frames (every function of a ``symbols`` block; the module's own frame of a
   ``["*"]`` block, corpus ``multi`` and ``wholefail``) at every event, through the
   same value encoder.

Alignment rule. Frames are numbered in the order of their first event in both runs
(a generator keeps its number across yield and resume). The steps and the oracle's
events are walked in order: step *s* is the first oracle event after the previous
match with the same frame number and event (call/line/return/exception) whose line
lies in the step's statement ``[line, end]``. The events passed over on the way
must be ones the recorder folds or leaves out:

- a "line" event of a frame inside the statement of that frame's last step, when
  that step was a "line" step (a step is a statement: consecutive line events of one
  frame inside one statement fold into its first) or a "call" step (settrace reports
  the line again after a generator resumes, ``sys.monitoring`` does not: nothing ran
  in between, so the locals are the call step's);
- an "unwind" (settrace's "return" when an exception leaves the frame: the recorder
  records the "exception" step and no return);
- an "exception" event for ``StopIteration`` or ``GeneratorExit`` (the iteration
  protocol and ``close()``, which the ``sys.monitoring`` backend reports as no raise).

Every step must be matched, and after the last step only such events may remain.
At each matched pair the step's locals (names and VALUEs, as a mapping: the pane
lists names in the order they were first bound), its output so far, its return value
and its exception equal the oracle's at that event.
"""

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pyodide_node import record_in_pyodide

from loopstep.runtime.trace import wire
from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record_packed

pytestmark = pytest.mark.slow   # the oracle corpus in CPython and in Pyodide

HERE = Path(__file__).parent
REPO = HERE.parent
CORPUS = HERE / "oracle_lessons"

_spec = importlib.util.spec_from_file_location("loopstep_oracle", HERE / "oracle.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

LESSONS = load_lessons([CORPUS])
BLOCKS = [(lesson.id, block.id) for lesson in LESSONS.values() for block in lesson.blocks]
QUIET = {"StopIteration", "GeneratorExit"}


def node():
    found = shutil.which("node")
    assert found, "Node.js (node) is required for the replay oracle tests and was not found"
    return found


def page_replay(packed, tmp_path):
    """What replay.js shows per step, for each packed trace."""
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(packed), "utf-8")
    done = subprocess.run([node(), str(HERE / "node" / "replay_dump.mjs"), str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    shown = json.loads(done.stdout)
    for steps in shown:
        output = ""
        for step in steps:
            output = step.setdefault("output", output)
    return shown


def runs(packed, shown, observed):
    return {block: {"trace": wire.unpack(p), "shown": s, "oracle": o}
            for block, p, s, o in zip(BLOCKS, packed, shown, observed, strict=True)}


@pytest.fixture(scope="session")
def cpython(tmp_path_factory):
    packed = [record_packed(lesson, block, "normal", roots=[CORPUS]) for lesson, block in BLOCKS]
    observed = [oracle.observe(lesson, block, "normal", [CORPUS]) for lesson, block in BLOCKS]
    return runs(packed, page_replay(packed, tmp_path_factory.mktemp("oracle")), observed)


@pytest.fixture(scope="session")
def pyodide(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("oracle_pyodide")
    files = {rel: str(path) for lesson in LESSONS.values() for rel, path in lesson.files.items()}
    files["oracle_support/oracle.py"] = str(HERE / "oracle.py")
    code = ("import json, sys\nsys.path.insert(0, '/loopstep/lessons/oracle_support')\n"
            "import oracle\n"
            f"json.dumps([oracle.observe(l, b, 'normal', ['/loopstep/lessons']) for l, b in {BLOCKS!r}])")
    result = record_in_pyodide(tmp, files, [{"lesson": lesson, "block": b, "scenario": "normal",
                                              "packed": True} for lesson, b in BLOCKS], code=code)
    packed = result["traces"]
    assert {p["backend"] for p in packed} == {"monitoring"}
    return runs(packed, page_replay(packed, tmp), json.loads(result["value"]))


def _passable(event, last):
    """Whether the recorder folds or leaves out this oracle event (module docstring)."""
    if event["event"] == "unwind":
        return True
    if event["event"] == "exception":
        return event["exc"]["type"] in QUIET
    step = last.get(event["frame"])
    return (event["event"] == "line" and step is not None and step["event"] in ("line", "call")
            and step["line"] <= event["line"] <= step["end"])


def align(steps, events):
    """For each step, the index of its oracle event (see the module docstring)."""
    matched = []
    last = {}
    at = 0
    for n, step in enumerate(steps):
        while True:
            assert at < len(events), f"step {n} {_show(step)} has no oracle event"
            event = events[at]
            if (event["frame"] == step["frame"] and event["event"] == step["event"]
                    and step["line"] <= event["line"] <= step["end"]):
                break
            assert _passable(event, last), \
                f"oracle event {at} {_show(event)} has no step (next step {n}: {_show(step)})"
            at += 1
        matched.append(at)
        last[step["frame"]] = step
        at += 1
    rest = [e for e in events[at:] if not _passable(e, last)]
    assert not rest, f"oracle events after the last step have no step: {_show(rest[0])}"
    return matched


def _show(item):
    return f"{item['event']} frame {item['frame']} line {item['line']}"


def compare(run):
    trace, shown, observed = run["trace"], run["shown"], run["oracle"]
    steps, events = trace["steps"], observed["events"]
    assert trace["status"] != "step_limit"
    assert len(shown) == len(steps)
    problems = []
    for n, at in enumerate(align(steps, events)):
        step, event, page = steps[n], events[at], shown[n]
        where = f"step {n} ({_show(step)}, oracle event {at})"
        if dict(map(tuple, page["locals"])) != dict(map(tuple, event["locals"])):
            problems.append(f"{where}: page locals {page['locals']} != oracle {event['locals']}")
        if page["output"] != observed["stdout"][:event["out"]]:
            problems.append(f"{where}: page output {page['output'][-80:]!r} != oracle "
                            f"{observed['stdout'][:event['out']][-80:]!r}")
        if step.get("ret") != event.get("ret") or step.get("exc") != event.get("exc"):
            problems.append(f"{where}: ret/exc {step.get('ret')}/{step.get('exc')} != "
                            f"{event.get('ret')}/{event.get('exc')}")
    assert not problems, "\n".join(problems[:8])
    assert trace["stdout"].startswith(observed["stdout"])
    error = observed["error"]
    if error is None:
        assert (trace["status"], trace["stdout"]) == ("finished", observed["stdout"])
    else:
        assert trace["status"] == "exception"
        assert trace["message"] == f"{error['type']}: {error['message']}"
        assert trace["stdout"].endswith(f"{error['type']}: {error['message']}\n")


def test_the_corpus_is_large_enough():
    assert len(BLOCKS) >= 60


@pytest.mark.parametrize("block", BLOCKS, ids="/".join)
def test_cpython_replay_equals_settrace(cpython, block):
    compare(cpython[block])


@pytest.mark.parametrize("block", BLOCKS, ids="/".join)
def test_pyodide_replay_equals_settrace(pyodide, block):
    compare(pyodide[block])


@pytest.mark.parametrize("runtime", ["cpython", "pyodide"])
def test_a_class_body_shows_only_the_authors_names(runtime, request):
    """__module__, __qualname__ (3.13+: __firstlineno__, __static_attributes__) and a
    super() method's __class__ are the interpreter's: only what the lines bind shows."""
    trace = request.getfixturevalue(runtime)[("classes", "class_body")]["trace"]
    bound = {name for step in trace["steps"] if step["fn"] == "Table" for name in step["set"]}
    assert bound == {"rows", "i", "size"}
    animals = request.getfixturevalue(runtime)[("classes", "animals")]["trace"]
    assert {name for step in animals["steps"] for name in step["set"]
            if name.startswith("__")} == {"__init__"}   # the author's method, not __class__
