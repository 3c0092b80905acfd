"""Stand-ins inside the bundled Pyodide (Node): the agent-whole traces equal CPython's
(and the golden traces), and runs leave nothing behind in the worker's interpreter: a
lesson that imports the real ``subprocess`` after a stand-in run gets the real one."""

import importlib.util
import json
from pathlib import Path

import pytest
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_standins_runs",
                                               HERE / "test_standins_runs.py")
runs_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runs_tests)
RUNS = runs_tests.RUNS
_spec = importlib.util.spec_from_file_location("loopstep_early_tools",
                                               HERE / "test_agent_early_tools.py")
early = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(early)
# Generator expressions (in run_subagent's return, run_bash's `any(...)`) get one "line"
# step per resume under settrace (CPython 3.11) but not at the exhausting resume under
# sys.monitoring: the golden traces of these runs are CPython 3.11's.
GENEXPR_GAP = {("loop", "delegates"), ("whole", "delegates")}


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    temp = tmp_path_factory.mktemp("standins")
    lessons = temp / "lessons"
    runs_tests.write(lessons, "real", "def main():\n    import subprocess\n    return subprocess\n",
                     entry="import subprocess\nprint(main() is subprocess, "
                           "hasattr(subprocess, 'Popen'), subprocess.__file__)\n")
    runs_tests.write(lessons, "spin", "def main():\n    while True:\n        pass\n",
                     entry="main()", extra='[standins]\nmodules = ["subprocess"]\n')
    files = {rel: str(path) for rel, path in load_lessons()["agent-whole"].files.items()}
    runs_tests.write(lessons, "repl_tools", early.CODE, early.SETUP, symbol="turn",
                     extra=early.STANDINS)
    for lesson in ("real", "spin", "repl_tools"):
        files.update({f"{lesson}/{p.name}": str(p) for p in (lessons / lesson).iterdir()})
    jobs = [{"lesson": "real", "block": "main", "scenario": "normal"}]
    jobs += [{"lesson": "agent-whole", "block": b, "scenario": s} for b, s in RUNS]
    jobs += [{"lesson": "spin", "block": "main", "scenario": "normal", "maxSteps": 300},
             {"lesson": "real", "block": "main", "scenario": "normal"},
             {"lesson": "repl_tools", "block": "turn", "scenario": "normal"}]
    result = record_in_pyodide(temp, files, jobs, code=None)
    traces = result["traces"]
    return {"first_real": traces[0], "runs": dict(zip(RUNS, traces[1:-3])),
            "spin": traces[-3], "last_real": traces[-2], "repl_tools": traces[-1]}


@pytest.mark.parametrize("block, scenario", [
    pytest.param(b, s, id=f"{b}/{s}", marks=[pytest.mark.xfail(
        strict=True, reason="generator expression resumes step differently")]
        if (b, s) in GENEXPR_GAP else []) for b, s in RUNS])
def test_pyodide_trace_equals_cpython_and_the_golden_trace(pyodide, block, scenario):
    trace = pyodide["runs"][(block, scenario)]
    assert trace["python"].startswith("3.14") and trace["backend"] == "monitoring"
    assert runs_tests.neutral(trace) == runs_tests.neutral(record("agent-whole", block, scenario))
    runs_tests.check_golden(block, scenario, trace)


def test_the_real_subprocess_after_stand_in_runs_in_pyodide(pyodide):
    assert pyodide["spin"]["status"] == "step_limit"
    first, last = pyodide["first_real"]["stdout"], pyodide["last_real"]["stdout"]
    assert first.startswith("True True /") and "subprocess.py" in first
    assert last == first


def test_nothing_left_in_the_pyodide_interpreter(tmp_path):
    files = {rel: str(path) for rel, path in load_lessons()["agent-whole"].files.items()}
    jobs = [{"lesson": "agent-whole", "block": "agent_loop", "scenario": "delegates"}]
    code = ("import builtins, json, os, sys\n"
            "json.dumps({'cwd': os.getcwd(), 'folder': os.path.exists('/tmp/loopstep-run'),"
            " 'planted': sorted({'anthropic', 'dotenv'} & set(sys.modules)),"
            " 'subprocess': getattr(sys.modules.get('subprocess'), '__file__', None),"
            " 'MODEL_ID': 'MODEL_ID' in os.environ,"
            " 'input': type(builtins.input).__name__, 'stdin': type(sys.stdin).__name__})")
    value = json.loads(record_in_pyodide(tmp_path, files, jobs, code=code)["value"])
    assert value["cwd"] == "/home/pyodide" and value["folder"] is False
    assert value["planted"] == [] and value["MODEL_ID"] is False
    assert value["subprocess"] is None or value["subprocess"].endswith("subprocess.py")
    assert value["input"] == "builtin_function_or_method"


@pytest.mark.parametrize("block, scenario", sorted(GENEXPR_GAP))
def test_the_pair_and_whole_file_runs_make_the_same_calls_in_pyodide(pyodide, block, scenario):
    trace = pyodide["runs"][(block, scenario)]
    cpython = record("agent-whole", block, scenario)
    assert trace["status"] == cpython["status"] == "finished"
    assert trace["stdout"] == cpython["stdout"]
    agent, expected = trace["agent"], cpython["agent"]
    assert agent["conversations"] == expected["conversations"]
    assert agent["messages"] == expected["messages"]
    assert [(t["name"], t["input"], t["result"]) for t in agent["tools"]] == \
        [(t["name"], t["input"], t["result"]) for t in expected["tools"]]
    assert {s["line"] for s in trace["steps"]} == {s["line"] for s in cpython["steps"]}


def test_a_repls_tool_calls_are_recorded_in_pyodide(pyodide):
    trace = pyodide["repl_tools"]
    assert trace["backend"] == "monitoring"
    assert trace["stdout"] == "> !hi\nHI\n> there\nplain there\n> !bye\nBYE\n> "
    assert [(t["name"], t["result"]) for t in trace["agent"]["tools"]] == \
        [("shout", "HI"), ("shout", "BYE")]
