"""Breakpoint conditions, hit counts, logpoints and watches recorded in this CPython."""

import builtins
import importlib.util
import types
from pathlib import Path

import pytest

from loopstep.runtime.questions import expressions
from loopstep.runtime.questions.code import tuple_function
from loopstep.runtime.recorder import record, record_packed
from loopstep.runtime.trace.wire import unpack

HERE = Path(__file__).parent


def evaluate(text, scope):
    """``text`` evaluated as questions.py does, with ``scope`` as the frame's locals."""
    code = tuple_function([expressions.compile_expression(text)], frozenset(scope), "<test>")
    function = types.FunctionType(code, {"__builtins__": builtins})
    return function({name: (value, None) for name, value in scope.items()})[0]


def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load("loopstep_question_cases", "question_cases.py")
recorder_tests = _load("loopstep_recorder_tests_p", "test_recorder.py")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_case(name):
    lesson, block, scenario, probes = cases.CASES[name]
    trace = record(lesson, block, scenario, questions=probes)
    cases.check(name, trace)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_questions_change_nothing_else(name):
    """The run with questions is the run without them, plus the ``probes`` key (the answers)."""
    lesson, block, scenario, probes = cases.CASES[name]
    plain = record(lesson, block, scenario)
    probed = record(lesson, block, scenario, questions=probes)
    assert "probes" not in plain
    assert {k: v for k, v in probed.items() if k != "probes"} == plain


def test_packed_form_carries_the_answers():
    lesson, block, scenario, probes = cases.CASES["watches"]
    assert unpack(record_packed(lesson, block, scenario, questions=probes)) == \
        record(lesson, block, scenario, questions=probes)


def test_watch_stores_only_changes():
    trace = record("s06", "run_subagent", "normal", questions={"watches": ["task"]})
    flat = trace["probes"]["watch"]
    frames = {s["frame"] for s in trace["steps"]}
    entries = 0
    k = 0
    while k < len(flat):
        entries += flat[k + 1]
        k += 2 + 2 * flat[k + 1]
    assert entries == len(frames)   # once per frame: its first step


@pytest.mark.parametrize("text", [
    "print('x')", "restricted.clear()", "tools.pop('read_file')", "(x := 1)", "lambda: 1",
    "__import__('os')", "tools.__class__", "sorted(tools, key=ask)", "ask([], {})",
    "[y := 1 for k in tools]", "open('f')", "setattr(task, 'a', 1)",
])
def test_refused_expressions(text):
    with pytest.raises(expressions.Refused):
        evaluate(text, {"restricted": {}, "tools": {"read_file": 1},
                        "task": "t", "ask": lambda *a: a, "open": lambda *a: a})


@pytest.mark.parametrize("text, value", [
    ("len(history)", 2), ("sorted(d.keys())", ["a", "b"]), ("d.get('a', 0) + 1", 2),
    ("[k for k in d if k != 'a']", ["b"]), ("f'{len(history)} turns'", "2 turns"),
    ("max(history, key=len)", "xyz"), ("history[-1].upper()", "XYZ"),
    ("isinstance(d, dict) and 'a' in d", True),
])
def test_allowed_expressions(text, value):
    assert evaluate(text, {"history": ["ab", "xyz"], "d": {"a": 1, "b": 2}}) == value


def test_template_parts():
    assert expressions.template_parts("n={len(x)}, {{literal}} {d['k']}!") == \
        ["n=", ("len(x)",), ", {literal} ", ("d['k']",), "!"]
    assert expressions.template_parts("{ {'a': 1}['a'] }") == [(" {'a': 1}['a'] ",)]
    for bad in ("{unclosed", "a } b"):
        with pytest.raises(expressions.Refused):
            expressions.template_parts(bad)


def test_bad_template_is_an_error_not_a_failure():
    trace = record("s06", "run_subagent", "normal",
                   questions={"breakpoints": [{"line": 13, "log": "oops {len(warnings)"}]})
    bp = trace["probes"]["breakpoints"][0]
    assert bp["error"].startswith("not evaluated: a '{' without")
    assert trace["probes"]["log"][2::3] == [f"<{bp['error']}>"] * 2


@pytest.mark.parametrize("probes, message", [
    ({"breakpoints": [{"line": 99, "condition": "x"}]}, "breakpoint line must be 1 to 17"),
    ({"breakpoints": [{"line": 3, "hits": 0}]}, "hit count must be a positive integer"),
    ({"breakpoints": [{"line": 3, "condition": 5}]}, "condition must be text"),
    ({"watches": [""]}, "watches a list of texts"),
    ([1], "questions must be an object"),
])
def test_bad_questions_are_clear_errors(probes, message):
    with pytest.raises(ValueError, match=message):
        record("s06", "run_subagent", "normal", questions=probes)


PRINTS = '''\
class Loud:
    def __repr__(self):
        print("repr ran")
        return "Loud()"


def noisy():
    item = Loud()
    print("program")
    return item
'''


def test_evaluation_never_reaches_the_output(tmp_path):
    root = recorder_tests.write_lesson(tmp_path, PRINTS)
    probes = {"watches": ["item", "repr(item)"],
              "breakpoints": [{"line": 3, "log": "item is {item}"}]}
    plain = record("t", "noisy", "normal", roots=[root])
    probed = record("t", "noisy", "normal", roots=[root], questions=probes)
    assert probed["stdout"] == plain["stdout"]
    assert "program\n" in plain["stdout"]
    assert probed["probes"]["log"][2::3] == ["item is Loud()"]


def test_a_shadowed_builtin_is_not_called():
    """``len`` bound to a program function in the frame goes through the guard and is refused."""
    called = []
    with pytest.raises(expressions.Refused):
        evaluate("len(tools)", {"tools": {}, "len": lambda x: called.append(x)})
    assert called == []
