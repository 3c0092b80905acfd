"""Recorded tool outputs inside the bundled Pyodide (Node, the page's Python): every
handler shape of lcc_agents.py answered from the recording, an unpaired call stopped at
the tool call, and a tolerant replay, each with the same trace as in CPython."""

import pytest
from lcc_agents import SHAPES, captured, imported, write_lesson
from pyodide_node import record_in_pyodide

from loopstep.runtime.recorder import record

RUNS = {shape: {"lesson": shape, "recording": imported()} for shape in SHAPES}
RUNS["unpaired"] = {"lesson": "kwargs_lambdas",
                    "recording": imported(captured(ls_input={"command": "ls"}))}
RUNS["tolerant"] = {"lesson": "kwargs_lambdas", "tolerant": True,
                    "recording": imported(captured(ls_input={"command": "ls"}))}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("lessons")
    for shape in SHAPES:
        write_lesson(root, shape)
    files = {str(path.relative_to(root)): str(path) for path in root.rglob("*") if path.is_file()}
    specs = [{"lesson": run["lesson"], "block": "agent_loop", "scenario": "normal",
              "recording": run["recording"], "tolerant": run.get("tolerant", False)}
             for run in RUNS.values()]
    result = record_in_pyodide(tmp_path_factory.mktemp("pairing"), files, specs)
    return root, dict(zip(RUNS, result["traces"]))


@pytest.mark.parametrize("name", list(RUNS))
def test_recorded_tool_outputs_in_pyodide_as_in_cpython(runs, name):
    root, traces = runs
    run = RUNS[name]
    there = traces[name]
    here = record(run["lesson"], "agent_loop", "normal", roots=[root],
                  recording=run["recording"], tolerant=run.get("tolerant", False))
    assert there["status"] == here["status"] == ("error" if name == "unpaired" else "finished")
    for key in ("agent", "stdout", "message", "replay"):
        assert there[key] == here[key], key
