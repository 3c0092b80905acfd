"""One specification for value text: tests/fixtures/value_text.json.

Each case is a Python expression, the VALUE the recorder stores for it and the text
the reader sees. Here: the recorder's encoder gives those VALUEs, ``loopstep trace``
prints those texts (the same as the page: tests/js/value-text.test.mjs checks
``values.js`` against the same file), and where a case says so the text is Python's
own ``repr``.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from loopstep.runtime.cli import render

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_value_text",
                                               HERE / "fixtures" / "value_text.py")
spec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spec)

CASES = json.loads(spec.JSON.read_text("utf-8"))
IDS = [case["expr"] for case in CASES]


def test_the_file_is_written_from_the_cases():
    assert CASES == spec.build(), "run tests/fixtures/value_text.py to rewrite value_text.json"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_cli_prints_the_text(case):
    assert render(case["value"]) == case["text"]


@pytest.mark.parametrize("case", [c for c in CASES if c["repr"]], ids=[c["expr"] for c in CASES if c["repr"]])
def test_the_text_is_pythons_repr(case):
    assert repr(eval(case["expr"], spec.namespace())) == case["text"]


def test_loopstep_trace_shows_each_local_as_the_specification_says(tmp_path):
    lesson = tmp_path / "values"
    lesson.mkdir()
    (lesson / "setup.py").write_text(spec.HELPERS, "utf-8")
    body = "".join(f"    v{i} = {case['expr']}\n" for i, case in enumerate(CASES))
    (lesson / "code.py").write_text(f"def show():\n{body}    return None\n", "utf-8")
    (lesson / "lesson.toml").write_text(
        'title.zh = "值"\ntitle.en = "Values"\nsummary.zh = "值"\nsummary.en = "Values"\n'
        'setup = "values/setup.py"\nmodules = ["values/code.py"]\n'
        '[[presets]]\nname = "normal"\nzh = "默认"\nen = "Default"\n'
        '[[blocks]]\nsymbol = "show"\nsource = "values/code.py"\nentry = "show()\\n"\n', "utf-8")
    done = subprocess.run([sys.executable, "-m", "loopstep.runtime.cli", "trace", "values/show",
                           "--lessons", str(tmp_path)], capture_output=True, text=True,
                          cwd=HERE.parent, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = {line.strip().split(" = ", 1)[0]: line.strip().split(" = ", 1)[1]
               for line in done.stdout.splitlines() if line.strip().startswith("v") and " = " in line}
    for i, case in enumerate(CASES):
        assert printed[f"v{i}"] == case["text"], case["expr"]
