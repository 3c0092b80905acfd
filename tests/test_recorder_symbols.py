"""The recorder on blocks of several functions and whole files (lesson.toml `symbols`):
which frames produce steps, how their lines are numbered, the result, the error, the
stacks and the probes. Step-by-step fidelity is test_oracle.py's (corpus `multi`)."""

from pathlib import Path

import pytest

from loopstep.runtime.trace import wire
from loopstep.runtime.trace.backends import available
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record, record_packed

HERE = Path(__file__).parent
CORPUS = [HERE / "oracle_lessons"]
FIXTURE = [HERE / "browser" / "fixture_lessons"]
BACKENDS = available()


def trace_of(lesson, block, roots, **options):
    return record(lesson, block, "normal", roots=roots, **options)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_displayed_function_steps_with_file_lines(backend):
    trace = trace_of("symbols", "outer", FIXTURE, backend=backend)
    block = load_lesson("symbols", FIXTURE).block("outer")
    assert (trace["block"], trace["first_line"], trace["status"]) == ("outer", 1, "finished")
    assert {s["fn"] for s in trace["steps"]} == {"outer", "inner"}   # keep() is not shown
    assert all(block.shows(s["line"]) for s in trace["steps"])
    inner_lines = {s["line"] for s in trace["steps"] if s["fn"] == "inner"}
    assert inner_lines == {6, 7, 8, 9}
    assert trace["result"] == ["list", 2, "'X@0'", "'Y@1'"]   # outer's: the outermost call
    first_inner = next(s for s in trace["steps"] if s["fn"] == "inner")
    outer = trace["stacks"][first_inner["stack"]]
    assert [(f["name"], f["hidden"]) for f in outer] == [("<module>", True), ("outer", False)]
    assert outer[1]["line"] == 19 and first_inner["depth"] == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_between_two_shown_ones_is_a_hidden_frame(backend):
    trace = trace_of("multi", "outer", CORPUS, backend=backend)
    deep = [s for s in trace["steps"] if s["fn"] == "inner" and s["depth"] == 3]
    assert deep, "inner called through relay"
    names = [(f["name"], f["hidden"]) for f in trace["stacks"][deep[0]["stack"]]]
    assert names == [("<module>", True), ("outer", False), ("relay", True)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_error_is_the_one_that_left_the_first_displayed_call(backend):
    trace = trace_of("multi", "fail_late", CORPUS, backend=backend)
    assert trace["status"] == "exception"
    assert trace["error"] == {"type": "LookupError", "message": "only 2 kept", "line": 64}
    raised = [s for s in trace["steps"] if s["event"] == "exception"]
    assert [(s["fn"], s["line"]) for s in raised] == [("check", 69), ("fail_late", 64)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_whole_file_steps_the_module_and_hides_its_dunders(backend):
    trace = trace_of("multi", "script", CORPUS, backend=backend)
    module = [s for s in trace["steps"] if s["fn"] == "<module>"]
    assert module[0]["event"] == "call" and module[0]["depth"] == 0
    assert [s["line"] for s in module if s["event"] == "line"][:6] == [2, 4, 5, 6, 7, 6]
    bound = {name for s in module for name in s["set"]}
    assert {"counts", "words", "word", "tally", "squares", "missing", "Tally",
            "summarize"} <= bound
    assert "scenario" in bound   # the setup's globals are the module's too
    assert not {n for n in bound if n.startswith("__") and n.endswith("__")}
    assert {s["fn"] for s in trace["steps"]} >= {"Tally", "__init__", "bump", "summarize"}
    assert trace["result"] == "None" and trace["error"] is None
    assert trace["stdout"].endswith("the=2, cat=2 2 no key 9\n")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_whole_file_block_with_an_entry_steps_both(backend):
    trace = trace_of("multi", "script_called", CORPUS, backend=backend)
    depths = {(s["fn"], s["depth"]) for s in trace["steps"] if s["fn"] == "summarize"}
    assert depths == {("summarize", 1)}   # called from the module, then from the entry
    calls = [s for s in trace["steps"] if s["fn"] == "summarize" and s["event"] == "call"]
    stacks = [[f["name"] for f in trace["stacks"][s["stack"]]] for s in calls]
    assert stacks == [["<module>"], ["<module>"]]
    assert [trace["stacks"][s["stack"]][0]["hidden"] for s in calls] == [False, True]


def test_whole_file_error_line_is_the_files():
    trace = trace_of("wholefail", "code", CORPUS)
    assert trace["error"] == {"type": "ZeroDivisionError", "message": "division by zero",
                              "line": 11}


def test_probes_use_file_lines():
    probes = {"breakpoints": [{"line": 8, "condition": "depth == 1"}], "watches": ["note"]}
    trace = trace_of("symbols", "outer", FIXTURE, questions=probes)
    fired = trace["probes"]["breakpoints"][0]["steps"]
    assert len(fired) == 1
    step = trace["steps"][fired[0]]
    assert (step["fn"], step["line"]) == ("inner", 8)
    with pytest.raises(ValueError, match="breakpoint line must be 1 to 21"):
        trace_of("symbols", "outer", FIXTURE, questions={"breakpoints": [{"line": 22, "hits": 1}]})


def test_the_packed_form_is_the_same_trace():
    packed = record_packed("multi", "ping", "normal", roots=CORPUS)
    assert wire.unpack(packed) == record("multi", "ping", "normal", roots=CORPUS)


def test_a_custom_setup_runs_a_symbols_block():
    setup = "BUDGET_NOTE = 'mine'\nraise_here = 1 / 0\n"
    trace = record("symbols", "outer", "custom", roots=FIXTURE, setup=setup)
    assert trace["setup_error"] == {"type": "ZeroDivisionError", "message": "division by zero",
                                    "line": 2}
    assert trace["steps"] == []
    fine = record("symbols", "code", "custom", roots=FIXTURE, setup="extra = 1\n")
    module = [s for s in fine["steps"] if s["fn"] == "<module>"]
    assert module[0]["set"]["extra"] == "1" and fine["stdout"] == "loaded 2\n"
