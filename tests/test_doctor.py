"""`loopstep doctor` names each source of difference planted in a test lesson (the clock, an
id, randomness, a set's order, the environment, a real file), says a block without any is
the same run every time, and names the real clock of a lesson that asks for it when two
runs differ."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from doctor_lesson import make_doctor_lessons
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.doctor import diagnose
from loopstep.runtime.doctor.compare import describe, first_difference, same_items

LOOPSTEP = Path(sys.executable).with_name("loopstep")


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    folder = tmp_path_factory.mktemp("doctor")
    real = folder / "outside.txt"
    real.write_text("from outside\n", "utf-8")
    return make_doctor_lessons(folder / "lessons", real), real


@pytest.fixture(scope="module")
def planted(lessons):
    root, _ = lessons
    return diagnose(load_lesson("planted", [root]), "planted", "one", [root], pyodide=False)


# (source, the variable whose value the changed run shows first)
PLANTED = [("clock", "stamp"), ("ids", "ticket"), ("randomness", "roll"),
           ("hash order", "names"), ("environment", "home")]


@pytest.mark.parametrize("source, variable", PLANTED)
def test_each_planted_source_is_named_at_its_line(planted, source, variable):
    found = planted["sources"][source]
    assert isinstance(found, dict), (source, found)
    assert found["what"] == variable
    assert found["function"] == "planted"
    assert found["code"].startswith(f"{variable} =")
    assert found["a"] != found["b"]
    assert found["reordered"] == (source == "hash order")


def test_the_real_file_is_named_with_the_line_that_reads_it(planted, lessons):
    _, real = lessons
    (found,) = planted["files"]
    assert found["path"] == str(real.resolve())
    assert found["function"] == "planted" and found["file"].endswith("planted/code.py")
    assert found["line"] == 13   # with open(path, …) in code.py


def test_the_deterministic_world_gives_the_same_run_twice(planted):
    assert planted["twice"] is None


def test_a_block_without_sources_depends_on_none(lessons):
    root, _ = lessons
    report = diagnose(load_lesson("planted", [root]), "plain", "one", [root], pyodide=False)
    assert report["twice"] is None
    assert report["sources"] == dict.fromkeys(report["sources"])
    assert report["files"] == []


def test_the_real_clock_makes_two_runs_differ_and_is_named(lessons):
    root, _ = lessons
    done = subprocess.run([str(LOOPSTEP), "doctor", "realclock/stamped", "--scenario", "one",
                           "--lessons", str(root), "--no-page", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["twice"]["what"] == "stamp"
    assert report["twice_source"] == "clock (the real one: [world] real)"


def test_the_cli_prints_a_line_per_source_and_the_page_run(lessons):
    root, _ = lessons
    done = subprocess.run([str(LOOPSTEP), "doctor", "planted/plain", "--scenario", "one",
                           "--lessons", root.name], capture_output=True, text=True,
                          timeout=600, cwd=root.parent)   # a root relative to where it runs
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("loopstep doctor planted/plain · one · Python ")
    assert lines[1] == "twice: identical (two runs, each in a fresh process)"
    for source in ("clock", "ids", "randomness", "hash order", "environment"):
        assert f"{source}: the run does not depend on it" in lines
    assert lines[-1].startswith("page's Python: the same run"), lines[-1]


def test_bad_input_exits_2_with_a_reason(lessons):
    root, _ = lessons
    done = subprocess.run([str(LOOPSTEP), "doctor", "planted/nope", "--lessons", str(root)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("loopstep doctor: ") and "nope" in done.stderr


# first_difference on traces of its own: a table of (a, b, what, reordered)
STEP = {"event": "line", "line": 2, "fn": "f", "set": {}, "out": 0}
CASES = [
    ({"set": {"x": ["list", 2, "'a'", "'b'"]}}, {"set": {"x": ["list", 2, "'b'", "'a'"]}},
     "x", True),
    ({"set": {"x": "1"}}, {"set": {"x": "2"}}, "x", False),
    ({"line": 3}, {"line": 4}, "path", False),
]


@pytest.mark.parametrize("a, b, what, reordered", CASES)
def test_first_difference_names_what_differs(a, b, what, reordered):
    found = first_difference({"steps": [dict(STEP, **a)]}, {"steps": [dict(STEP, **b)]},
                             {2: "    x = f()", 3: "", 4: ""})
    assert (found["what"], found["reordered"]) == (what, reordered)
    assert ("another order" in describe(found)) == reordered


def test_output_lines_in_another_order_are_named_so():
    a = {"steps": [], "stdout": "b\na\n"}
    found = first_difference({"steps": [], "stdout": "a\nb\n"}, a)
    assert found["what"] == "output" and found["step"] is None
    assert same_items("a\nb", "b\na") and not same_items("a\nb", "a\nc")
    assert first_difference(a, dict(a)) is None
    # one bracketed value and a line that is none: not the same items, and no error
    assert not same_items("> run: [1, 2]", "Traceback (most recent call last):")
    assert not same_items("[1, 2]", "x") and not same_items("x", "[2, 1]")


def test_the_pages_run_of_threads_suspends_its_stacks_and_is_held_by_its_calls(monkeypatch):
    """The page's Python records a run of threads as the page's worker does (again on stacks
    that suspend), and a run whose model calls come at other steps in another Python is the
    same run: the steps' numbers of its calls and tools are left out of the comparison."""
    from loopstep.runtime.catalog.lessons import load_lessons
    from loopstep.runtime.doctor import node
    from loopstep.runtime.recorder import record
    lesson = load_lessons()["s08-background"]
    page = node.run(lesson, "loop", "notified")
    assert isinstance(page, dict), page
    assert page["status"] == "finished" and len(page["threads"]) > 1, page.get("message")
    cli = record("s08-background", "loop", "notified")
    monkeypatch.setattr(node, "run", lambda *_: page)   # the run made above, compared
    assert node.compare(lesson, "loop", "notified", cli, {}) == (None, page["python"])
    moved = json.loads(json.dumps(cli))
    for call in moved["agent"]["calls"]:
        call["step"] += 1
        call["ret"] += 1
    assert node._without_steps(moved) == node._without_steps(cli)
    assert node._without_steps(moved)["agent"]["calls"] and "steps" not in node._without_steps(moved)


def test_a_replay_divergence_names_a_reordered_list_as_such():
    """A request whose list (a tool's enum built from a set) holds the recorded items in
    another order: the divergence is named at the list, as a reordering."""
    from loopstep.runtime.recording.normal import first_difference as request_difference
    from loopstep.runtime.recording.replay import Divergence
    recorded = {"tools": [{"name": "t", "enum": ["alice", "bob", "carol"]}]}
    sent = {"tools": [{"name": "t", "enum": ["carol", "alice", "bob"]}]}
    path, old, new = request_difference(recorded, sent)
    assert path == "tools[0].enum"
    stopped = Divergence(2, path, old, new)
    assert str(stopped) == ("divergence at model call 2: tools[0].enum "
                            "(same items, another order: built from a set?)")
    assert stopped.to_dict()["reordered"] is True
    other = {"tools": [{"name": "t", "enum": ["alice", "bob", "dave"]}]}
    path, old, new = request_difference(recorded, other)
    assert path == "tools[0].enum[2]" and not Divergence(2, path, old, new).reordered
