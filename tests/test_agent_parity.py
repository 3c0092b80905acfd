"""Model and tool calls recorded inside the bundled Pyodide (Node) agree with CPython.

One Node process records every run of agent_facts.RUNS with the sys.monitoring
backend (with and without call capture) and with sys.settrace. The facts hold in
each; the captured calls equal CPython's, their steps pointing at the same lines.
"""

import importlib.util
import json
from pathlib import Path

import pytest
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_agent_facts", HERE / "agent_facts.py")
agent_facts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(agent_facts)
MODES = [("monitoring", True), ("monitoring", False), ("settrace", True)]


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    files = {}
    lessons = load_lessons()
    for lesson_id in {run[0] for run in agent_facts.RUNS}:
        files.update({rel: str(path) for rel, path in lessons[lesson_id].files.items()})
    runs = [{"lesson": lesson, "block": block, "scenario": scenario, "backend": backend,
             "agent": agent}
            for backend, agent in MODES for lesson, block, scenario in agent_facts.RUNS]
    traces = iter(record_in_pyodide(tmp_path_factory.mktemp("agent"), files, runs)["traces"])
    return {mode: {run: next(traces) for run in agent_facts.RUNS} for mode in MODES}


@pytest.fixture(scope="module")
def cpython():
    return {run: record(*run) for run in agent_facts.RUNS}


def _calls_by_line(trace):
    """The captured calls with each step replaced by that step's line (or the end)."""
    agent = json.loads(json.dumps(trace.get("agent")))
    if agent is None:
        return None
    steps = trace["steps"]

    def line(at):
        return steps[at]["line"] if at is not None and at < len(steps) else at

    for record_ in agent["calls"] + agent["tools"]:
        for key in ("step", "ret"):
            record_[key] = line(record_[key])
    for key in ("added", "changed"):
        agent[key] = [line(at) for at in agent[key]]
    return agent


@pytest.mark.parametrize("run", agent_facts.RUNS, ids="/".join)
def test_facts_in_pyodide(pyodide, run):
    assert pyodide[("monitoring", True)][run]["backend"] == "monitoring"
    agent_facts.check(run, pyodide[("monitoring", True)][run])
    agent_facts.check(run, pyodide[("settrace", True)][run])


@pytest.mark.parametrize("run", agent_facts.RUNS, ids="/".join)
def test_capture_leaves_the_pyodide_trace_unchanged(pyodide, run):
    with_capture = dict(pyodide[("monitoring", True)][run])
    with_capture.pop("agent", None)
    assert with_capture == pyodide[("monitoring", False)][run]


@pytest.mark.parametrize("run", agent_facts.RUNS, ids="/".join)
def test_same_calls_as_cpython(pyodide, cpython, run):
    expected = _calls_by_line(cpython[run])
    assert _calls_by_line(pyodide[("monitoring", True)][run]) == expected
    assert _calls_by_line(pyodide[("settrace", True)][run]) == expected
