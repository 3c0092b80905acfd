"""The recorder inside the bundled Pyodide (Node) agrees with CPython.

One Node process boots the vendored Pyodide once and records every block ×
preset with the sys.monitoring backend (and, as a vocabulary check, with
sys.settrace), plus the loop fixtures. Outputs and facts must equal CPython's;
exact step sequences are compared with the golden traces CPython is compared with.
"""

import importlib.util
from pathlib import Path

import pytest
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import load_lesson

HERE = Path(__file__).parent
REPO = HERE.parent

_spec = importlib.util.spec_from_file_location("loopstep_facts", HERE / "facts.py")
facts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(facts)
_spec = importlib.util.spec_from_file_location("loopstep_recorder_tests",
                                               HERE / "test_recorder.py")
recorder_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recorder_tests)

LOOP_RUNS = [("spin", 5000), ("one_line", 1000), ("swallow", 100), ("deep", 1000),
             ("boom", 1000)]
SPEED_STEPS = 100_000


def custom_runs():
    """Reader-edited setups (scenario "custom"): a changed model, a syntax error, a raise."""
    text = load_lesson("s06").setup_text("normal")
    return [("run_subagent", text.replace("if index<2:", "if index<9:")),
            ("run_subagent", text.replace("if index<2:", "if index<2")),
            ("child_tools", text.replace("QUESTION=", "tools = undefined\nQUESTION="))]


def run_node(tmp_path):
    loops = recorder_tests.write_lesson(tmp_path / "loops", recorder_tests.LOOPS)
    lesson = load_lesson("s06")
    files = {rel: str(path) for rel, path in lesson.files.items()}
    files.update({f"t/{p.name}": str(p) for p in (loops / "t").iterdir()})
    runs = [{"lesson": "s06", "block": b, "scenario": s, "backend": backend}
            for backend in ("monitoring", "settrace") for b, s in facts.RUNS]
    runs += [{"lesson": "t", "block": name, "scenario": "normal", "maxSteps": cap}
             for name, cap in LOOP_RUNS]
    runs += [{"lesson": "s06", "block": b, "scenario": "custom", "setup": text}
             for b, text in custom_runs()]
    runs.append({"lesson": "t", "block": "spin", "scenario": "normal",
                 "maxSteps": SPEED_STEPS})
    return record_in_pyodide(tmp_path, files, runs,
                             code="import sys; sys._getframe(0).f_code.co_name", timeout=300)


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    result = run_node(tmp_path_factory.mktemp("pyodide"))
    traces = result["traces"]
    n = len(facts.RUNS)
    result["monitoring"] = dict(zip(facts.RUNS, traces[:n]))
    result["settrace"] = dict(zip(facts.RUNS, traces[n:2 * n]))
    result["loops"] = dict(zip([name for name, _ in LOOP_RUNS], traces[2 * n:2 * n + 5]))
    result["custom"] = traces[2 * n + 5:-1]
    result["speed"] = (traces[-1], result["timings"][-1])
    return result


@pytest.fixture(scope="module")
def cpython():
    from loopstep.runtime.recorder import record
    return {run: record("s06", *run) for run in facts.RUNS}


def test_pyodide_version(pyodide):
    assert pyodide["python"] == "3.14.2"
    assert {t["backend"] for t in pyodide["monitoring"].values()} == {"monitoring"}


@pytest.mark.parametrize("backend", ["monitoring", "settrace"])
@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_outputs_and_facts(pyodide, run, backend):
    trace = pyodide[backend][run]
    assert trace["backend"] == backend
    assert trace["stdout"] == facts.OUTPUTS[run]
    assert trace["status"] == "finished"
    for check in facts.FACTS[run]:
        check(trace)


@pytest.mark.parametrize("backend", ["monitoring", "settrace"])
@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_same_as_cpython(pyodide, cpython, run, backend):
    assert facts.summary(pyodide[backend][run]) == facts.summary(cpython[run])


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_backends_agree_in_314(pyodide, run):
    """One event vocabulary: both backends give the same steps in the same Python."""
    monitoring, settrace = pyodide["monitoring"][run], pyodide["settrace"][run]
    assert dict(monitoring, backend=None) == dict(settrace, backend=None)


@pytest.mark.parametrize("run", facts.RUNS, ids="/".join)
def test_golden(pyodide, run):
    """The same golden traces as tests/test_recorder.py's: one set for every Python."""
    facts.check_golden(run, pyodide["monitoring"][run])


def test_custom_setups_run_as_in_cpython(pyodide):
    from loopstep.runtime.recorder import record
    for (block, text), trace in zip(custom_runs(), pyodide["custom"], strict=True):
        expected = record("s06", block, "custom", setup=text)
        assert trace["scenario"] == "custom"
        assert trace["status"] == expected["status"]
        assert trace.get("setup_error") == expected.get("setup_error")
        if expected["status"] == "finished":
            assert facts.summary(trace) == facts.summary(expected)
    assert pyodide["custom"][0]["stdout"] == "完成： call_limit\n"


def test_loops_are_bounded(pyodide):
    loops = pyodide["loops"]
    assert loops["spin"]["status"] == "step_limit" and len(loops["spin"]["steps"]) == 5000
    assert loops["one_line"]["status"] == "step_limit"
    assert "events inside one step" in loops["one_line"]["message"]
    assert loops["swallow"]["status"] == "step_limit"
    assert len(loops["swallow"]["steps"]) == 100
    assert loops["deep"]["result"] == "50"
    assert loops["boom"]["error"] == {"type": "KeyError", "message": "'b'", "line": 3}


def test_speed(pyodide, capsys):
    trace, ms = pyodide["speed"]
    assert trace["status"] == "step_limit" and len(trace["steps"]) == SPEED_STEPS
    rate = SPEED_STEPS / (ms / 1000)
    with capsys.disabled():
        print(f"\nPyodide recording speed: {rate:,.0f} steps/s (boot {pyodide['boot_ms']} ms)")
    assert ms < 60_000
