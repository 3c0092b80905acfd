"""The run's threads inside the bundled Pyodide (Node): called so that its stacks can
suspend (``callPromising``, WebAssembly stack switching: Node 20 with
``--experimental-wasm-stack-switching``), every program of tests/threads_lesson.py and the
two-thread agent and the command timeouts print and step as in CPython, each thread a stack of its own
(runtime/world/stacks.py); called as usual, a run that starts a thread ends with
``ThreadsUnavailable`` and says why — even when the program catches ``Exception`` — and
asks to be run again (``threads_wanted``), while a program whose locks never wait runs as
in CPython."""

import pytest
import test_in_flight as in_flight
import test_replay_tolerant_threads as tolerant_threads
import test_thread_lessons as thread_lessons
import threads_lesson
import world_lesson
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record
from loopstep.runtime.world import threading_standin

SETUP = "X = 1\n"
SWALLOWED = """
    try:
        threading.Thread(target=print, args=("in a thread",)).start()
    except Exception as error:   # a course's tool turns errors into text
        print("Error:", error)
    print("after start")
"""
PLAIN = """
    lock = threading.Lock()
    with lock:
        time.sleep(1)
    print(lock.locked(), threading.current_thread().name, threading.active_count())
"""
NAMES = [name for name, _code, _shown in threads_lesson.PROGRAMS]
WANTED = ("from runtime.browser import worker\n"
          "str((worker.threads_wanted(), worker.threads_wanted()))")


def _lessons(temp):
    lessons = temp / "lessons"
    files = {}
    for name, body in [("swallowed", SWALLOWED), ("plain", PLAIN)] + [
            (n, b) for n, b, _ in threads_lesson.PROGRAMS]:
        files |= world_lesson.write(lessons, name, threads_lesson.code_of(body), entry="main()")
    threads_lesson.write_agent(lessons)
    files |= {f"bgagent/{p.name}": str(p) for p in (lessons / "bgagent").iterdir()}
    files |= threads_lesson.write_timeouts(lessons)
    files |= in_flight.write(lessons)   # a team's replay, a call in flight at its end
    return lessons, files


def _job(name, **more):
    if name == "bgagent":
        return {"lesson": name, "block": "all", "scenario": "normal", **more}
    return {"lesson": name, "block": "main", "scenario": "custom", "setup": SETUP, **more}


def _cpython(lessons, name):
    if name == "bgagent":
        return record(name, "all", "normal", roots=[lessons])
    return record(name, "main", "custom", roots=[lessons], setup=SETUP)


@pytest.fixture(scope="module")
def suspending(tmp_path_factory):
    temp = tmp_path_factory.mktemp("threads_jspi")
    lessons, files = _lessons(temp)
    names = NAMES + ["bgagent", "timeouts"]
    bundled = load_lessons()   # and the bundled lessons of threads (test_thread_lessons.py)
    files |= {rel: str(path) for lesson in {run[0] for run in thread_lessons.RUNS}
              for rel, path in bundled[lesson].files.items()}
    runs = thread_lessons.RUNS + thread_lessons.SCHEDULED
    jobs = [_job(n, suspending=True) for n in names] + [
        {"lesson": run[0], "block": run[1], "scenario": run[2], "suspending": True,
         **({"schedule": run[3]} if len(run) > 3 else {})} for run in runs] + [
        {"lesson": "team", "block": "agent_loop", "scenario": "normal", "suspending": True,
         "recording": in_flight.recording()},
        {"lesson": "team", "block": "agent_loop", "scenario": "normal", "suspending": True,
         "recording": tolerant_threads.edited(), "tolerant": True}]
    traces = record_in_pyodide(temp, files, jobs,
                               node_options=("--experimental-wasm-stack-switching",))["traces"]
    return dict(zip(names + runs + ["in_flight", "tolerant"], traces)), lessons


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    temp = tmp_path_factory.mktemp("threads_plain")
    lessons, files = _lessons(temp)
    names = ["swallowed", "plain"]
    result = record_in_pyodide(temp, files, [_job(n) for n in names], code=WANTED)
    return dict(zip(names, result["traces"])), lessons, result["value"]


@pytest.mark.parametrize("name", NAMES + ["bgagent", "timeouts"])
def test_with_stack_switching_threads_run_as_in_cpython(suspending, name):
    traces, lessons = suspending
    trace, cpython = traces[name], _cpython(lessons, name)
    assert trace["status"] == cpython["status"] == "finished", trace["message"]
    assert trace["stdout"] == cpython["stdout"]
    assert trace["steps"] == cpython["steps"]
    assert trace.get("threads") == cpython.get("threads")


@pytest.mark.parametrize("run", thread_lessons.RUNS + thread_lessons.SCHEDULED,
                         ids=["/".join(r) for r in thread_lessons.RUNS + thread_lessons.SCHEDULED])
def test_the_bundled_lessons_of_threads_run_as_in_cpython(suspending, run):
    traces, _lessons = suspending
    thread_lessons.same_in_both(run, traces[run])


def test_a_replay_ending_with_a_call_in_flight_lists_it_as_in_cpython(suspending):
    traces, lessons = suspending
    trace, cpython = traces["in_flight"], in_flight.replayed(lessons)
    assert trace["status"] == "finished", trace["message"]
    assert trace["stdout"] == cpython["stdout"] and trace["replay"] == cpython["replay"]
    assert trace["agent"] == cpython["agent"] and len(trace["agent"]["in_flight"]) == 1
    trace = traces["tolerant"]   # tolerant: in the recorded order, one call differs
    cpython = record("team", "agent_loop", "normal", roots=[lessons],
                     recording=tolerant_threads.edited(), tolerant=True)
    assert trace["status"] == "finished", trace["message"]
    assert trace["replay"] == cpython["replay"] and trace["replay"]["differs"] == 1
    assert trace["agent"] == cpython["agent"] and len(trace["agent"]["in_flight"]) == 1


def test_without_it_the_run_says_why_and_asks_to_be_run_again(plain):
    traces, _lessons, wanted = plain
    trace = traces["swallowed"]
    assert trace["status"] == "exception"
    assert trace["message"] == f"ThreadsUnavailable: {threading_standin.UNAVAILABLE}"
    assert "threading.ThreadsUnavailable" in trace["stdout"]
    assert "Error: " not in trace["stdout"]   # never swallowed by the program
    assert wanted == "(True, False)"   # asked once, after the run that wanted threads


def test_a_program_whose_locks_never_wait_runs_as_in_cpython(plain):
    traces, lessons, _wanted = plain
    cpython = _cpython(lessons, "plain")
    assert traces["plain"]["status"] == "finished", traces["plain"]["message"]
    assert traces["plain"]["stdout"] == cpython["stdout"] == "False MainThread 1\n"
    assert traces["plain"]["steps"] == cpython["steps"]
