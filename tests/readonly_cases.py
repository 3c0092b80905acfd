"""Questions that would change the run, asked of the fixture lesson ``readonly``
(tests/browser/fixture_lessons/readonly), shared by the CPython and the Pyodide tests
(test_questions_readonly.py, test_questions_differential.py).

``CASES[name] = (lesson, block, scenario, probes)``; ``check(name, trace, plain)``
holds what every interpreter must show: the run is the run without the questions
(``plain``), each refused question is shown as not evaluated with its reason, each
allowed one has its value.
"""

from pathlib import Path

ROOT = Path(__file__).parent / "browser" / "fixture_lessons"
LESSON = "readonly"

TAKE_REFUSED = ["list(it)", "sorted(it)", "3 in it", "[x for x in it]", "next(it)"]
TAKE_ALLOWED = {"len(items)": "3", "next(iter(items))": "1", "sorted(items, reverse=True)":
                ["list", 3, "3", "2", "1"], "sum(x for x in items)": "6",
                "[x for x in items if x in rest]": ["list", 2, "2", "3"]}

# each with a word its "not evaluated" reason must hold
STATEFUL_REFUSED = {
    "tally == 1": "Tally.__eq__", "1 == tally": "Tally.__eq__", "tally != 1": "Tally.__eq__",
    "tally < 1": "tally", "tally in items": "Tally", "items == [tally, 1]": "Tally",
    "items.count(tally)": "Tally", "len(tally)": "Tally.__len__", "bool(tally)": "Tally.__len__",
    "not tally": "Tally.__len__", "tally and 1": "Tally.__len__",
    "1 if tally else 2": "Tally.__len__", "[x for x in tally]": "Tally.__iter__",
    "list(tally)": "Tally.__iter__", "tally[0]": "Tally.__getitem__",
    "tally + 1": "Tally.__add__", "1 + tally": "Tally", "-tally": "Tally.__neg__",
    "f'{tally}'": "Tally", "str(tally)": "Tally", "{tally}": "Tally", "{tally: 1}": "Tally",
    "tally.doubled": "a property", "tally.cached": "descriptor",
    "lazy.missing": "Lazy.__getattr__", "sorted(items)": "Tally", "max(items)": "Tally",
    "max(1, tally)": "Tally", "set(items)": "Tally", "sum(items)": "Tally",
    "any(items)": "Tally.__len__", "table[tally]": "Tally", "tally in table": "Tally",
    "range(tally)": "Tally", "int(tally)": "Tally.__index__", "'abc'[tally]": "Tally",
    "items[tally]": "Tally", "abs(tally)": "Tally", "list(gen)": "iterator `gen`",
    "next(gen)": "advance the iterator `gen`", "[x for x in gen]": "iterator `gen`",
    "3 in gen": "iterator `gen`", "dict(pairs)": "iterator `pairs`",
    "[a for a, b in pairs]": "iterator `pairs`", "[a for a, b in [tally]]": "Tally.__iter__",
    "[*gen]": "iterator `gen`", "max(*items)": "Tally", "{**lazy}": "Lazy",
}
STATEFUL_ALLOWED = {
    "'k' in table": "True", "{**table}['k'] is tally": "True", "tally.name.upper()": "'TALLY'",
    "lazy.here": "1", "isinstance(tally, Tally)": "True", "type(tally) is Tally": "True",
    "tally is items[0]": "True", "tally.calls": "0", "lazy.misses": "0", "len(items)": "2",
    "items[1] + 1": "2", "[x for x in items if x is not tally]": ["list", 1, "1"],
    "table[3]": "'three'", "first": "1",
}

CASES = {
    "take": (LESSON, "take", "normal", {
        "watches": TAKE_REFUSED + list(TAKE_ALLOWED),
        "breakpoints": [{"line": 4, "condition": "list(it)"},
                        {"line": 4, "log": "{sorted(it)} {len(items)}"}]}),
    # two runs: a run asks at most MAX_WATCHES watches (runtime/questions/watches.py)
    "stateful": (LESSON, "stateful", "normal", {
        "watches": list(STATEFUL_REFUSED),
        "breakpoints": [{"line": 8, "condition": text} for text in STATEFUL_REFUSED]
        + [{"line": 9, "log": "{" + text + "}"} for text in STATEFUL_REFUSED
           if not text.startswith("{")]}),   # "{{" is a brace in a log message
    "stateful_allowed": (LESSON, "stateful", "normal", {
        "watches": list(STATEFUL_ALLOWED), "breakpoints": []}),
}


def watch_at_end(trace, fn):
    """{watch text: VALUE} at the last step of ``fn``'s first frame."""
    from question_cases import watch_values
    steps = trace["steps"]
    last = max(n for n, s in enumerate(steps) if s["fn"] == fn)
    return dict(zip(trace["probes"]["watches"], watch_values(trace)[last]))


def _refused(value, word, text):
    assert isinstance(value, dict) and value["error"].startswith("not evaluated: "), (text, value)
    assert word in value["error"], (text, value["error"])


def check(name, trace, plain):
    assert {k: v for k, v in trace.items() if k != "probes"} == plain
    probes = trace["probes"]
    if name == "take":
        assert trace["stdout"] == "(1, [2, 3])\n"
        values = watch_at_end(trace, "take")
        for text in TAKE_REFUSED:
            verb = "advance" if text.startswith("next") else "consume"
            _refused(values[text], f"would {verb} the iterator `it`", text)
        for text, value in TAKE_ALLOWED.items():
            assert values[text] == value, (text, values[text])
        condition, log = probes["breakpoints"]
        assert condition["steps"] == []
        assert condition["error"] == "not evaluated: would consume the iterator `it`"
        assert probes["log"][2::3] == ["<not evaluated: would consume the iterator `it`> 3"]
    elif name in ("stateful", "stateful_allowed"):
        assert trace["stdout"] == "(0, 0, 1, [2], (1, 2), [(3, 4)], True)\n"
        values = watch_at_end(trace, "stateful")
        asked = STATEFUL_REFUSED if name == "stateful" else STATEFUL_ALLOWED
        assert set(values) == set(asked)
        for text, value in values.items():
            if name == "stateful":
                _refused(value, STATEFUL_REFUSED[text], text)
            else:
                assert value == STATEFUL_ALLOWED[text], (text, value)
        for bp in probes["breakpoints"]:
            text = bp["condition"] or bp["log"][1:-1]
            assert bp["steps"] == [] or bp["log"], text
            _refused({"error": bp["error"]}, STATEFUL_REFUSED[text], text)
    else:
        raise AssertionError(name)
