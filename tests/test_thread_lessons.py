"""The bundled lessons of threads: s08-background (a command in a background thread, its
result injected before a later model call) and s09-team (a lead and teammates, each loop
in its own thread, talking through inboxes). Each preset shows what it says — a
notification in time or too late, a message read or lost to a race, and the race's fix by
a pinned schedule. Every run is the same in the CLI's CPython and in the page's Python
under Node: tests/test_threads_pyodide.py records ``RUNS`` there, in its one boot."""

import json

import pytest

from loopstep.runtime import cli
from loopstep.runtime.browser import worker
from loopstep.runtime.catalog.lessons import BUNDLED_ROOTS
from loopstep.runtime.recorder import record
from loopstep.runtime.trace import wire

RUNS = [("s08-background", "loop", "notified"), ("s08-background", "loop", "late"),
        ("s08-background", "loop", "waited"), ("s08-background", "execute", "late"),
        ("s09-team", "team", "team"), ("s09-team", "team", "lost_message"),
        ("s09-team", "team", "schedule_fix"), ("s09-team", "bus", "lost_message")]
# schedules given as a run's (CLI, URL), not a preset's: the race's preset with the fix's,
# one the run cannot follow (it stops), and bob's first call waiting for alice to finish
SCHEDULED = [("s09-team", "team", "lost_message", "switch:10=MainThread"),
             ("s09-team", "team", "team", "switch:1=MainThread"),
             ("s09-team", "team", "team", "model:4=alice")]
FOLLOW_UP = "再加一个负数相加的测试。"
SAME = ("status", "message", "stdout", "steps", "threads", "thread_states", "schedule",
        "agent", "workspace", "result", "error")


@pytest.fixture(scope="module")
def cpython():
    return {run: record(*run) for run in RUNS}


def unread(trace):
    line = trace["stdout"].splitlines()[-1]
    assert line.startswith("没读的信：")
    return eval(line.split("：", 1)[1])   # the entry prints a dict of lists of dicts


def test_a_background_result_arrives_before_a_later_model_call_or_too_late(cpython):
    notified = cpython["s08-background", "loop", "notified"]
    assert "后台测试跑完了：[bg1] done: 3" in notified["stdout"]
    assert notified["threads"][1] == {"name": "bg1", "daemon": True, "end": "finished"}
    assert len(notified["agent"]["calls"]) == 3
    late = cpython["s08-background", "loop", "late"]
    assert "后台测试还没跑完" in late["stdout"] and "任务表： {'bg1': 'running'}" in late["stdout"]
    assert late["threads"][1]["end"].startswith("ended with the run")
    waited = cpython["s08-background", "loop", "waited"]   # the same slow command, pinned
    assert waited["schedule"]["text"] == "model:2=bg1" and "unreached" not in waited["schedule"]
    assert "后台测试跑完了：[bg1] done: 3" in waited["stdout"]
    assert "通知： ['[bg1] done: 3']" in cpython["s08-background", "execute", "late"]["stdout"]


def test_a_message_sent_after_the_last_inbox_check_is_lost_and_a_schedule_fixes_it(cpython):
    team = cpython["s09-team", "team", "team"]
    assert unread(team)["alice"] == [] and "[alice] send_message" in team["stdout"]
    lost, fixed = cpython["s09-team", "team", "lost_message"], \
        cpython["s09-team", "team", "schedule_fix"]
    assert unread(lost)["alice"] == [{"from": "lead", "content": FOLLOW_UP}]
    assert unread(fixed)["alice"] == []
    assert "收到：负数测试我来加" in unread(fixed)["lead"][0]["content"]
    names = [t["name"] for t in lost["threads"]]
    assert names == ["MainThread", "alice", "bob"]
    # the race: at switch point 10 alice, bob and the lead could run; the default runs alice
    _step, chosen, runnable = lost["schedule"]["points"][9]
    assert [names[i] for i in runnable] == ["alice", "bob", "MainThread"]
    assert names[chosen] == "alice"
    assert fixed["schedule"]["text"] == "switch:10=MainThread"
    assert names[fixed["schedule"]["points"][9][1]] == "MainThread"
    assert lost["steps"][:lost["schedule"]["points"][9][0]] == \
        fixed["steps"][:fixed["schedule"]["points"][9][0]]   # the same run up to the choice
    bus = cpython["s09-team", "bus", "lost_message"]
    assert unread(bus)["alice"] == unread(lost)["alice"]


def test_the_cli_and_the_worker_take_the_same_schedule_as_the_preset(cpython, capsys):
    assert cli.main(["trace", "s09-team/team", "--scenario", "lost_message", "--json",
                     "--schedule", SCHEDULED[0][3]]) == 0
    trace = json.loads(capsys.readouterr().out)
    fixed = cpython["s09-team", "team", "schedule_fix"]
    assert trace["stdout"] == fixed["stdout"] and trace["steps"] == fixed["steps"]
    assert trace["schedule"] == fixed["schedule"]
    packed = worker.record(*SCHEDULED[0][:3], BUNDLED_ROOTS, 0, schedule=SCHEDULED[0][3])
    assert wire.unpack(packed)["steps"] == fixed["steps"]


def same_in_both(run, theirs):
    """``run`` (of RUNS or SCHEDULED) in CPython and the same run in the page's Python
    (tests/test_threads_pyodide.py records them all in one boot)."""
    ours = record(*run[:3], **({"schedule": run[3]} if len(run) > 3 else {}))
    assert ours["status"] == ("error" if run == SCHEDULED[1] else "finished"), ours["message"]
    assert {k: ours.get(k) for k in SAME} == {k: theirs.get(k) for k in SAME}
