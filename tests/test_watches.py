"""Watches against the locals: a watch skipped while its inputs cannot have changed
(runtime/questions/code.py) still shows what evaluating it at every step would show."""

import subprocess
from pathlib import Path

import pytest

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.questions.watches import MAX_WATCHES
from loopstep.runtime.recorder import record
from test_questions import cases, recorder_tests   # question_cases.py and test_recorder.py, loaded

HERE = Path(__file__).parent
CORPUS = HERE / "oracle_lessons"
BLOCKS = [(lesson.id, block.id, "normal")
          for lesson in load_lessons([CORPUS]).values() for block in lesson.blocks]


def locals_by_step(trace):
    """[{name: VALUE}] of each step's frame: the fold of each frame's set/del."""
    current, out = {}, []
    for step in trace["steps"]:
        names = current.setdefault(step["frame"], {})
        names.update(step["set"])
        for name in step.get("del", []):
            names.pop(name, None)
        out.append(dict(names))
    return out


@pytest.mark.parametrize("lesson, block, scenario", BLOCKS, ids=[f"{b[0]}/{b[1]}" for b in BLOCKS])
def test_a_bare_name_watch_is_the_local_at_every_step(lesson, block, scenario):
    """On every block of the oracle corpus (generators, closures, classes, comprehensions,
    exceptions): a watch of each local's name equals that local at each step it is bound."""
    plain = record(lesson, block, scenario, roots=[CORPUS])
    names = sorted({name for step in plain["steps"] for name in step["set"]
                    if not name.startswith("__")})   # refused in an expression
    if not names:
        names = ["len"]
    probed = record(lesson, block, scenario, roots=[CORPUS], questions={"watches": names})
    assert {k: v for k, v in probed.items() if k != "probes"} == plain
    watched = cases.watch_values(probed)
    compared = 0
    for n, local in enumerate(locals_by_step(plain)):
        for k, name in enumerate(names):
            if name in local:
                assert watched[n][k] == local[name], (n, name)
                compared += 1
    assert compared or names == ["len"]


CHANGES = '''\
COUNT = 0


def bump():
    global COUNT
    COUNT += 1


def shadow():
    global len
    len = lambda value: 0


def counting(n):
    word = "word"
    items = []
    for _ in range(3):
        bump()
        items.append(word)
    shadow()
    return word
'''


def test_a_watch_follows_what_changes_outside_its_locals(tmp_path):
    """A global changed by another function, a list changed in place and a builtin shadowed
    by a global all show at the next step, though the frame's own bindings stayed."""
    root = recorder_tests.write_lesson(tmp_path, CHANGES)
    trace = record("t", "counting", "normal", roots=[root],
                   questions={"watches": ["COUNT", "len(items)", "len(word)", "word.upper()"]})
    values = cases.watch_values(trace)
    main = [n for n, s in enumerate(trace["steps"]) if s["fn"] == "counting"]
    seen = [[] for _ in range(4)]
    for n in main:
        for k in range(4):
            if not seen[k] or seen[k][-1] != values[n][k]:
                seen[k].append(values[n][k])
    assert seen[0] == ["0", "1", "2", "3"]
    assert seen[1][0] == {"error": "NameError: name 'items' is not defined"}
    assert seen[1][1:4] == ["0", "1", "2"]   # appended in place: one binding, three changes
    assert seen[1][4] == "3"
    assert seen[2][:2] == [{"error": "NameError: name 'word' is not defined"}, "4"]
    assert seen[2][2]["error"].startswith("not evaluated: calling")   # len is the program's now
    assert seen[1][-1]["error"].startswith("not evaluated: calling")
    assert seen[3] == [{"error": "NameError: name 'word' is not defined"}, "'WORD'"]
    assert trace["stdout"] == ""


def test_watches_are_capped_alike_in_python_and_the_page(tmp_path):
    """At most MAX_WATCHES watches: the recorder refuses more, naming the cap; the page's
    model leaves more out (tests/js/omni.test.mjs), with the same number."""
    done = subprocess.run(["node", "--input-type=module", "-e",
                           'import { MAX_WATCHES } from "./web/static/js/model/questions.js";'
                           'console.log(MAX_WATCHES)'],
                          cwd=HERE.parent, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == MAX_WATCHES == 50
    root = recorder_tests.write_lesson(tmp_path, CHANGES)
    names = [f"COUNT + {k}" for k in range(MAX_WATCHES)]
    trace = record("t", "counting", "normal", roots=[root], questions={"watches": names})
    values = cases.watch_values(trace)
    last = max(n for n, s in enumerate(trace["steps"]) if s["fn"] == "counting")
    assert values[last][MAX_WATCHES - 1] == str(3 + MAX_WATCHES - 1)   # COUNT is 3 by then
    with pytest.raises(ValueError, match=r"^questions: at most 50 watches, not 70000$"):
        record("t", "counting", "normal", roots=[root],
               questions={"watches": [f"COUNT + {k}" for k in range(70_000)]})
