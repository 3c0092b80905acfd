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
    assert {b.id: b.presets for b in lesson.blocks} == {
        "child_tools": ("normal", "missing"),
        "run_subagent": ("normal", "missing", "limit", "forbidden", "invalid"),
        "task_result": ("normal", "limit", "long"),
    }
    block = lesson.block("run_subagent")
    assert (block.symbol, block.symbols, block.first_line) == \
        ("run_subagent", ("run_subagent",), 11)
    assert (block.def_line, block.line_count, block.spans) == (11, 17, [[1, 17]])
    assert [row[0] for row in block.rows] == list(range(1, 18))
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
    ({"lesson.toml": [('symbol = "f"', 'symbols = ["f", "nope"]')]},
     "code.py", "no top-level function 'nope' (block ['f', 'nope'] of x/lesson.toml)"),
    ({"lesson.toml": [('symbol = "f"', 'id = "both"\nsymbols = ["f", "g"]')],
      "code.py": [("    return n\n", "    return n\n\n\nclass g:\n    pass\n")]},
     "code.py", "no top-level function 'g' (block both of x/lesson.toml)"),
    ({"lesson.toml": [('symbol = "f"', 'symbols = []')]},
     "code.py", "symbols must be a non-empty list"),
    ({"lesson.toml": [('symbol = "f"', 'symbols = ["*", "f"]')]},
     "code.py", '"*" (the whole file) must be the only entry'),
    ({"lesson.toml": [('symbol = "f"', 'symbols = ["f", "f"]')]},
     "code.py", "symbols names a function twice"),
    ({"lesson.toml": [('symbol = "f"', 'symbol = "f"\nsymbols = ["f"]')]},
     "x/lesson.toml", "exactly one of 'symbol' and 'symbols'"),
    ({"lesson.toml": [('symbol = "f"', 'symbol = "*"')]},
     "x/lesson.toml", 'symbols = ["*"], not symbol = "*"'),
    ({"lesson.toml": [('symbol = "f"', 'symbol = "f"\nid = "a/b"')]},
     "(block a/b)", "id 'a/b' must be letters"),
    ({"lesson.toml": [("[[stages]]", '[[blocks]]\nid = "f"\nsymbols = ["*"]\n'
                                     'source = "x/code.py"\n[[stages]]')]},
     "x/lesson.toml", "two blocks have the id 'f'"),
]


@pytest.mark.parametrize("changes,where,reason", BAD, ids=[r for _, _, r in BAD])
def test_invalid_lessons_name_file_and_reason(tmp_path, changes, where, reason):
    roots = make(tmp_path, **changes)
    with pytest.raises(LessonError) as caught:
        load_lessons(roots)
    assert where in caught.value.where or where in str(caught.value)
    assert reason in str(caught.value)


SYMBOLS = {"lesson.toml": [
    ('lines = [{ block = "f", from = 1, to = 2 }]',
     'lines = [{ block = "pair", from = 9, to = 10 }, { block = "code", from = 1, to = 9 }]'),
    ("[[stages]]", '[[blocks]]\nid = "pair"\nsymbols = ["h", "f"]\nsource = "x/code.py"\n'
                   'entry = "f()"\n[[blocks]]\nsymbols = ["*"]\nsource = "x/code.py"\n'
                   '[[blocks]]\nsymbols = ["h", "g"]\nsource = "x/code.py"\nentry = "h()"\n'
                   '[[stages]]')],
    "code.py": [("def f():\n    return n\n",
                 "def f():\n    return n\n\n\ndef g():\n    pass\nX = 1\n@staticmethod\n"
                 "def h():\n    return g()\n")]}


def test_symbols_blocks_number_file_lines_and_elide_gaps(tmp_path):
    lesson = load_lesson("x", make(tmp_path, **SYMBOLS))
    assert [b.id for b in lesson.blocks] == ["f", "pair", "code", "h"]
    pair = lesson.block("pair")
    assert (pair.symbol, pair.symbols, pair.first_line) == (None, ("h", "f"), 1)
    assert [(p.name, p.first, p.last, p.code_line) for p in pair.parts] == \
        [("f", 1, 2, 1), ("h", 9, 10, 8)]
    assert pair.rows == ((1, "def f():"), (2, "    return n"), None,
                         (9, "def h():"), (10, "    return g()"))
    assert pair.spans == [[1, 2], [9, 10]] and pair.shows(9) and not pair.shows(5)
    assert pair.entry_path == "x/entry/pair.py"
    adjacent = lesson.block("h")   # `X = 1` and a decorator between g and h: a gap
    assert [row and row[0] for row in adjacent.rows] == [5, 6, None, 9, 10]
    whole = lesson.block("code")
    assert (whole.symbols, whole.entry, whole.spans) == (("*",), "", [[1, 10]])
    assert whole.text == (tmp_path / "x" / "code.py").read_text("utf-8").rstrip("\n")
    assert [(s.block, s.first, s.last) for s in lesson.stages[0].lines] == \
        [("pair", 9, 10), ("code", 1, 9)]


def test_symbols_blanks_between_functions_are_shown(tmp_path):
    lesson = load_lesson("x", make(tmp_path, **SYMBOLS))
    pair = lesson.block("pair")
    assert pair.text == "def f():\n    return n\ndef h():\n    return g()"
    fg = {"lesson.toml": [("[[stages]]", '[[blocks]]\nsymbols = ["g", "f"]\n'
                                         'source = "x/code.py"\nentry = "f()"\n[[stages]]')],
          "code.py": SYMBOLS["code.py"]}
    block = load_lesson("x", make(tmp_path / "fg", **fg)).block("g")
    assert [row[0] for row in block.rows] == [1, 2, 3, 4, 5, 6]   # two blank lines, shown


def test_symbols_stage_lines_must_be_displayed(tmp_path):
    changes = {**SYMBOLS, "lesson.toml": [*SYMBOLS["lesson.toml"][:1],
                                          ("from = 9, to = 10", "from = 3, to = 9"),
                                          *SYMBOLS["lesson.toml"][1:]]}
    with pytest.raises(LessonError) as caught:
        load_lesson("x", make(tmp_path, **changes))
    assert "lines 3..9 are outside block pair (lines 1..2, 9..10)" in str(caught.value)


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
