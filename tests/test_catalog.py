"""Lesson loading: the bundled s06 lesson, errors in the lesson's other files, symbols
blocks and the roots (the lesson file's own errors: test_catalog_schema.py)."""

from pathlib import Path

import pytest

from catalog_fixture import AGENT, GOOD, broken, make
from loopstep.runtime.catalog.lessons import BUNDLED_ROOTS, LessonError, load_lesson, load_lessons

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


def test_fixture_is_valid(tmp_path):
    lesson = load_lesson("x", make(tmp_path))
    assert lesson.block("f").text == "def f():\n    return n"


def test_errors_in_other_files_name_them_and_the_lesson_file(tmp_path):
    toml = tmp_path / "x" / "lesson.toml"
    message = broken(tmp_path, code=("def f():", "def g():"))
    assert message.startswith(f"{tmp_path / 'x' / 'code.py'}: no top-level function 'f' "
                              f"(it has: g) (block f of {toml})"), message
    message = broken(tmp_path / "a", code=("return n", "return ("))
    # file:line:column, the message, the line marked (issue 36: no odd suffixes)
    assert message.startswith(f"{tmp_path / 'a' / 'x' / 'code.py'}:2:12: SyntaxError: "
                              "'(' was never closed\n    return (\n           ^\n"), message
    assert f"(block f of {tmp_path / 'a' / 'x' / 'lesson.toml'})" in message
    bad_setup = make(tmp_path / "b")
    (tmp_path / "b" / "x" / "setup.py").write_bytes(b"n = '\xff'\n")
    (tmp_path / "b" / "x" / "lesson.toml").write_text(GOOD["lesson.toml"] + AGENT, "utf-8")
    with pytest.raises(LessonError) as caught:
        load_lessons(bad_setup)
    assert str(caught.value).startswith(f"{tmp_path / 'b' / 'x' / 'setup.py'}: is not UTF-8 text (byte 5) "
                                        f"(read for {tmp_path / 'b' / 'x' / 'lesson.toml'} [agent])")


def test_a_setup_syntax_error_is_named_at_load_by_file_line_and_column(tmp_path):
    roots = make(tmp_path)
    (tmp_path / "x" / "setup.py").write_text("def model(messages):\n    return {'a': 1\n", "utf-8")
    (tmp_path / "x" / "lesson.toml").write_text(GOOD["lesson.toml"] + AGENT, "utf-8")
    with pytest.raises(LessonError) as caught:
        load_lessons(roots)
    assert str(caught.value) == (
        f"{tmp_path / 'x' / 'setup.py'}:2:12: SyntaxError: '{{' was never closed\n"
        "    return {'a': 1\n           ^\n"
        f"    (the setup of {tmp_path / 'x' / 'lesson.toml'})")


@pytest.mark.parametrize("toml,code,reason", [
    ([('symbol = "f"', 'symbols = ["f", "nope"]')], None,
     "no top-level function 'nope' (it has: f) (block f of {toml})"),
    ([('symbol = "f"', 'id = "both"\nsymbols = ["f", "g"]')],
     ("    return n\n", "    return n\n\n\nclass g:\n    pass\n"),
     "'g' is a class, not a function: name one of its methods (it has none) "
     "(block both of {toml})"),
    ([('symbol = "f"', 'symbols = ["*", "f"]')], None,
     '"*" (the whole file) must be the only entry of symbols (block * of {toml})'),
], ids=["a symbol not in the file", "a class is no function", "the whole file and more"])
def test_symbols_naming_no_function_name_the_module_and_the_lesson_file(tmp_path, toml, code,
                                                                        reason):
    message = broken(tmp_path, toml=toml, code=code)
    lesson = tmp_path / "x" / "lesson.toml"
    assert message == f"{tmp_path / 'x' / 'code.py'}: {reason.format(toml=lesson)}", message


def test_unreadable_lesson_files(tmp_path):
    roots = make(tmp_path)
    toml = tmp_path / "x" / "lesson.toml"
    toml.write_bytes(b'title = "\xe6"\n')
    with pytest.raises(LessonError, match=r"lesson\.toml: is not UTF-8 text \(byte 9\)"):
        load_lessons(roots)
    toml.write_text("title = {zh =", "utf-8")
    with pytest.raises(LessonError) as caught:
        load_lessons(roots)
    assert str(caught.value).startswith(f"{toml}: invalid TOML: ")


def test_a_block_without_presets_offers_all_of_them_in_order(tmp_path):
    roots = make(tmp_path, **{"lesson.toml": [('presets = ["normal"]\n', "")]})
    toml = tmp_path / "x" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8") + '\n[[presets]]\nname = "big"\nzh = "大"\nen = "Big"\n')
    assert load_lesson("x", roots).block("f").presets == ("normal", "big")


def test_an_agent_table_is_read(tmp_path):
    roots = make(tmp_path)
    toml = tmp_path / "x" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8") + '\n[agent]\nmodel = ["f"]\ntools = ["n"]\n', "utf-8")
    agent = load_lesson("x", roots).agent
    assert (agent.model, agent.tools) == (("f",), ("n",))


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
