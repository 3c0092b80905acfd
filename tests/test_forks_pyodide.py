"""Forks inside the bundled Pyodide (Node, CPython 3.14 with sys.monitoring): the same
calls answered, the same agent part, output and result as in CPython."""

import importlib.util
from pathlib import Path

import pytest
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import CUSTOM, load_lessons
from loopstep.runtime.recorder import record

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_forks", HERE / "test_forks.py")
forks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(forks)

TOOL = {"result": {"type": "tool_result", "tool_use_id": "child_0", "content": "改过的结果",
                   "is_error": False}, "warnings": []}
RUNS = {
    "model": {"lesson": "s06", "block": "run_subagent", "scenario": CUSTOM,
              "setup": forks.counted_setup(), "fork": {"call": "model:2", "value": forks.CHANGED}},
    "tool": {"lesson": "s06", "block": "run_subagent", "scenario": CUSTOM,
             "setup": forks.counted_setup(), "fork": {"call": "tool:1", "value": TOOL}},
    "stand-in": {"lesson": "agent-whole", "block": "agent_loop", "scenario": "reads",
                 "fork": {"call": "model:1", "value": {"content": [{"type": "text", "text": "不用读了"}]}}},
    "handler": {"lesson": "agent-whole", "block": "agent_loop", "scenario": "reads",
                "fork": {"call": "tool:1", "value": "pytest==1.0"}},
    "through-dispatcher": {"lesson": "agent-whole", "block": "loop", "scenario": "turn_limit",
                           "fork": {"call": "tool:3", "value": "x"}},
}


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    lessons = load_lessons()
    files = {}
    for lesson in ("s01", "s06", "agent-whole"):
        files.update({rel: str(path) for rel, path in lessons[lesson].files.items()})
    result = record_in_pyodide(tmp_path_factory.mktemp("forks"), files, list(RUNS.values()))
    assert result["python"].startswith("3.14")
    return dict(zip(RUNS, result["traces"]))


@pytest.mark.parametrize("name", list(RUNS))
def test_a_fork_in_pyodide_answers_as_in_cpython(traces, name):
    run = RUNS[name]
    there = traces[name]
    here = record(run["lesson"], run["block"], run["scenario"], setup=run.get("setup"),
                  fork=run["fork"])
    assert there["backend"] == "monitoring"
    assert there["fork"] == here["fork"] == {"call": run["fork"]["call"], "applied": True}
    for key in ("agent", "stdout", "result", "status", "stacks"):
        assert there[key] == here[key], key
