"""The recorder on blocks of methods (tests/method_lesson.py): only the displayed method's
frames produce steps, on its own lines, numbered with the file's lines; the class's other
methods and the function that calls it are hidden frames; a nested class's method, a
static method, an async method, and `symbols` mixing functions and methods."""
import pytest

from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record
from loopstep.runtime.trace.backends import available
from method_lesson import line_of, make_lesson

BACKENDS = available()
CLAIM = range(11, 18)    # Board.claim's lines in the file
WRITE = range(31, 35)    # Board.Ledger.write's


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    return [make_lesson(tmp_path_factory.mktemp("lessons"))]


def calls(trace, fn):
    """[(event, line), …] of each frame of `fn`, by frame."""
    frames = {}
    for step in trace["steps"]:
        if step["fn"] == fn:
            frames.setdefault(step["frame"], []).append((step["event"], step["line"]))
    return list(frames.values())


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_method_block_steps_the_method_alone_on_the_files_lines(roots, backend):
    trace = record("board", "Board.claim", "team", roots=roots, backend=backend)
    assert (trace["block"], trace["first_line"], trace["status"]) == ("Board.claim", 1, "finished")
    assert {s["fn"] for s in trace["steps"]} == {"claim"}   # not __init__, label, run_team
    assert {s["line"] for s in trace["steps"]} <= set(CLAIM)
    claims = calls(trace, "claim")
    assert len(claims) == 4   # ann, bo and cy take a task each; di finds none
    assert claims[0] == [("call", 11), ("line", 12), ("line", 13), ("line", 14), ("line", 15),
                         ("line", 16), ("return", 16)]
    assert claims[3][-2:] == [("line", line_of("return None")), ("return", 17)]
    first = trace["steps"][0]
    assert first["set"] == {"self": "<Board object>", "who": "'ann'"}
    outer = trace["stacks"][first["stack"]]
    assert [(f["name"], f["hidden"]) for f in outer] == [("<module>", True), ("run_team", True)]
    assert (outer[1]["file"], outer[1]["line"]) == ("board/code.py", line_of("note = board.claim(who)"))
    assert trace["result"] == "'ann took plan'" and trace["stdout"] == "3\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_breakpoint_on_a_method_line_fires_there_only(roots, backend):
    line = line_of('note = f"{who} took {task}"')
    trace = record("board", "Board.claim", "team", roots=roots, backend=backend,
                   questions={"breakpoints": [{"line": line}], "watches": ["self.taken"]})
    fired = [trace["steps"][k] for k in trace["probes"]["breakpoints"][0]["steps"]]
    assert [(s["fn"], s["line"]) for s in fired] == [("claim", 15)] * 3
    assert load_lesson("board", roots).block("Board.claim").shows(line)
    with pytest.raises(ValueError, match="breakpoint line must be 1 to 17"):
        record("board", "Board.claim", "team", roots=roots,
               questions={"breakpoints": [{"line": 18}]})


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_nested_classs_method(roots, backend):
    trace = record("board", "Board.Ledger.write", "team", roots=roots, backend=backend)
    assert {s["fn"] for s in trace["steps"]} == {"write"}
    assert {s["line"] for s in trace["steps"]} == set(WRITE)
    assert len(calls(trace, "write")) == 3
    assert trace["steps"][0]["set"] == {"self": "<Board.Ledger object>",
                                        "line": "'ANN TOOK PLAN'"}
    assert trace["result"] == "'- ANN TOOK PLAN'"


@pytest.mark.parametrize("backend", BACKENDS)
def test_symbols_mixing_functions_and_methods_step_each(roots, backend):
    trace = record("board", "team", "team", roots=roots, backend=backend)
    block = load_lesson("board", roots).block("team")
    assert {s["fn"] for s in trace["steps"]} == {"run_team", "claim", "write"}
    assert all(block.shows(s["line"]) for s in trace["steps"])
    lines = {fn: {s["line"] for s in trace["steps"] if s["fn"] == fn} for fn in ("claim", "write")}
    assert lines == {"claim": set(CLAIM), "write": set(WRITE)}
    first_write = next(s for s in trace["steps"] if s["fn"] == "write")
    outer = trace["stacks"][first_write["stack"]]
    assert [(f["name"], f["hidden"]) for f in outer] == [("<module>", True), ("run_team", False)]
    assert outer[1]["line"] == line_of("ledger.write(Board.label(note))")
    assert trace["result"] == ["list", 3, "'- ANN TOOK PLAN'", "'- BO TOOK BUILD'",
                               "'- CY TOOK TEST'"]   # run_team's: the first displayed call


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_static_method_and_an_async_method(roots, backend):
    label = record("board", "Board.label", "team", roots=roots, backend=backend)
    assert {s["fn"] for s in label["steps"]} == {"label"}
    assert [s["line"] for s in label["steps"] if s["event"] == "line"] == [21, 21, 21]
    waited = record("board", "Board.wait", "team", roots=roots, backend=backend)
    assert calls(waited, "wait") == [[("call", 23), ("line", 24), ("line", 25), ("return", 25)]]
    assert waited["stdout"] == "2\n"


BLOCKS = ("Board.claim", "team", "Board.Ledger.write", "Board.label", "Board.wait")
PAGE_BACKENDS = ("monitoring", "settrace")


@pytest.fixture(scope="module")
def in_pyodide(roots, tmp_path_factory):
    """Each block recorded by the page's Python (the vendored Pyodide under Node)."""
    from pyodide_node import record_in_pyodide
    files = {rel: str(path) for rel, path in load_lesson("board", roots).files.items()}
    runs = [{"lesson": "board", "block": block, "scenario": "team", "backend": backend}
            for backend in PAGE_BACKENDS for block in BLOCKS]
    traces = iter(record_in_pyodide(tmp_path_factory.mktemp("pyodide"), files, runs)["traces"])
    return {(backend, block): next(traces) for backend in PAGE_BACKENDS for block in BLOCKS}


@pytest.mark.parametrize("backend", PAGE_BACKENDS)
@pytest.mark.parametrize("block", BLOCKS)
def test_the_pages_python_steps_method_blocks_as_cpython(roots, in_pyodide, block, backend):
    page, here = in_pyodide[backend, block], record("board", block, "team", roots=roots)
    keys = ("first_line", "status", "result", "error", "stdout", "stacks", "steps")
    assert {k: page[k] for k in keys} == {k: here[k] for k in keys}
