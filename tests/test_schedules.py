"""Schedules a run is given (runtime/world/choices.py): the text form shared with the page
(tests/fixtures/schedule_text.json), what each schedule makes the threads of
tests/threads_lesson.py do, the switch points the trace keeps, a choice the run cannot
follow, `loopstep trace --schedule`, and a preset's ``schedule`` in lesson.toml."""

import importlib.util
import json
from pathlib import Path

import pytest
import threads_lesson
import world_lesson

from loopstep.runtime import cli
from loopstep.runtime.catalog.lessons import LessonError, load_lesson
from loopstep.runtime.recorder import record, record_request
from loopstep.runtime.run_request import RunRequest
from loopstep.runtime.world import choices

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_schedule_text",
                                               HERE / "fixtures" / "schedule_text.py")
spec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spec)
CASES = json.loads((HERE / "fixtures" / "schedule_text.json").read_text("utf-8"))
A, B = "Thread-1 (worker)", "Thread-2 (worker)"
LOCK_DEFAULT = "['a0+', 'a0-', 'b0+', 'b0-', 'a1+', 'a1-', 'b1+', 'b1-'] False"

# (program, schedule, status, the end of its output, the threads that ran, in turn)
TABLE = [
    ("lock", None, "finished", LOCK_DEFAULT,
     ["MainThread", A, B, A, B, A, B, "MainThread", B, "MainThread"]),
    ("lock", f"switch:1={B}", "finished",
     "['b0+', 'b0-', 'a0+', 'a0-', 'b1+', 'b1-', 'a1+', 'a1-'] False",
     ["MainThread", B, A, B, A, B, A, "MainThread"]),
    ("lock", f"switch:3={A}", "finished", LOCK_DEFAULT,   # the default's own choice
     ["MainThread", A, B, A, B, A, B, "MainThread", B, "MainThread"]),
    ("lock", "switch:1=MainThread", "error",
     "[the run ended while thread Thread-2 (worker) was still runnable: it was stopped]",
     ["MainThread"]),
    ("queue", "switch:2=Thread-1 (producer)", "error",
     "put 0\n[the run ended while thread Thread-1 (producer) was still waiting (Queue.put): "
     "it was stopped]", ["MainThread", "Thread-1 (producer)", "MainThread"]),
    ("bgagent", "model:2=background", "finished",
     "the background command said: sleep 1.5 && echo hello: hello",
     ["MainThread", "background", "MainThread"]),
    ("bgagent", None, "finished", "the background command said: sleep 1.5 && echo hello: hello",
     ["MainThread", "background", "MainThread", "background", "MainThread"]),
    ("bgagent", "model:2=MainThread", "error", "", ["MainThread"]),
]
ERRORS = {
    ("lock", "switch:1=MainThread"):
        "schedule switch:1=MainThread: thread MainThread cannot run at switch point 1 (it is "
        f"blocked: join({A})); runnable there: {A}, {B}",
    ("queue", "switch:2=Thread-1 (producer)"):
        "schedule switch:2=Thread-1 (producer): thread Thread-1 (producer) cannot run at "
        "switch point 2 (it is blocked: Queue.put); runnable there: MainThread",
    ("bgagent", "model:2=MainThread"):
        "schedule model:2=MainThread: thread MainThread cannot finish before model call 2 "
        "(it makes that call)",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("schedules")
    threads_lesson.write_all(folder)
    threads_lesson.write_agent(folder)
    return folder


def run(root, name, schedule=None):
    if name == "bgagent":
        return record(name, "all", "normal", roots=[root], schedule=schedule)
    return record(name, "main", "custom", roots=[root], setup="X = 1\n", schedule=schedule)


def turns(trace):
    names = [t["name"] for t in trace["threads"]]
    out = []
    for step in trace["steps"]:
        name = names[step.get("thread", 0)]
        if not out or out[-1] != name:
            out.append(name)
    return out


def test_the_text_form_is_the_fixture_python_and_the_page_share():
    assert CASES == json.loads(spec.text(spec.build())), \
        "run tests/fixtures/schedule_text.py to rewrite schedule_text.json"
    for case in CASES["valid"]:
        parsed = choices.parse(case["text"])
        assert [[c.kind, c.number, c.name] for c in parsed] == case["choices"]
        assert choices.text(parsed) == case["canonical"]
        assert choices.canonical(case["canonical"]) == case["canonical"]
    for case in CASES["invalid"]:
        with pytest.raises(ValueError, match="schedule") as error:
            choices.parse(case["text"])
        assert str(error.value) == case["error"]


@pytest.mark.parametrize("name, schedule, status, output, threads", TABLE,
                         ids=[f"{row[0]}-{row[1]}" for row in TABLE])
def test_a_schedule_decides_which_thread_runs(root, name, schedule, status, output, threads):
    trace = run(root, name, schedule)
    assert trace["status"] == status, trace["message"]
    assert trace["stdout"].strip().endswith(output)
    assert turns(trace) == threads
    header = trace["schedule"]
    assert header["text"] == choices.canonical(schedule)
    if status == "error":
        assert trace["message"] == header["error"] == ERRORS[name, schedule]
    else:
        assert "error" not in header and "unreached" not in header
    for step, chosen, runnable in header["points"]:
        assert chosen in runnable and 0 <= step <= len(trace["steps"])
        assert chosen == runnable[0] or schedule is not None   # the default: first in line
    assert run(root, name, schedule) == trace   # the same every run


def test_the_points_say_where_a_choice_was_and_unreached_choices_are_named(root):
    trace = run(root, "lock", "switch:99=x,model:1=y")
    assert trace["status"] == "finished"
    assert trace["schedule"]["unreached"] == ["switch:99=x", "model:1=y"]
    step, chosen, runnable = trace["schedule"]["points"][0]
    assert (chosen, runnable) == (1, [1, 2])   # both workers could run: the first in line did
    assert trace["steps"][step]["thread"] == 1 and trace["steps"][step - 1].get("thread", 0) == 0
    plain = run(root, "lock")   # no choice: the same run as the default's
    assert plain["steps"] == run(root, "lock", "")["steps"] and plain["schedule"]["text"] == ""


def test_a_run_request_carries_the_schedule_and_overrides_the_presets(root):
    request = RunRequest("bgagent", "all", "normal", roots=(root,), schedule=["model:2=background"])
    assert record_request(request)["schedule"]["text"] == "model:2=background"
    with pytest.raises(ValueError, match="schedule choice 'model:x=a'"):
        record("bgagent", "all", "normal", roots=[root], schedule="model:x=a")


def test_loopstep_trace_schedule(root, capsys):
    args = ["trace", "lock/main", "--lessons", str(root), "--setup", str(root / "lock/setup.py")]
    assert cli.main([*args, "--schedule", f"switch:1={B}"]) == 0
    out = capsys.readouterr().out
    assert f"· schedule switch:1={B}" in out.splitlines()[0]
    assert f"── thread {B} ── switch 1 (runnable: {A}, {B})" in out
    assert f"schedule: switch:1={B} · 10 switch points" in out
    assert cli.main([*args, "--schedule", "switch:1=MainThread"]) == 3
    captured = capsys.readouterr()
    assert "status: error (schedule switch:1=MainThread" in captured.out
    assert captured.err.strip().endswith(f"runnable there: {A}, {B}")
    assert cli.main([*args, "--schedule", "switch:1=a", "--schedule", "switch:1=b"]) == 2
    assert "two threads chosen at switch point 1 (a, b)" in capsys.readouterr().err


PRESET = """
[[presets]]
name = "pinned"
zh = "固定"
en = "Pinned"
schedule = {schedule}
"""


@pytest.mark.parametrize("schedule, problem", [
    ('["switch:2=alice", "model:1=bob"]', None),
    ('"switch:2=alice"', "expected an array of schedule choices"),
    ('["switch:two=alice"]', "'switch:two=alice' is not a schedule choice"),
    ('["switch:2=alice", "switch:2=bob"]', "two threads chosen at switch point 2 (alice, bob)"),
])
def test_a_preset_pins_a_schedule(tmp_path, schedule, problem):
    world_lesson.write(tmp_path, "p", "def main():\n    pass\n", entry="main()",
                       extra=PRESET.format(schedule=schedule))
    text = (tmp_path / "p/lesson.toml").read_text().replace('presets = ["normal"]',
                                                           'presets = ["normal", "pinned"]')
    (tmp_path / "p/lesson.toml").write_text(text)
    if problem is None:
        lesson = load_lesson("p", [tmp_path])
        assert lesson.preset("pinned").schedule == "switch:2=alice,model:1=bob"
        assert lesson.preset("normal").schedule is None
        trace = record("p", "main", "pinned", roots=[tmp_path])
        assert trace["schedule"]["unreached"] == ["switch:2=alice", "model:1=bob"]
        assert "schedule" not in record("p", "main", "normal", roots=[tmp_path])
        return
    with pytest.raises(LessonError) as error:
        load_lesson("p", [tmp_path])
    assert "lesson.toml" in str(error.value) and problem in str(error.value)
    assert "schedule" in str(error.value)
