"""The trace's ``thread_states`` (runtime/world/schedule.py ``_mark``, docs/design.md
"Threads"): each change of a thread's state from the step it holds on, agreeing with the
steps' ``thread``; what a blocked or sleeping thread waits on and until when."""

import pytest
import threads_lesson

from loopstep.runtime.recorder import record
from loopstep.runtime.trace import wire


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("thread_states")
    threads_lesson.write_all(folder)
    threads_lesson.write_agent(folder)
    return folder


def states_at(trace, i):
    """Each thread's last recorded state at or before step i (None: not started)."""
    out = [None] * len(trace["threads"])
    for step, thread, state, on, until in trace["thread_states"]:
        if step <= i:
            out[thread] = (state, on, until)
    return out


def test_the_thread_that_ran_each_step_is_running_there_and_no_other(root):
    trace = record("lock", "main", "custom", roots=[root], setup="X = 1\n")
    assert trace["status"] == "finished", trace["message"]
    assert len(trace["threads"]) == 3
    steps = [e[0] for e in trace["thread_states"]]
    assert steps == sorted(steps) and all(e[1] < 3 for e in trace["thread_states"])
    blocked = set()
    for i, s in enumerate(trace["steps"]):
        states = states_at(trace, i)
        assert states[s.get("thread", 0)][0] == "running", i
        assert [k for k, st in enumerate(states) if st and st[0] == "running"] == [s.get("thread", 0)], i
        blocked |= {st[1] for st in states if st and st[0] == "blocked"}
        assert all(st[2] is not None for st in states if st and st[0] == "sleeping"), i
    assert "Lock.acquire" in blocked
    assert all(st[0] == "finished" for st in states_at(trace, len(trace["steps"]))[1:])
    assert wire.unpack(wire.pack(trace)) == trace   # the packed form carries them as they are


def test_a_model_call_in_a_run_with_threads_sleeps_until_its_time_is_up(root):
    trace = record("bgagent", "all", "normal", roots=[root])
    sleeping = [e for e in trace["thread_states"] if e[2] == "sleeping"]
    assert ("model", 1.0) in {(e[3], e[4]) for e in sleeping}
    assert all(e[3] is None and e[4] is None for e in trace["thread_states"]
               if e[2] not in ("blocked", "sleeping"))
