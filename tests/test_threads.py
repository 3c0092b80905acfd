"""The run's threads in CPython (runtime/world/schedule.py, locks.py,
threading_standin.py): every primitive of tests/threads_lesson.py prints the same in
every run, the threads interleave at the documented switch points, a two-thread agent
records the same trace twice with steps of both threads, and nothing a run starts
outlives it."""

import _thread
import threading
import time

import pytest
import threads_lesson
import world_lesson

from loopstep.runtime import cli
from loopstep.runtime.recorder import record, record_packed
from loopstep.runtime.trace import wire
from loopstep.runtime.world import World, locks, schedule, threading_standin

SETUP = "X = 1\n"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("threads")
    threads_lesson.write_all(folder)
    threads_lesson.write_agent(folder)
    return folder


def run(root, lesson, code=None, **options):
    if code is not None:
        world_lesson.write(root, lesson, threads_lesson.code_of(code), entry="main()")
    return record(lesson, "main", "custom", roots=[root], setup=SETUP, **options)


@pytest.mark.parametrize("name, code, shown", threads_lesson.PROGRAMS,
                         ids=[p[0] for p in threads_lesson.PROGRAMS])
def test_each_primitive_prints_the_same_in_every_run(root, name, code, shown):
    before = threading.enumerate()
    traces = [run(root, name) for _ in range(5)]
    assert traces[0]["status"] == "finished", traces[0]["message"]
    assert traces[0]["stdout"].strip() == shown
    assert all(t == traces[0] for t in traces[1:])   # the whole trace, steps and threads
    assert threading.enumerate() == before


def test_threads_switch_only_at_blocking_calls_and_sleeps(root):
    trace = run(root, "switches", """
        seen = []
        def busy(name):
            for i in range(3):
                seen.append(name)
            time.sleep(0)
            seen.append(name)
        ts = [threading.Thread(target=busy, args=(n,)) for n in "ab"]
        for t in ts:
            t.start()
        seen.append("main")
        for t in ts:
            t.join()
        print("".join(seen))
    """)
    # start() does not switch; each thread runs until it sleeps, then the next in line
    assert trace["stdout"] == "mainaaabbbab\n"
    assert [t["name"] for t in trace["threads"]] == [
        "MainThread", "Thread-1 (busy)", "Thread-2 (busy)"]
    changes = [s["thread"] for k, s in enumerate(trace["steps"])
               if k == 0 or s["thread"] != trace["steps"][k - 1]["thread"]]
    assert changes == [0, 1, 2, 1, 2, 0]


def test_a_packed_trace_keeps_the_thread_of_each_step(root):
    trace = run(root, "lock")
    assert {s["thread"] for s in trace["steps"]} == {0, 1, 2}
    assert wire.unpack(wire.pack(trace)) == trace
    packed = wire.unpack(record_packed("lock", "main", "custom", roots=[root], setup=SETUP))
    assert packed == trace
    single = run(root, "single", "print(sum(range(3)))")
    assert "threads" not in single and "thread" not in single["steps"][0]


def test_a_two_thread_agent_records_the_same_trace_twice(root):
    before = threading.enumerate()
    first, second = (record("bgagent", "all", "normal", roots=[root]) for _ in range(2))
    assert first == second
    assert first["status"] == "finished", first["message"]
    # the command (0.1 s, then its `sleep 1.5`) started while call 2 ran (1 s), so its
    # result was queued while call 3 ran and reached call 4
    assert first["stdout"] == "the background command said: sleep 1.5 && echo hello: hello\n"
    assert len(first["agent"]["calls"]) == 4
    threads = {s["thread"] for s in first["steps"]}
    assert threads == {0, 1}
    assert first["threads"][1] == {"name": "background", "daemon": True, "end": "finished"}
    assert {s["fn"] for s in first["steps"] if s["thread"] == 1} == {"background"}
    assert threading.enumerate() == before


def test_a_thread_blocked_at_the_end_is_ended_and_said_so(root):
    before = threading.enumerate()
    trace = run(root, "stuck", """
        gate = threading.Event()
        def stuck():
            gate.wait()
        threading.Thread(target=stuck, name="stuck", daemon=True).start()
        threading.Thread(target=time.sleep, args=(60,), name="sleeper", daemon=True).start()
        lock = threading.Lock()
        lock.acquire()
        threading.Thread(target=lock.acquire, name="locked").start()
        time.sleep(1)
        raise SystemExit(0)
    """)
    assert trace["status"] == "finished"
    assert [t["end"] for t in trace["threads"]] == [
        "finished", "ended with the run (Event.wait)", "ended with the run (sleep)",
        "ended with the run (Lock.acquire)"]
    assert trace["stdout"].endswith(
        "[the run ended while thread locked was still waiting (Lock.acquire): it was stopped]\n")
    assert "stuck" not in trace["stdout"]   # a daemon stops with the run, as in Python
    assert threading.enumerate() == before


def test_a_deadlock_is_an_error_of_the_main_thread(root):
    trace = run(root, "deadlock", """
        a, b = threading.Lock(), threading.Lock()
        def other():
            with b:
                time.sleep(1)
                with a:
                    pass
        threading.Thread(target=other, name="other").start()
        with a:
            time.sleep(0.5)
            with b:
                pass
    """)
    assert trace["status"] == "exception"
    assert trace["message"].startswith("RuntimeError: " + schedule.DEADLOCK)
    assert "other: Lock.acquire" in trace["message"]


def test_a_run_stopped_at_its_step_cap_ends_its_threads(root):
    before = threading.enumerate()
    trace = run(root, "busy", """
        def spin():
            while True:
                time.sleep(0.1)
        threading.Thread(target=spin, name="spinner").start()
        while True:
            time.sleep(0.1)
    """, max_steps=60)
    assert trace["status"] == "step_limit"
    assert {s["thread"] for s in trace["steps"]} == {0, 1}
    assert threading.enumerate() == before


def test_where_no_thread_can_start_the_run_says_so(root, monkeypatch):
    def refused(*_args):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(_thread, "start_new_thread", refused)
    trace = run(root, "refused", """
        try:
            threading.Thread(target=print).start()
        except Exception as error:   # a course's tool swallows errors: not this one
            print("Error:", error)
    """)
    assert trace["status"] == "exception"
    assert trace["message"] == f"ThreadsUnavailable: {threading_standin.UNAVAILABLE}"


def test_threads_outside_the_run_keep_the_real_threading():
    made = {}

    def outside():
        made.update(lock=threading.Lock(), thread=threading.Thread(target=print),
                    condition=threading.Condition(), sleep=time.sleep)
    worker = threading.Thread(target=outside)   # a thread of no run, started in one
    with World():
        inside = threading.Lock(), threading.Thread(target=print)
        worker.start()
        worker.join()
    assert type(inside[0]) is locks.Lock and type(inside[1]) is threading_standin.Thread
    assert type(made["thread"]) is threading.Thread
    assert type(made["lock"]) is type(threading.Lock())
    assert type(made["condition"]) is threading.Condition


def test_the_cli_names_the_thread_where_it_changes(root, capsys):
    assert cli.main(["trace", "bgagent/all", "--lessons", str(root)]) == 0
    out = capsys.readouterr().out
    # the worker runs until its command's sleep, then again once the sleep is over
    assert out.count("── thread background ──") == 2
    assert out.count("── thread MainThread ──") == 2


def test_a_command_takes_virtual_time_only_once_the_run_has_a_thread(root):
    code = threads_lesson.HEADER + '''    import subprocess
    subprocess.run("sleep 5", shell=True)
    before = time.monotonic()
    threading.Thread(target=print, args=("hi",)).start()
    subprocess.run("sleep 5", shell=True)
    print(before, round(time.monotonic() - before, 3))
'''
    world_lesson.write(root, "commands", code, entry="main()",
                       extra='[standins]\nmodules = ["subprocess"]\n')
    trace = run(root, "commands")
    # 0.1 s the command, 5 s its sleep, in which the thread printed
    assert trace["stdout"] == "hi\n0.0 5.101\n"


def test_a_command_times_out_on_the_virtual_clock_in_any_thread(root):
    threads_lesson.write_timeouts(root)
    trace = run(root, "timeouts")
    # bg's first command is done at 5.1 s; main's times out at 120.1 s, bg's second at
    # 305.2 s (0.1 s each command, then its sleep up to the timeout): TimeoutExpired each;
    # then `timeout 2 sleep 5` exits 124 at 307.3 s
    assert trace["status"] == "finished", trace["message"]
    assert trace["stdout"] == threads_lesson.TIMEOUTS_SHOWN
    assert run(root, "timeouts")["steps"] == trace["steps"]
