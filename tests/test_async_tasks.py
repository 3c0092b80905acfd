"""Asyncio tasks beside threads (runtime/world/aio_tasks.py, docs/design.md "Coroutines
and tasks"): each step says which task ran it, the header lists the run's tasks after its
threads and ``thread_states`` keeps each task's state where it changes — running,
runnable, blocked on what it awaits, sleeping until its timer, finished — on
tests/async_lesson.py's two gathered tasks (one named), under both backends and in the CLI;
and a thread running a loop of its own beside the main thread's. The page's Python gives
the same trace (tests/test_async_pyodide.py)."""

import pytest
from async_lesson import make_lesson

from loopstep.runtime import cli
from loopstep.runtime.recorder import record
from loopstep.runtime.trace import backends


MIXED = '''import asyncio
import threading
import time


async def job(name, log):
    await asyncio.sleep(0.5)
    log.append(name)


def in_thread(log):
    asyncio.run(job("thread", log))


async def main():
    log = []
    worker = threading.Thread(target=in_thread, args=(log,), name="worker")
    worker.start()
    await asyncio.gather(job("a", log), job("b", log))
    time.sleep(1)
    worker.join()
    return log
'''
LOCKED = '''import asyncio
import threading
import time

lock = threading.Lock()


def holder():
    with lock:
        time.sleep(1)
        done = True
    return done


async def take():
    with lock:
        got = "taken"
    return got


async def main():
    task = asyncio.create_task(take())
    return await task


def both():
    other = threading.Thread(target=holder, name="holder")
    other.start()
    time.sleep(0.1)
    result = asyncio.run(main())
    other.join()
    return result
'''
MIXED_TOML = '''
title = {zh = "线程与任务", en = "Threads and tasks"}
summary = {zh = "线程里的事件循环。", en = "A thread's own event loop."}
setup = "amixed/setup.py"
modules = ["amixed/mixed.py"]

[[presets]]
name = "normal"
zh = "普通"
en = "Normal"

[[blocks]]
id = "main"
symbols = ["main", "job", "in_thread"]
source = "amixed/mixed.py"
entry = "print(asyncio.run(main()))\\n"
'''
# a task whose thread waits on a threading.Lock that another thread holds
LOCKED_TOML = MIXED_TOML.replace("amixed/mixed.py", "alocked/locked.py").replace(
    "amixed/", "alocked/").replace('symbols = ["main", "job", "in_thread"]',
                                   'symbols = ["holder", "take", "main", "both"]').replace(
    'entry = "print(asyncio.run(main()))\\n"', 'entry = "print(both())\\n"')


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    root = make_lesson(tmp_path_factory.mktemp("async_tasks"))
    (root / "amixed").mkdir()
    (root / "amixed" / "lesson.toml").write_text(MIXED_TOML, encoding="utf-8")
    (root / "amixed" / "mixed.py").write_text(MIXED, encoding="utf-8")
    (root / "alocked").mkdir()
    (root / "alocked" / "lesson.toml").write_text(LOCKED_TOML, encoding="utf-8")
    (root / "alocked" / "locked.py").write_text(LOCKED, encoding="utf-8")
    (root / "alocked" / "setup.py").write_text("", encoding="utf-8")
    (root / "amixed" / "setup.py").write_text("", encoding="utf-8")
    return root


@pytest.fixture(scope="module", params=backends.available())
def trace(request, root):
    return record("atasks", "main", "normal", roots=[str(root)], backend=request.param)


def states_at(trace, i):
    """Each thread's and task's last recorded state at or before step i (None: none yet)."""
    out = [None] * len(trace["threads"])
    for step, thread, state, on, until in trace["thread_states"]:
        if step <= i:
            out[thread] = (state, on, until)
    return out


def test_the_tasks_are_listed_after_the_threads(trace):
    assert trace["status"] == "finished" and trace["stdout"] == "['waiting', 'slept', 'woken']\n"
    assert trace["threads"] == [
        {"name": "MainThread", "daemon": False, "end": "finished"},
        {"name": "Task-1", "task": True, "thread": 0, "end": "finished"},   # asyncio.run's
        {"name": "Task-2", "task": True, "thread": 0, "end": "finished"},
        {"name": "sleeper", "task": True, "thread": 0, "end": "finished"}]   # named by the program


def test_each_step_says_which_task_ran_it(trace):
    runner = {"main": 1, "waiter": 2, "sleeper": 3}
    assert [s["thread"] for s in trace["steps"]] == [runner[s["fn"]] for s in trace["steps"]]
    for i, step in enumerate(trace["steps"]):   # the task running a step is running there
        assert states_at(trace, i)[step["thread"]][0] == "running", i


def test_a_task_is_blocked_on_what_it_awaits_and_sleeps_until_its_timer(trace):
    steps = trace["steps"]
    waiting = next(i for i, s in enumerate(steps) if s["fn"] == "waiter" and s["line"] == 7)
    assert states_at(trace, waiting) == [
        ("blocked", "event loop", None), ("blocked", "gather", None),
        ("running", None, None), ("sleeping", "sleep", 1.5)]
    slept = next(i for i, s in enumerate(steps) if s["fn"] == "sleeper" and s["line"] == 13)
    assert states_at(trace, slept)[2] == ("blocked", "Event.wait", None)
    woken = next(i for i, s in enumerate(steps) if s["fn"] == "waiter" and s["line"] == 8)
    assert states_at(trace, woken)[3] == ("finished", None, None)
    assert states_at(trace, 4)[2:] == [("runnable", None, None), ("runnable", None, None)]
    assert states_at(trace, len(steps))[:2] == [("running", None, None), ("finished", None, None)]
    assert "schedule" not in trace   # no thread: no switch point of the scheduler


def test_the_cli_names_the_task_where_it_changes(root, capsys):
    assert cli.main(["trace", "atasks/main", "--lessons", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.count("── task Task-1 ──") == 2 and out.count("── task sleeper ──") == 2
    assert out.count("── task Task-2 ──") == 3 and "── thread" not in out


def test_a_threads_own_loop_runs_its_tasks_while_the_thread_waits_on_it(root):
    trace = record("amixed", "main", "normal", roots=[str(root)])
    assert trace["status"] == "finished" and trace["stdout"] == "['a', 'b', 'thread']\n"
    listed = [(t["name"], t.get("thread")) for t in trace["threads"]]
    assert listed == [("MainThread", None), ("worker", None), ("Task-1", 0), ("Task-2", 0),
                      ("Task-3", 0), ("Task-4", 1)]   # the worker's loop counts from Task-4
    for i, step in enumerate(trace["steps"]):
        now = states_at(trace, i)
        assert now[step["thread"]][0] == "running", i
        if step["thread"] == 5:   # the worker's task: the worker waits on its loop
            assert now[1] == ("blocked", "event loop", None), i


def test_a_task_that_makes_its_thread_wait_waits_as_its_thread_does(root):
    """A task's code that blocks its thread: while the thread waits, the thread stays
    blocked on its event loop and the task shows the wait — ``time.sleep`` in MIXED's
    main (sleeping until its time), a ``threading.Lock`` another thread holds in LOCKED's
    take (blocked on ``Lock.acquire``, runnable once released, running again)."""
    trace = record("amixed", "main", "normal", roots=[str(root)])
    steps = trace["steps"]
    slept = next(i for i, s in enumerate(steps) if s["fn"] == "main" and s["line"] == 20)
    meanwhile = next(i for i in range(slept + 1, len(steps)) if steps[i]["thread"] != 2)
    assert states_at(trace, meanwhile)[0] == ("blocked", "event loop", None)
    assert states_at(trace, meanwhile)[2] == ("sleeping", "sleep", 1.5)   # Task-1 (main)

    trace = record("alocked", "main", "normal", roots=[str(root)])
    assert trace["status"] == "finished" and trace["stdout"] == "taken\n"
    steps, names = trace["steps"], [t["name"] for t in trace["threads"]]
    take, holder = names.index("Task-2"), names.index("holder")
    waiting = next(i for i, s in enumerate(steps) if s["fn"] == "take" and s["line"] == 16)
    held = [i for i in range(waiting + 1, len(steps)) if steps[i]["thread"] == holder]
    assert held and all(states_at(trace, i)[0] == ("blocked", "event loop", None) for i in held)
    assert states_at(trace, held[0])[take] == ("blocked", "Lock.acquire", None)
    assert states_at(trace, held[-1])[take] == ("runnable", None, None)   # the lock released
    back = next(i for i in range(held[-1], len(steps)) if steps[i]["thread"] == take)
    assert states_at(trace, back)[take] == ("running", None, None)
