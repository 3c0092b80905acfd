"""Async agents in the bundled Pyodide (Node): ``asyncio.run`` runs on the run's loop
(no WebAssembly stack switching), and the traces of the async test lessons, under both
backends, equal CPython's — steps, values, stacks with their tasks, the agent calls, the
task that ran each step and each task's states."""

import pytest
from async_lesson import make_lesson
from pyodide_node import record_in_pyodide

from loopstep.runtime.recorder import record

RUNS = [("aagent", "tools", "both"), ("aagent", "agent_loop", "both"),
        ("atools", "all", "normal"), ("atools", "stuck", "normal"), ("asub", "both", "split"),
        ("atasks", "main", "normal")]
BACKENDS = ("monitoring", "settrace")


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    temp = tmp_path_factory.mktemp("async_pyodide")
    roots = make_lesson(temp / "lessons")
    files = {f"{lesson}/{path.name}": str(path)
             for lesson in ("aagent", "atools", "asub", "atasks")
             for path in (roots / lesson).iterdir()}
    jobs = [{"lesson": lesson, "block": block, "scenario": scenario, "backend": backend}
            for backend in BACKENDS for lesson, block, scenario in RUNS]
    code = ("import asyncio, json, pyodide.webloop as w\n"
            "json.dumps([type(asyncio.get_event_loop()).__name__,"
            " asyncio.run is w._run])")
    result = record_in_pyodide(temp, files, jobs, code=code)
    traces = dict(zip([(backend, run) for backend in BACKENDS for run in RUNS],
                      result["traces"]))
    return {"roots": [str(roots)], "traces": traces, "after": result["value"]}


def neutral(trace):
    """The trace without its Python and backend, and without the carets 3.13+ draw under
    a traceback's line (3.11 draws none there)."""
    found = {key: value for key, value in trace.items() if key not in ("python", "backend")}
    found["stdout"] = "".join(line for line in trace["stdout"].splitlines(True)
                              if not (line.strip() and set(line.strip()) <= set("~^")))
    return found


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("run", RUNS, ids=["/".join(run) for run in RUNS])
def test_the_page_steps_async_programs_as_cpython_does(pyodide, backend, run):
    trace = pyodide["traces"][(backend, run)]
    assert trace["python"].startswith("3.14") and trace["backend"] == backend
    cpython = record(*run, roots=pyodide["roots"])
    assert neutral(trace) == neutral(cpython)
    assert trace["status"] == ("exception" if run[1] == "stuck" else "finished")


def test_the_pages_own_loop_is_back_after_the_runs(pyodide):
    assert pyodide["after"] == '["WebLoop", true]'
