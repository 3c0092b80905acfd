"""``input`` answers per block and per preset (issue 36): a whole-file block whose
``__main__`` REPL reads input and a function block that does not share one lesson; a
preset's ``input`` wins over its block's, a block's over the lesson's ``[standins]``."""

from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record

CODE = '''def greet(name):
    line = f"hello {name}"
    print(line)
    return line


if __name__ == "__main__":
    while True:
        try:
            name = input("name> ")
        except EOFError:
            break
        greet(name)
'''

TOML = '''
title = {zh = "问候", en = "Greetings"}
summary = {zh = "读名字问候。", en = "Reads names, greets them."}
setup = "hi/setup.py"
modules = ["hi/code.py"]

[standins]
input = ["lesson-wide"]

[[presets]]
name = "two"
zh = "两位"
en = "Two"

[[presets]]
name = "one"
zh = "一位"
en = "One"
input = ["zed"]

[[blocks]]
symbols = ["*"]
id = "repl"
source = "hi/code.py"
input = ["ann", "bob"]

[[blocks]]
symbol = "greet"
source = "hi/code.py"
input = []
entry = "greet('cy')\\n"

[[blocks]]
symbol = "greet"
id = "lesson_input"
source = "hi/code.py"
presets = ["two"]
entry = "greet('cy')\\n"
'''


def lessons(tmp_path):
    folder = tmp_path / "hi"
    folder.mkdir()
    (folder / "lesson.toml").write_text(TOML, "utf-8")
    (folder / "code.py").write_text(CODE, "utf-8")
    (folder / "setup.py").write_text("", "utf-8")
    return [tmp_path]


def greeted(trace):
    return [line.split("hello ")[1] for line in trace["stdout"].splitlines() if "hello " in line]


def test_the_repl_block_reads_its_answers_and_the_function_block_none(tmp_path):
    roots = lessons(tmp_path)
    assert greeted(record("hi", "repl", "two", roots=roots)) == ["ann", "bob"]
    # the function block's program runs the module's REPL too, on no input: greet once
    assert greeted(record("hi", "greet", "two", roots=roots)) == ["cy"]


def test_a_presets_input_wins_over_its_blocks(tmp_path):
    roots = lessons(tmp_path)
    assert greeted(record("hi", "repl", "one", roots=roots)) == ["zed"]
    assert greeted(record("hi", "greet", "one", roots=roots)) == ["zed", "cy"]


def test_a_block_without_input_reads_the_lessons(tmp_path):
    roots = lessons(tmp_path)
    assert greeted(record("hi", "lesson_input", "two", roots=roots)) == ["lesson-wide", "cy"]
    lesson = load_lesson("hi", roots)
    assert lesson.answers("repl", "two") == ("ann", "bob")
    assert lesson.answers("greet", "two") == ()
    assert lesson.answers("lesson_input", "two") == ("lesson-wide",)
    assert lesson.answers("repl", "one") == ("zed",)
