"""Questions recorded inside the bundled Pyodide (Node) give CPython's answers.

The same runtime code evaluates breakpoint conditions, hit counts, logpoints and
watches in the browser worker; one Node process records every case of
question_cases.py with both backends, and each must hold the cases' facts and equal
this CPython's ``probes``.
"""

import importlib.util
from pathlib import Path

import pytest
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record

HERE = Path(__file__).parent

_spec = importlib.util.spec_from_file_location("loopstep_question_cases_n", HERE / "question_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
NAMES = list(cases.CASES)
BACKENDS = ("monitoring", "settrace")


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    files = {}
    for lesson in sorted({c[0] for c in cases.CASES.values()}):
        files.update({rel: str(path) for rel, path in load_lesson(lesson).files.items()})
    runs = [{"lesson": lesson, "block": block, "scenario": scenario, "questions": probes,
             "backend": backend}
            for backend in BACKENDS for lesson, block, scenario, probes in cases.CASES.values()]
    traces = record_in_pyodide(tmp_path_factory.mktemp("probes"), files, runs,
                               timeout=300)["traces"]
    return {(backend, name): traces[k * len(NAMES) + i]
            for k, backend in enumerate(BACKENDS) for i, name in enumerate(NAMES)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_same_answers_as_cpython(pyodide, name, backend):
    trace = pyodide[(backend, name)]
    assert trace["backend"] == backend
    cases.check(name, trace)
    lesson, block, scenario, probes = cases.CASES[name]
    cpython = record(lesson, block, scenario, questions=probes)
    assert cases.portable(trace) == cases.portable(cpython)
    assert trace["stdout"] == cpython["stdout"] and trace["result"] == cpython["result"]
