"""The fixture lesson of the catalog's tests: a valid lesson in a temporary root, made
with text replacements, and the error a broken one gives."""

import pytest

from loopstep.runtime.catalog.lessons import LessonError, load_lessons

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
