"""The worker's entry (runtime/browser/worker.py) in CPython: what the page's worker and the
build's shipped traces call is the recorder's own packed trace, and stale precompiled
modules are named."""
import importlib.util
import json
import py_compile

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
