"""Lesson loading: the bundled s06 lesson and the validation errors."""

from pathlib import Path

import pytest

from runtime.catalog import BUNDLED_ROOTS, LessonError, load_lesson, load_lessons

REPO = Path(__file__).parent.parent


def test_bundled_roots_are_anchored():
    assert BUNDLED_ROOTS == (REPO / "runtime" / "lessons", REPO / "stubs")


def test_s06_lesson():
    lessons = load_lessons()
    assert "s06" in lessons
    lesson = lessons["s06"]
    assert lesson.title["zh"].startswith("实践｜Subagent") and set(lesson.title) == {"zh", "en"}
    assert set(lesson.summary) == {"zh", "en"}
    assert [p.name for p in lesson.presets] == ["normal", "missing", "limit", "forbidden",
                                                "long", "invalid"]
    assert lesson.preset("limit").zh == "预算耗尽/未完成"
    assert {b.symbol: b.presets for b in lesson.blocks} == {
        "child_tools": ("normal", "missing"),
        "run_subagent": ("normal", "missing", "limit", "forbidden", "invalid"),
        "task_result": ("normal", "limit", "long"),
    }
    block = lesson.block("run_subagent")
    assert (block.def_line, block.line_count) == (11, 17)
    assert block.text.splitlines()[0].startswith("def run_subagent(")
    assert block.entry_path == "s06/entry/run_subagent.py"
    assert [s.id for s in lesson.stages] == ["child_tools", "run_subagent", "task_result"]
    assert lesson.files == {
        "s06/lesson.toml": REPO / "stubs/s06/lesson.toml",
        "s06/setup.py": REPO / "stubs/s06/setup.py",
        "s01/core/loop.py": REPO / "runtime/lessons/s01/core/loop.py",
        "s06/core/runtime.py": REPO / "runtime/lessons/s06/core/runtime.py",
    }


def test_programs_follow_the_design():
    lesson = load_lesson("s06")
    programs = lesson.programs("task_result", "long")
    assert [p.path for p in programs] == ["s06/setup.py", "s01/core/loop.py",
                                          "s06/core/runtime.py", "s06/entry/task_result.py"]
    setup = (REPO / "stubs/s06/setup.py").read_text("utf-8")
    assert programs[0].text == "scenario = 'long'\n" + setup
    assert lesson.setup_text("long") == programs[0].text
    assert programs[2].text == (REPO / "runtime/lessons/s06/core/runtime.py").read_text("utf-8")
    assert programs[3].text == lesson.block("task_result").entry
    with pytest.raises(KeyError):
        lesson.setup_text("nope")


# -- validation ------------------------------------------------------------------

GOOD = {
    "lesson.toml": '''
title = {zh = "测", en = "T"}
summary = {zh = "测", en = "T"}
setup = "x/setup.py"
modules = ["x/code.py"]
[[presets]]
name = "normal"
zh = "正常"
en = "Normal"
[[blocks]]
symbol = "f"
source = "x/code.py"
presets = ["normal"]
entry = "f()"
[[stages]]
id = "s"
zh = "阶段"
en = "Stage"
lines = [{ block = "f", from = 1, to = 2 }]
''',
    "setup.py": "n = 1\n",
    "code.py": "def f():\n    return n\n",
}


def make(tmp_path, **changes):
    folder = tmp_path / "x"
    folder.mkdir(parents=True)
    for name, text in GOOD.items():
        for old, new in changes.get(name, []):
            assert old in text
            text = text.replace(old, new)
        (folder / name).write_text(text, "utf-8")
    return [tmp_path]


def test_fixture_is_valid(tmp_path):
    lesson = load_lesson("x", make(tmp_path))
    assert lesson.block("f").text == "def f():\n    return n"


BAD = [
    ({"lesson.toml": [('setup = "x/setup.py"', 'setup = "x/nothere.py"')]},
     "x/lesson.toml [setup]", "'x/nothere.py' not found"),
    ({"lesson.toml": [('setup = "x/setup.py"', 'setup = "/etc/passwd"')]},
     "x/lesson.toml [setup]", "must be relative"),
    ({"lesson.toml": [('modules = ["x/code.py"]', 'modules = ["x/../x/code.py"]')]},
     "x/lesson.toml [modules]", "without '..'"),
    ({"code.py": [("def f():", "def g():")]},
     "code.py", "no top-level function 'f'"),
    ({"lesson.toml": [('presets = ["normal"]', 'presets = ["normal", "odd"]')]},
     "(block f)", "unknown preset 'odd'"),
    ({"lesson.toml": [('block = "f"', 'block = "g"')]},
     "(stage s)", "unknown block 'g'"),
    ({"lesson.toml": [("to = 2", "to = 3")]},
     "(stage s)", "lines 1..3 are outside block f (lines 1..2)"),
    ({"lesson.toml": [('modules = ["x/code.py"]', 'modules = []')]},
     "x/lesson.toml", "is not one of the modules"),
    ({"code.py": [("return n", "return (")]},
     "code.py", "syntax error on line 2"),
    ({"lesson.toml": [('name = "normal"', 'name = "custom"'), ('["normal"]', '["custom"]')]},
     "x/lesson.toml", "preset name 'custom' is reserved"),
]


@pytest.mark.parametrize("changes,where,reason", BAD, ids=[r for _, _, r in BAD])
def test_invalid_lessons_name_file_and_reason(tmp_path, changes, where, reason):
    roots = make(tmp_path, **changes)
    with pytest.raises(LessonError) as caught:
        load_lessons(roots)
    assert where in caught.value.where or where in str(caught.value)
    assert reason in str(caught.value)


def test_roots_are_searched_in_order(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    make(first)
    (second / "x").mkdir(parents=True)
    (second / "x" / "extra.py").write_text("E = 1\n", "utf-8")
    (first / "x" / "code.py").unlink()
    (second / "x" / "code.py").write_text("def f():\n    return 2\n", "utf-8")
    lesson = load_lesson("x", [first, second])
    assert lesson.files["x/code.py"] == second / "x" / "code.py"
    assert lesson.files["x/setup.py"] == first / "x" / "setup.py"


def test_unknown_lesson(tmp_path):
    with pytest.raises(KeyError):
        load_lesson("s99")
    with pytest.raises(LessonError):
        load_lesson("../s06")
