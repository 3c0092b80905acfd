"""The worker's entry (runtime/browser/worker.py) in CPython: what the page's worker and the
build's shipped traces call is the recorder's own packed trace, and stale precompiled
modules are named."""
import importlib.util
import json
import py_compile
from pathlib import Path

import pytest

from loopstep.runtime.browser import worker
from loopstep.runtime.catalog.lessons import BUNDLED_ROOTS
from loopstep.runtime.recorder import record_packed
from loopstep.runtime.trace import wire

ROOTS = [str(root) for root in BUNDLED_ROOTS]


def test_record_is_the_recorders_packed_trace():
    packed = worker.record("s06", "run_subagent", "limit", ROOTS, 0)
    assert wire.unpack(packed) == wire.unpack(record_packed("s06", "run_subagent", "limit",
                                                            roots=ROOTS))


def test_record_takes_questions_setup_and_limits_as_the_worker_sends_them():
    questions = json.dumps({"breakpoints": [], "watches": ["len(messages)"]})
    trace = wire.unpack(worker.record("s06", "run_subagent", "normal", ROOTS, 10, None,
                                      questions))
    assert trace["probes"]["watches"] == ["len(messages)"]
    assert trace["status"] == "step_limit" and len(trace["steps"]) == 10


def test_stale_names_modules_compiled_from_other_sources(tmp_path):
    fresh, edited, gone = (tmp_path / f"{name}.py" for name in ("fresh", "edited", "gone"))
    for source in (fresh, edited, gone):
        source.write_text("X = 1\n")
    compiled = []
    for source in (fresh, edited, gone):
        target = importlib.util.cache_from_source(str(source))
        py_compile.compile(str(source), cfile=target, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        compiled.append(target)
    edited.write_text("X = 2\n")
    gone.unlink()
    assert worker.stale(compiled) == [str(edited), str(gone)]


def test_a_fork_or_questions_nested_too_deeply_are_refused_before_parsing():
    deep = '{"call": "model:1", "value": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ValueError, match=r"fork: nested too deeply at \$\.value"):
        worker.record("s06", "run_subagent", "normal", ROOTS, 0, fork=deep)
    with pytest.raises(ValueError, match=r"questions: nested too deeply at \$"):
        worker.record("s06", "run_subagent", "normal", ROOTS, 0, questions="[" * 70 + "]" * 70)


FIXTURES = Path(__file__).parent / "browser" / "fixture_lessons"
REAL = (FIXTURES / "recorded" / "real.json").read_text("utf-8")


@pytest.mark.parametrize("run", [
    ("s06", "run_subagent", "normal", ROOTS, {}),
    ("recorded", "agent_loop", "real", [str(FIXTURES)], {"recording": REAL}),
], ids=["scripted", "replayed"])
def test_a_long_run_hands_over_its_first_steps_then_returns_the_whole_run(run):
    lesson, block, scenario, roots, extra = run
    whole = wire.unpack(worker.record(lesson, block, scenario, roots, 0, **extra))
    heard = []
    packed = worker.record(lesson, block, scenario, roots, 0, first_steps=8,
                           partial=heard.append, **extra)
    assert wire.unpack(packed) == whole and len(whole["steps"]) > 8
    [first] = [wire.unpack(text) for text in heard]
    assert first["status"] == "step_limit" and first["limit"]["kind"] == "steps"
    assert first["steps"] == whole["steps"][:8]
    if "recording" in extra:   # the calls its steps made, of the recording's
        assert (first["replay"]["made"], first["replay"]["calls"]) == (1, 2)


def test_a_run_no_longer_than_its_first_steps_is_recorded_once():
    whole = worker.record("recorded", "agent_loop", "real", [str(FIXTURES)], 0, recording=REAL)
    steps = len(wire.unpack(whole)["steps"])
    heard = []
    assert worker.record("recorded", "agent_loop", "real", [str(FIXTURES)], 0, recording=REAL,
                         first_steps=steps, partial=heard.append) == whole
    # nor when the run's own cap is no more than its first steps
    assert wire.unpack(worker.record("s06", "run_subagent", "normal", ROOTS, 5, first_steps=5,
                                     partial=heard.append))["status"] == "step_limit"
    assert heard == []
