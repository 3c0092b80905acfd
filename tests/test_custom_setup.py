"""The custom scenario: a block run with the reader's own setup text (runtime/catalog/custom.py)."""

import re

import pytest

from loopstep.runtime.trace import wire
from loopstep.runtime.catalog.lessons import CUSTOM, load_lesson
from loopstep.runtime.recorder import record, record_packed

LESSON = load_lesson("s06")


def setup_text(preset="normal"):
    """The setup text the editor starts with: the preset's setup program."""
    return LESSON.setup_text(preset)


def edited(old, new, preset="normal"):
    text = setup_text(preset)
    assert text.count(old) == 1, old
    return text.replace(old, new)


def without_scenario(trace):
    return {k: v for k, v in trace.items() if k != "scenario"}


@pytest.mark.parametrize("block", [b.id for b in LESSON.blocks])
def test_a_preset_setup_run_as_custom_is_that_preset_run(block):
    for preset in LESSON.block(block).presets:
        custom = record("s06", block, CUSTOM, setup=setup_text(preset))
        assert custom["scenario"] == CUSTOM and "setup_error" not in custom
        assert without_scenario(custom) == without_scenario(record("s06", block, preset))


def test_a_model_that_keeps_asking_for_tools_hits_the_call_limit():
    trace = record("s06", "run_subagent", CUSTOM, setup=edited("if index<2:", "if index<9:"))
    assert trace["status"] == "finished"
    assert trace["stdout"] == "完成： call_limit\n"
    normal = record("s06", "run_subagent", "normal")
    assert len(trace["steps"]) != len(normal["steps"])


def test_a_syntax_error_names_the_line_of_the_text_as_compile_does():
    text = edited("if index<2:", "if index<2")
    with pytest.raises(SyntaxError) as oracle:
        compile(text, "s06/setup.py", "exec")
    trace = record("s06", "run_subagent", CUSTOM, setup=text)
    assert trace["status"] == "exception" and trace["steps"] == []
    assert trace["setup_error"] == {"type": "SyntaxError", "message": oracle.value.msg,
                                    "line": oracle.value.lineno}
    assert text.split("\n")[trace["setup_error"]["line"] - 1].strip() == "if index<2"
    assert trace["stdout"].startswith('  File "s06/setup.py", line ')
    assert trace["stdout"].endswith("SyntaxError: expected ':'\n")
    assert wire.unpack(record_packed("s06", "run_subagent", CUSTOM, setup=text)) == trace


def test_an_indentation_error_keeps_its_type():
    trace = record("s06", "child_tools", CUSTOM, setup=setup_text() + "  x = 1\n")
    assert trace["setup_error"]["type"] == "IndentationError"
    assert trace["setup_error"]["line"] == len(setup_text().split("\n"))


def test_an_exception_on_a_setup_line_names_that_line():
    text = edited("QUESTION=", "tools = undefined_name\nQUESTION=")
    line = text.split("\n").index("tools = undefined_name") + 1
    trace = record("s06", "child_tools", CUSTOM, setup=text)
    assert trace["status"] == "exception" and trace["steps"] == []
    assert trace["setup_error"] == {"type": "NameError",
                                    "message": "name 'undefined_name' is not defined", "line": line}
    assert f'File "s06/setup.py", line {line}, in <module>' in trace["stdout"]


def test_an_exception_raised_in_a_setup_function_called_by_the_lesson_names_its_line():
    text = edited("    name=call[\"name\"]\n", "    name=call[\"name\"]\n    raise KeyError(name)\n")
    line = text.split("\n").index("    raise KeyError(name)") + 1
    trace = record("s06", "run_subagent", CUSTOM, setup=text)
    assert trace["status"] == "exception" and trace["steps"]
    assert trace["setup_error"] == {"type": "KeyError", "message": "'read_file'", "line": line}


def test_an_error_of_the_lesson_code_is_not_a_setup_error():
    trace = record("s06", "child_tools", CUSTOM, setup=setup_text() + "tools = 5\n")
    assert trace["status"] == "exception" and trace["error"]["type"] == "TypeError"
    assert "setup_error" not in trace


def test_setup_text_and_scenario_must_agree():
    with pytest.raises(ValueError, match="needs the setup text"):
        record("s06", "child_tools", CUSTOM)
    with pytest.raises(ValueError, match="runs only under scenario 'custom'"):
        record("s06", "child_tools", "normal", setup="x = 1\n")
    with pytest.raises(ValueError, match="longer than"):
        record("s06", "child_tools", CUSTOM, setup="#" * 100_001)


def test_the_page_agrees_with_the_recorder_and_the_vendored_editor():
    from pathlib import Path

    from loopstep.runtime.catalog import custom
    from loopstep.web import assets
    js = Path(__file__).resolve().parent.parent / "web" / "static" / "js" / "whatif"
    limit = re.search(r"MAX_SETUP_CHARS = ([\d_]+);", (js / "setup-url.js").read_text())
    assert int(limit.group(1).replace("_", "")) == custom.MAX_SETUP_CHARS
    editor = (js / "setup-editor.js").read_text()
    assert f'"../../../vendor/{assets.CODEMIRROR_DIR.name}/codemirror.mjs"' in editor
    assert (assets.CODEMIRROR_DIR / "codemirror.mjs").is_file()
