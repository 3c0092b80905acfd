"""A reader's question never changes the run (CPython): watches, conditions and logpoints
that would consume an iterator or run the program's own code are shown as not evaluated,
with the reason (readonly_cases.py; the same cases in the bundled Pyodide are in
test_questions_differential.py)."""

import pytest
import readonly_cases as cases
from pyodide_node import record_in_pyodide

from loopstep.runtime.questions import expressions, readonly
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record
from test_questions import evaluate


@pytest.mark.parametrize("name", list(cases.CASES))
def test_questions_leave_the_run_as_it_was(name):
    lesson, block, scenario, probes = cases.CASES[name]
    plain = record(lesson, block, scenario, roots=[cases.ROOT])
    cases.check(name, record(lesson, block, scenario, roots=[cases.ROOT], questions=probes), plain)


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory):
    """Each case recorded without and with its questions in the bundled Pyodide."""
    files = {rel: str(path)
             for rel, path in load_lesson(cases.LESSON, [cases.ROOT]).files.items()}
    runs = [{"lesson": lesson, "block": block, "scenario": scenario, **extra}
            for lesson, block, scenario, probes in cases.CASES.values()
            for extra in ({}, {"questions": probes})]
    traces = record_in_pyodide(tmp_path_factory.mktemp("readonly"), files, runs)["traces"]
    return {name: traces[2 * k:2 * k + 2] for k, name in enumerate(cases.CASES)}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_questions_leave_the_run_as_it_was_in_pyodide(pyodide, name):
    plain, probed = pyodide[name]
    assert probed["backend"] == "monitoring"
    cases.check(name, probed, plain)


class Counted:
    calls = 0

    def __eq__(self, other):
        Counted.calls += 1
        return True

    __hash__ = None


@pytest.mark.parametrize("text", [
    "x == [c]", "c in x", "x.count(c)", "x.index(c)", "sorted(x)", "{'k': c} == {'k': 1}",
    "(c,) < (1,)", "'%s' % (c,)", "set(x) | {1}", "[c] + x == x",
])
def test_builtins_never_compare_user_values(text):
    Counted.calls = 0
    with pytest.raises(expressions.Refused):
        evaluate(text, {"x": [Counted()], "c": Counted()})
    assert Counted.calls == 0


@pytest.mark.parametrize("text, value", [
    ("x == [1, 2]", True), ("x != (1, 2)", True), ("2 in x", True), ("x[-1:]", [2]),
    ("[a * b for a, b in zip(x, x)]", [1, 4]), ("list(enumerate(x))", [(0, 1), (1, 2)]),
    ("max(x, default=0)", 2), ("min(d, key=len)", "a"), ("{**d, 'b': 2}", {"a": 1, "b": 2}),
    ("', '.join(str(v) for v in x)", "1, 2"), ("next(reversed(x))", 2),
    ("d.get('a') < 2 <= len(x)", True), ("not x or d", {"a": 1}), ("-x[0]", -1),
    ("{k: v for k, v in d.items()}", {"a": 1}), ("f'{x!r:>8}'", "  [1, 2]"),
    ("sorted({*x, 0})", [0, 1, 2]), ("isinstance(x, (list, tuple))", True),
])
def test_builtin_values_are_still_computed(text, value):
    assert evaluate(text, {"x": [1, 2], "d": {"a": 1}}) == value


def test_fresh_iterators_are_forgotten_after_each_step():
    lesson, block, scenario, probes = cases.CASES["take"]
    record(lesson, block, scenario, roots=[cases.ROOT], questions=probes)
    assert readonly.fresh == {}


def test_a_dict_is_sorted_by_its_keys_whatever_its_values():
    """`sorted(d)`, `min(d)`, `max(d)` iterate a dict's keys: values that are functions
    or objects of the program are never compared, so the expression is evaluated."""
    def tool():
        return None

    scope = {"restricted": {"read_file": tool, "bash": tool}}
    assert evaluate("sorted(restricted)[0]", scope) == "bash"
    assert evaluate("max(restricted)", scope) == "read_file"
