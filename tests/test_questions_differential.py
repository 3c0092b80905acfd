"""Questions never change the run, proved differentially (hypothesis).

Over every block of the oracle corpus (tests/oracle_lessons) and of the bundled lessons
(each block with each of its presets), hypothesis writes expressions of the locals the
block binds, the attribute names and the string constants of the lesson's code: names,
attributes, subscripts and slices, ``len``, ``list``, ``sorted``, ``next``, ``iter``,
``in``, comprehensions, star-unpacking, operators, f-strings, set and dict displays,
method calls. They are recorded as watches, breakpoint conditions and logpoints; the
trace (every step's line, event, set/del, output, result, stdout, status) must be the
trace recorded without them. Every local of each block is asked about in three forms (``FORMS``:
consumed, advanced, compared, hashed, formatted, indexed, …) beside drawn expressions.
In this CPython two examples per block; in the bundled Pyodide one Node process
records one drawn set per block, with the plain runs of the corpus blocks (a bundled block's
plain run is its shipped trace; runs of threads suspend their stacks, as in the page).
"""

import ast
import json
from functools import lru_cache
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from build_script import build
from pyodide_node import record_in_pyodide

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.questions.watches import MAX_WATCHES
from loopstep.runtime.recorder import record
from loopstep.runtime.trace import wire
from loopstep.web import shipped_traces

pytestmark = pytest.mark.slow   # every local of every block as questions, in CPython and Pyodide

HERE = Path(__file__).parent
CORPUS = HERE / "oracle_lessons"
ROOTS = {"bundled": None, "corpus": [CORPUS]}
LESSONS = {kind: load_lessons(roots) for kind, roots in ROOTS.items()}
BLOCKS = [(kind, lesson.id, block.id, preset)
          for kind, lessons in LESSONS.items() for lesson in lessons.values()
          for block in lesson.blocks
          for preset in (block.presets or [p.name for p in lesson.presets])]

CALLS = ("len", "list", "sorted", "tuple", "set", "frozenset", "dict", "iter", "next", "sum",
         "any", "all", "max", "min", "enumerate", "zip", "reversed", "str", "repr", "bool",
         "abs", "int")
METHODS = ("keys", "values", "items", "copy", "upper", "strip", "split", "count", "get",
           "index", "join")
OPERATORS = ("+", "-", "%", "==", "!=", "<", ">=", "and", "or", "is", "&", "|")
INDEXES = ("0", "-1", "1:", "::2", ":2", "1")


def _record(block, questions=None):
    kind, lesson, symbol, preset = block
    return record(lesson, symbol, preset, roots=ROOTS[kind], questions=questions)


@lru_cache(maxsize=None)
def plain(block):
    return _record(block)


@lru_cache(maxsize=None)
def vocabulary(block):
    """(locals of the displayed function, attribute names, short constants, line count)."""
    kind, lesson_id, symbol, _ = block
    lesson = LESSONS[kind][lesson_id]
    names = sorted({name for step in plain(block)["steps"] for name in step["set"]
                    if not name.startswith("_")})
    attrs, consts = set(), set()
    for path in lesson.files.values():
        if Path(path).suffix != ".py":
            continue
        for node in ast.walk(ast.parse(Path(path).read_text("utf-8"))):
            if isinstance(node, ast.Attribute) and not node.attr.startswith("_"):
                attrs.add(node.attr)
            elif isinstance(node, ast.Constant) and type(node.value) is str \
                    and 0 < len(node.value) <= 16 and node.value.isidentifier():
                consts.add(repr(node.value))
    block_of = next(b for b in lesson.blocks if b.id == symbol)
    return (tuple(names or ["len"]), tuple(sorted(attrs)) or ("real",),
            tuple(sorted(consts))[:24] + ("0", "1", "None", "()"), block_of.line_count)


@lru_cache(maxsize=None)
def expressions(names, attrs, consts):
    """Expressions of a block's vocabulary (tuples); one strategy object per vocabulary,
    so that hypothesis validates it once, not at every draw (it draws the same)."""
    leaf = st.sampled_from(names) | st.sampled_from(consts)

    def extend(inner):
        return st.one_of(
            st.tuples(st.sampled_from(CALLS), inner).map(lambda t: f"{t[0]}({t[1]})"),
            inner.map(lambda e: f"next(iter({e}))"),
            st.tuples(inner, st.sampled_from(attrs)).map(lambda t: f"{t[0]}.{t[1]}"),
            st.tuples(inner, st.sampled_from(METHODS)).map(lambda t: f"{t[0]}.{t[1]}()"),
            st.tuples(inner, st.sampled_from(INDEXES + consts)).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, st.sampled_from(OPERATORS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"({t[0]} in {t[1]})"),
            inner.map(lambda e: f"[x for x in {e}]"),
            st.tuples(inner, inner).map(lambda t: f"[(a, b) for a, b in {t[0]} if {t[1]}]"),
            inner.map(lambda e: f"sum(1 for _ in {e})"),
            inner.map(lambda e: f"[*{e}]"),
            inner.map(lambda e: f"f'{{{e}!r:>3}}'"),
            inner.map(lambda e: f"(not {e})"),
            inner.map(lambda e: f"{{{e}}}"),
            st.tuples(inner, inner).map(lambda t: f"{{{t[0]}: {t[1]}}}"),
            st.tuples(inner, inner).map(lambda t: f"({t[0]} if {t[1]} else 0)"),
        )
    return st.recursive(leaf, extend, max_leaves=4)


FORMS = ("@", "len(@)", "list(@)", "sorted(@)", "next(@)", "iter(@)", "next(iter(@))",
         "[x for x in @]", "[*@]", "0 in @", "@ == @", "@ < @", "not @", "str(@)", "f'{@}'",
         "{@}", "{@: 1}", "any(@)", "sum(@)", "max(@)", "dict(@)", "@[0]", "@[1:]", "@ + @",
         "-@", "int(@)", "[a for a, *b in @]")


@st.composite
def questions(draw, block):
    """Probes of one block: every local in three drawn forms (and as an attribute's
    object), a few drawn expressions, conditions, hit counts and logpoints."""
    names, attrs, consts, line_count = vocabulary(block)
    forms = st.sampled_from(FORMS)
    offset = draw(st.integers(0, len(FORMS) - 1))   # spread even in the simplest example
    # a run asks at most MAX_WATCHES: four watches for each name from a drawn one on, as
    # many names as fit beside the drawn expressions (each example watches others)
    start = draw(st.integers(0, max(0, len(names) - 1)))
    watched = (names[start:] + names[:start])[:(MAX_WATCHES - 3) // 4]
    watches = [FORMS[(offset + 3 * k + j) % len(FORMS)].replace("@", name)
               for k, name in enumerate(watched) for j in range(2)]
    watches += [draw(forms).replace("@", name) for name in watched]
    watches += [f"{name}.{draw(st.sampled_from(attrs))}" for name in watched]
    texts = st.lists(expressions(names, attrs, consts), min_size=1, max_size=3)
    watches += draw(texts)
    lines = st.integers(1, line_count)
    breakpoints = draw(st.lists(st.one_of(
        st.fixed_dictionaries({"line": lines, "condition": expressions(names, attrs, consts)}),
        st.fixed_dictionaries({"line": lines, "hits": st.integers(1, 3),
                               "condition": forms.map(lambda f: f.replace("@", names[0]))}),
        st.fixed_dictionaries({"line": lines, "log": texts.map(
            lambda parts: " ".join("{" + p + "}" for p in parts))})), max_size=3))
    return {"watches": watches, "breakpoints": breakpoints}


def same_run(probed, without):
    assert set(probed) == set(without) | {"probes"}
    assert {k: v for k, v in probed.items() if k != "probes"} == without


@pytest.mark.parametrize("block", BLOCKS, ids="/".join)
@settings(max_examples=2, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_questions_never_change_the_run_cpython(block, data):
    probes = data.draw(questions(block))
    same_run(_record(block, probes), plain(block))


def test_every_block_is_asked():
    assert len(BLOCKS) >= 100
    assert {kind for kind, *_ in BLOCKS} == {"bundled", "corpus"}


def shipped(block):
    """A bundled block's plain run in the page's Python: its shipped trace (built by `make
    build`; tests/test_shipped_traces.py proves each the one a live Pyodide records)."""
    _, lesson, symbol, preset = block
    return wire.unpack(json.loads(
        (shipped_traces.DIR / lesson / symbol / f"{preset}.json").read_text("utf-8")))


@settings(max_examples=1, deadline=None, derandomize=True, database=None,
          phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(data=st.data())
def test_questions_never_change_the_run_pyodide(tmp_path_factory, data):
    """One set of questions per block, all recorded in one Node process (a stock boot); a
    bundled block's run without them is its shipped trace, so this also proves each shipped
    trace the run a live Pyodide records (tests/test_shipped_traces.py); a run of threads is
    recorded suspending its stacks, as the page's worker records it."""
    assert build.stale_reason() is None, "stale: run `make build` (scripts/build.py)"
    batch = [(block, data.draw(questions(block))) for block in BLOCKS]
    files = {}
    for kind, lesson in sorted({(kind, lesson) for kind, lesson, *_ in BLOCKS}):
        files.update({rel: str(path) for rel, path in LESSONS[kind][lesson].files.items()})
    plain_runs = {b: shipped(b) for b in BLOCKS if b[0] == "bundled"}
    recorded = [b for b in BLOCKS if b not in plain_runs]
    runs = [{"lesson": b[1], "block": b[2], "scenario": b[3]} for b in recorded]
    runs += [{"lesson": b[1], "block": b[2], "scenario": b[3], "questions": p,
              "suspending": "threads" in plain_runs.get(b, {})} for b, p in batch]
    traces = record_in_pyodide(tmp_path_factory.mktemp("differential"), files, runs,
                               timeout=1200,
                               node_options=("--experimental-wasm-stack-switching",))["traces"]
    plain_runs.update(zip(recorded, traces[:len(recorded)], strict=True))
    assert any("threads" in trace for trace in plain_runs.values())
    for (block, _asked), probed in zip(batch, traces[len(recorded):], strict=True):
        without = plain_runs[block]
        assert probed["backend"] == without["backend"] == "monitoring"
        assert "ThreadsUnavailable" not in (without.get("message") or ""), block
        same_run(probed, without)
