"""Lesson loading: the bundled s06 lesson and the validation errors."""

from pathlib import Path

import pytest

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


def broken(tmp_path, toml=(), code=None, add=""):
    """The fixture lesson with `toml` replacements (and `add` appended), and its error."""
    changes = {"lesson.toml": list(toml)}
    if code:
        changes["code.py"] = [code]
    roots = make(tmp_path, **changes)
    if add:
        path = tmp_path / "x" / "lesson.toml"
        path.write_text(path.read_text("utf-8") + add, "utf-8")
    with pytest.raises(LessonError) as caught:
        load_lessons(roots)
    return str(caught.value)


def expect_error(tmp_path, where, reason, **kwargs):
    """The error starts with the lesson file's full path and `where`, then the reason."""
    message = broken(tmp_path, **kwargs)
    toml = tmp_path / "x" / "lesson.toml"
    assert message.startswith(f"{toml}{' ' + where if where else ''}: "), message
    assert reason in message, message
    return message


AGENT = '\n[agent]\nmodel = ["f"]\n'
STAGE_LINE = '{ block = "f", from = 1, to = 2 }'
PRESETS = '[[presets]]\nname = "normal"\nzh = "正常"\nen = "Normal"\n'

# (name, toml replacements or appended text, where after the file's path, reason)
SCHEMA_ERRORS = [
    # wrong types, at every level
    ("title is text", [('title = {zh = "测", en = "T"}', 'title = "T"')], "",
     "[title]", "expected a table of zh and en texts, got text 'T'"),
    ("title.zh is a number", [('title = {zh = "测"', 'title = {zh = 1')], "",
     "[title.zh]", "expected text, got an integer 1"),
    ("summary.en is empty", [('summary = {zh = "测", en = "T"}', 'summary = {zh = "测", en = ""}')], "",
     "[summary.en]", "expected text, got empty text"),
    ("setup is a list", [('setup = "x/setup.py"', 'setup = ["x/setup.py"]')], "",
     "[setup]", "expected a path relative to the lessons directory, got an array"),
    ("modules is text", [('modules = ["x/code.py"]', 'modules = "x/code.py"')], "",
     "[modules]", "expected an array of paths, got text 'x/code.py'"),
    ("a module is a number", [('modules = ["x/code.py"]', 'modules = ["x/code.py", 2]')], "",
     "[modules] #2", "expected a path relative to the lessons directory, got an integer 2"),
    ("top-level presets of names", [(PRESETS, ""), ('modules = ["x/code.py"]',
                                                    'modules = ["x/code.py"]\npresets = ["x"]')], "",
     "[presets]", "expected [[presets]] tables, got an array ['x']"),
    ("a preset name is a number", [('name = "normal"', "name = 1")], "",
     "(preset #1) [name]", "expected a name (letters, digits, '_' and '-'), got an integer 1"),
    ("a preset name with a slash", [('name = "normal"', 'name = "a/b"')], "",
     "(preset a/b) [name]", "'a/b' is not a name"),
    ("block presets is text", [('presets = ["normal"]', 'presets = "normal"')], "",
     "(block f) [presets]", "expected an array of preset names, got text 'normal'"),
    ("block symbol is a boolean", [('symbol = "f"', "symbol = true")], "",
     "(block #1) [symbol]",
     'expected a Python function name (the whole file is symbols = ["*"]), got a boolean True'),
    ("block symbol is no name", [('symbol = "f"', 'symbol = "f g"')], "",
     "(block f g) [symbol]", "'f g' is not a Python function name"),
    ("entry is a table", [('entry = "f()"', "entry = {code = 'f()'}")], "",
     "(block f) [entry]", "expected the call entry's code, got a table"),
    ("stages is a table", [("[[stages]]", "[stages]")], "",
     "[stages]", "expected [[stages]] tables, got a table"),
    ("stage lines is text", [(f"lines = [{STAGE_LINE}]", 'lines = "1-2"')], "",
     "(stage s) [lines]", "expected an array of {block, from, to} tables, got text '1-2'"),
    ("a stage line is a number", [(f"lines = [{STAGE_LINE}]", "lines = [3]")], "",
     "(stage s) [lines] #1", "expected a table {block, from, to}, got an integer 3"),
    ("from is a boolean", [("from = 1", "from = true")], "",
     "(stage s) [lines] #1 [from]", "expected a line number (1 or more), got a boolean True"),
    ("from is a float", [("from = 1", "from = 1.0")], "",
     "(stage s) [lines] #1 [from]", "got a float 1.0"),
    ("from is zero", [("from = 1", "from = 0")], "",
     "(stage s) [lines] #1 [from]", "expected a line number (1 or more), got 0"),
    ("agent is text", [('modules = ["x/code.py"]', 'modules = ["x/code.py"]\nagent = "f"')], "",
     "[agent]", "expected a table with model = [...], tools = [...] and gate = \"NAME\", got text 'f'"),
    ("agent model is text", [], '\n[agent]\nmodel = "f"\n',
     "[agent.model]", "expected an array of dotted names, got text 'f'"),
    ("an agent name is a number", [], '\n[agent]\nmodel = [1]\n',
     "[agent.model] #1", "expected a dotted Python name, got an integer 1"),
    # empty and duplicate lists, duplicate names
    ("no presets", [(PRESETS, ""), ('modules = ["x/code.py"]', 'modules = ["x/code.py"]\npresets = []')],
     "", "[presets]", "expected at least 1 of [[presets]] tables, got none"),
    ("block presets empty", [('presets = ["normal"]', "presets = []")], "",
     "(block f) [presets]", "expected an array of preset names, got an empty array"),
    ("block presets twice", [('presets = ["normal"]', 'presets = ["normal", "normal"]')], "",
     "(block f) [presets] #2", "'normal' is listed twice (also #1)"),
    ("modules empty", [('modules = ["x/code.py"]', "modules = []")], "",
     "[modules]", "expected an array of paths, got an empty array"),
    ("a module twice", [('modules = ["x/code.py"]', 'modules = ["x/code.py", "x/code.py"]')], "",
     "[modules] #2", "'x/code.py' is listed twice (also #1)"),
    ("two presets named alike", [], "\n" + PRESETS,
     "(preset normal)", "duplicate name 'normal' (also preset #1)"),
    ("a stage id twice", [], '\n[[stages]]\nid = "s"\nzh = "阶段"\nen = "Stage"\n'
     f"lines = [{STAGE_LINE}]\n", "(stage s)", "duplicate id 's' (also stage #1)"),
    ("stage lines empty", [(f"lines = [{STAGE_LINE}]", "lines = []")], "",
     "(stage s) [lines]", "got an empty array"),
    ("an agent name twice", [], '\n[agent]\nmodel = ["f", "f"]\n',
     "[agent.model] #2", "'f' is listed twice (also #1)"),
    ("symbols empty", [('symbol = "f"', "symbols = []")], "",
     "(block #1) [symbols]", 'expected an array of function names, or ["*"], got an empty array'),
    ("symbols twice", [('symbol = "f"', 'symbols = ["f", "f"]')], "",
     "(block #1) [symbols] #2", "'f' is listed twice (also #1)"),
    ("symbols not names", [('symbol = "f"', 'symbols = ["f", 2]')], "",
     "(block #1) [symbols] #2", 'expected a Python function name, or "*" alone, got an integer 2'),
    ("symbols is text", [('symbol = "f"', 'symbols = "f"')], "",
     "(block #1) [symbols]", "got text 'f'"),
    ("symbol and symbols", [('symbol = "f"', 'symbol = "f"\nsymbols = ["f"]')], "",
     "(block f)", "expected exactly one of symbol, symbols, got symbol, symbols"),
    ("neither symbol nor symbols", [('symbol = "f"\n', "")], "",
     "(block #1)", "expected exactly one of symbol, symbols, got none"),
    ("symbol is the whole file", [('symbol = "f"', 'symbol = "*"')], "",
     "(block *) [symbol]", """'*' is not a Python function name (the whole file is symbols = ["*"])"""),
    ("id is a number", [('symbol = "f"', 'symbol = "f"\nid = 3')], "",
     "(block f) [id]", "expected a block id, got an integer 3"),
    ("standins is text", [('modules = ["x/code.py"]', 'modules = ["x/code.py"]\nstandins = "x"')], "",
     "[standins]", "expected a table (modules = [...], model = \"reply\", ...), got text"),
    ("standins modules is text", [], '\n[standins]\nmodules = "dotenv"\n',
     "[standins.modules]", "expected an array of module names, got text 'dotenv'"),
    ("standins modules empty", [], '\n[standins]\nmodules = []\n',
     "[standins.modules]", "expected an array of module names, got an empty array"),
    ("standins module twice", [], '\n[standins]\nmodules = ["dotenv", "dotenv"]\n',
     "[standins.modules] #2", "'dotenv' is listed twice (also #1)"),
    ("standins model is a number", [], '\n[standins]\nmodel = 1\n',
     "[standins.model]", "expected a Python function name, got an integer 1"),
    ("standins shell is no name", [], '\n[standins]\nshell = "run it"\n',
     "[standins.shell]", "'run it' is not a Python function name"),
    ("standins env value is a number", [], '\n[standins]\nenv = { MODEL_ID = 4 }\n',
     "[standins.env.MODEL_ID]", "expected text, got an integer 4"),
    ("standins files is an array", [], '\n[standins]\nfiles = ["a.txt"]\n',
     "[standins.files]", 'expected a table of texts (NAME = "text"), got an array'),
    ("standins input is text", [], '\n[standins]\ninput = "y"\n',
     "[standins.input]", "expected an array of texts, got text 'y'"),
    ("standins input entry is a boolean", [], '\n[standins]\ninput = ["y", true]\n',
     "[standins.input] #2", "expected text, got a boolean True"),
    # unknown keys, at every level
    ("unknown top-level key", [('modules = ["x/code.py"]', 'modules = ["x/code.py"]\ncolour = "red"')], "",
     "", "unknown key 'colour' (known: title, summary, setup, modules, presets, blocks, stages, agent, "
         "standins, diagram, max_model_calls)"),
    ("unknown language", [('title = {zh = "测", en = "T"}', 'title = {zh = "测", en = "T", fr = "T"}')],
     "", "[title]", "unknown key 'fr' (known: zh, en)"),
    ("unknown preset key", [('en = "Normal"', 'en = "Normal"\ndefault = true')], "",
     "(preset normal)", "unknown key 'default' (known: name, zh, en, input, recording)"),
    ("unknown block key", [('entry = "f()"', 'entry = "f()"\nline = 3')], "",
     "(block f)", "unknown key 'line' (known: symbol, symbols, id, source, presets, entry, input)"),
    ("unknown stage key", [('id = "s"', 'id = "s"\ncolour = "red"')], "",
     "(stage s)", "unknown key 'colour' (known: id, zh, en, lines)"),
    ("unknown stage line key", [("to = 2 }", "to = 2, upto = 3 }")], "",
     "(stage s) [lines] #1", "unknown key 'upto' (known: block, from, to)"),
    ("unknown standins key", [], '\n[standins]\ncolour = "red"\n',
     "[standins]", "unknown key 'colour' (known: modules, model, shell, env, files, input)"),
    ("unknown agent key", [], '\n[agent]\nmodel = ["f"]\nprompt = ["f"]\n',
     "[agent]", "unknown key 'prompt' (known: model, tools, gate)"),
    ("agent gate not text", [], '\n[agent]\nmodel = ["f"]\ngate = ["f"]\n',
     "[agent.gate]", "expected a dotted Python name, got an array"),
    # missing required keys
    ("no setup", [('setup = "x/setup.py"', "")], "",
     "", "missing key 'setup' (a path relative to the lessons directory)"),
    ("no title.en", [('title = {zh = "测", en = "T"}', 'title = {zh = "测"}')], "",
     "[title]", "missing key 'en' (text)"),
    ("no blocks", [('[[blocks]]\nsymbol = "f"\nsource = "x/code.py"\npresets = ["normal"]\n'
                    'entry = "f()"\n', "")], "", "", "missing key 'blocks' ([[blocks]] tables)"),
    ("no preset label", [('en = "Normal"', "")], "",
     "(preset normal)", "missing key 'en' (text)"),
    ("no stage caption", [('zh = "阶段"', "")], "",
     "(stage s)", "missing key 'zh' (text)"),
    ("no stage line end", [(", to = 2", "")], "",
     "(stage s) [lines] #1", "missing key 'to' (a line number (1 or more))"),
]


@pytest.mark.parametrize("toml,add,where,reason", [case[1:] for case in SCHEMA_ERRORS],
                         ids=[case[0] for case in SCHEMA_ERRORS])
def test_malformed_lesson_files_name_the_file_the_place_and_the_reason(tmp_path, toml, add, where,
                                                                       reason):
    expect_error(tmp_path, where, reason, toml=toml, add=add)


# (name, toml replacements or appended text, code.py change, where, reason): what the
# schema cannot know, checked against the lesson's other files.
LESSON_ERRORS = [
    ("setup not found", [('setup = "x/setup.py"', 'setup = "x/nothere.py"')], "", None,
     "[setup]", "file 'x/nothere.py' not found"),
    ("setup absolute", [('setup = "x/setup.py"', 'setup = "/etc/passwd"')], "", None,
     "[setup]", "must be relative"),
    ("module outside", [('modules = ["x/code.py"]', 'modules = ["x/../x/code.py"]')], "", None,
     "[modules]", "without '..'"),
    ("unknown preset", [('presets = ["normal"]', 'presets = ["normal", "odd"]')], "", None,
     "(block f) [presets]", "names unknown preset 'odd' (the lesson's: normal)"),
    ("source not a module", [('source = "x/code.py"', 'source = "x/setup.py"')], "", None,
     "(block f) [source]", "'x/setup.py' is not one of the modules"),
    ("unknown block", [('block = "f"', 'block = "g"')], "", None,
     "(stage s) [lines]", "names unknown block 'g'"),
    ("outside the block", [("to = 2", "to = 3")], "", None,
     "(stage s) [lines]", "lines 1..3 are outside block f (lines 1..2)"),
    ("from after to", [("from = 1, to = 2", "from = 2, to = 1")], "", None,
     "(stage s) [lines]", "from 2 is after to 1 (block f)"),
    ("custom is reserved", [('name = "normal"', 'name = "custom"'), ('["normal"]', '["custom"]')],
     "", None, "(preset custom)", "the preset name 'custom' is reserved"),
    ("agent name undefined", [], '\n[agent]\nmodel = ["g"]\n', None,
     "[agent]", "model: 'g' is not defined at the top level of the setup or the modules"),
    ("agent name not dotted", [], '\n[agent]\nmodel = ["f("]\n', None,
     "[agent]", "model: 'f(' is not a dotted Python name"),
    ("agent gate undefined", [], '\n[agent]\nmodel = ["f"]\ngate = "check"\n', None,
     "[agent]", "gate: 'check' is not defined at the top level of the setup or the modules"),
    ("agent gate not dotted", [], '\n[agent]\nmodel = ["f"]\ngate = "f("\n', None,
     "[agent]", "gate: 'f(' is not a dotted Python name"),
    ("agent both", [], '\n[agent]\nmodel = ["f"]\ntools = ["f"]\n', None,
     "[agent]", "'f' is both a model call and a tool"),
    ("a block twice", [], '\n[[blocks]]\nsymbol = "f"\nsource = "x/code.py"\nentry = "f()"\n',
     None, "(block f)", "two blocks have the id 'f' (give one of them another 'id')"),
    ("a default id twice", [("[[stages]]", '[[blocks]]\nid = "f"\nsymbols = ["*"]\n'
                                            'source = "x/code.py"\n[[stages]]')], "", None,
     "(block f)", "two blocks have the id 'f'"),
    ("an id of other characters", [('symbol = "f"', 'symbol = "f"\nid = "a/b"')], "", None,
     "(block a/b) [id]", "id 'a/b' must be letters, digits, '_', '-' or '.'"),
    ("no entry", [('entry = "f()"', "")], "", None,
     "(block f)", "missing key 'entry' (text); only a symbols = [\"*\"] block may leave it out"),
    ("no entry for several functions", [('symbol = "f"', 'symbols = ["f"]'), ('entry = "f()"', "")],
     "", None, "(block f)", "missing key 'entry' (text)"),
    ("agent names nothing", [], '\n[agent]\nmodel = []\n', None,
     "[agent]", "names no model call and no tool"),
]


@pytest.mark.parametrize("toml,add,code,where,reason", [case[1:] for case in LESSON_ERRORS],
                         ids=[case[0] for case in LESSON_ERRORS])
def test_lessons_that_do_not_fit_their_files(tmp_path, toml, add, code, where, reason):
    expect_error(tmp_path, where, reason, toml=toml, add=add, code=code)


def test_errors_in_other_files_name_them_and_the_lesson_file(tmp_path):
    toml = tmp_path / "x" / "lesson.toml"
    message = broken(tmp_path, code=("def f():", "def g():"))
    assert message.startswith(f"{tmp_path / 'x' / 'code.py'}: no top-level function 'f' "
                              f"(block f of {toml})"), message
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
     "no top-level function 'nope' (block f of {toml})"),
    ([('symbol = "f"', 'id = "both"\nsymbols = ["f", "g"]')],
     ("    return n\n", "    return n\n\n\nclass g:\n    pass\n"),
     "no top-level function 'g' (block both of {toml})"),
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
