"""The run's world inside the bundled Pyodide (Node): every source of time, randomness
and ids reads what it reads in CPython (the table of tests/world_lesson.py), the same
program prints the same as in CPython (its set of strings aside: one hash seed gives
other orders in another Python), and Python starts with the page's hash seed."""

import pytest
import world_lesson
from pyodide_node import record_in_pyodide

from loopstep.runtime.recorder import record

PROGRAM = '''import os
import random
import time
import uuid
from datetime import datetime


def main():
    print(f"transcript_{int(time.time())}.jsonl", datetime.now().isoformat(), uuid.uuid4())
    time.sleep(5)
    print(round(time.monotonic(), 3), random.random(), os.urandom(3).hex(), os.getcwd())
    print(sorted({"alpha", "beta", "gamma"}))
'''


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    temp = tmp_path_factory.mktemp("world_pyodide")
    lessons = temp / "lessons"
    files = world_lesson.write_sources(lessons)
    files |= world_lesson.write(lessons, "program", PROGRAM, entry="main()", extra="[standins]\n")
    jobs = [{"lesson": "sources", "block": "main", "scenario": "custom",
             "setup": world_lesson.setup_of(expr)} for expr, _ in world_lesson.SOURCES]
    jobs += [{"lesson": "program", "block": "main", "scenario": "normal"}] * 2
    code = "import sys, os\nstr((sys.flags.hash_randomization, os.environ.get('PYTHONHASHSEED')))"
    result = record_in_pyodide(temp, files, jobs, code=code)
    return {"traces": result["traces"], "value": result["value"], "lessons": lessons}


def test_python_starts_with_the_pages_hash_seed(pyodide):
    assert pyodide["value"] == "(0, '0')"


@pytest.mark.parametrize("index", range(len(world_lesson.SOURCES)),
                         ids=[expr for expr, _ in world_lesson.SOURCES])
def test_each_source_reads_as_in_cpython(pyodide, index):
    trace = pyodide["traces"][index]
    assert trace["status"] == "finished", trace["message"]
    assert trace["stdout"].strip() == world_lesson.SOURCES[index][1]


def test_a_program_prints_the_same_in_pyodide_and_cpython(pyodide):
    first, second = pyodide["traces"][-2:]
    cpython = record("program", "main", "normal", roots=[pyodide["lessons"]])
    assert first["stdout"] == second["stdout"] == cpython["stdout"]
    assert "transcript_1767258000.jsonl" in first["stdout"]
    assert first["steps"] == cpython["steps"]
