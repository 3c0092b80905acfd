"""Model and tool calls recorded in CPython: the bundled lessons' facts, a trace that is
otherwise unchanged, the packed form, normalisation, snapshots and lesson.toml errors."""

import importlib.util
import json
from pathlib import Path

import pytest

from loopstep.runtime.agent import parts as agent_parts
from loopstep.runtime.agent import wire as agent_wire
from loopstep.runtime.agent.parts import Parts
from loopstep.runtime.trace import wire
from loopstep.runtime.catalog.lessons import LessonError, load_lessons
from loopstep.runtime.recorder import record, record_packed

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_agent_facts", HERE / "agent_facts.py")
agent_facts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(agent_facts)


@pytest.fixture(scope="module")
def traces():
    return {run: record(*run) for run in agent_facts.RUNS}


@pytest.mark.parametrize("run", agent_facts.RUNS, ids="/".join)
def test_facts(traces, run):
    agent_facts.check(run, traces[run])


@pytest.mark.parametrize("run", agent_facts.RUNS, ids="/".join)
def test_capture_leaves_the_trace_unchanged(traces, run):
    with_capture = dict(traces[run])
    with_capture.pop("agent", None)
    assert with_capture == record(*run, agent=False)


@pytest.mark.parametrize("run", agent_facts.RUNS, ids="/".join)
def test_packed_form_round_trips(traces, run):
    assert wire.unpack(record_packed(*run)) == traces[run]


class Obj:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def test_sdk_objects_and_dicts_normalise_alike():
    as_dicts = [{"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "t", "name": "read_file", "input": {"path": "a"}},
                {"type": "tool_result", "tool_use_id": "t", "content": "ok", "is_error": True}]
    as_objects = [Obj(type="text", text="hi"),
                  Obj(type="tool_use", id="t", name="read_file", input={"path": "a"}),
                  Obj(type="tool_result", tool_use_id="t", content="ok", is_error=True)]
    expected = ["hi", ["tool_use", "t", "read_file", {"path": "a"}],
                ["tool_result", "t", "ok", True]]
    assert Parts().content(as_dicts) == Parts().content(as_objects) == expected
    assert Parts().message(Obj(role="assistant", content=as_objects)) == \
        Parts().message({"role": "assistant", "content": as_dicts})
    assert Parts().response(Obj(stop_reason="end_turn", content=[Obj(type="text", text="x")])) \
        == Parts().response({"stop_reason": "end_turn", "content": [{"type": "text", "text": "x"}]}) \
        == ("end_turn", ["x"])
    assert Parts().part({"type": "image", "source": 1})[:2] == ["other", "image"]
    assert Parts().part({"type": "thinking", "thinking": "Hm.", "signature": "s"}) == \
        ["thinking", "Hm.", False]
    assert Parts().part({"type": "redacted_thinking", "data": "x"}) == ["thinking", "", True]
    assert Parts().part({"type": "unknown", "raw": "Block(a=1)"}) == ["raw", "Block(a=1)"]


def test_bounds():
    long = "长" * 5000
    assert Parts().part({"type": "text", "text": long}) == "长" * 1999 + "…"
    nested = {"a": {"b": {"c": {"d": {"e": {"f": 1}}}}}}
    assert Parts().data(nested) == {"a": {"b": {"c": {"d": "{…}"}}}}
    assert len(Parts().data(list(range(500)))) == 50
    assert Parts().data({1: object()}) == {"1": "<object object>"}


SETUP = '''
class Block:
    def __init__(self, **fields):
        self.__dict__.update(fields)
    def __repr__(self):
        return "Block()"
def model(messages, **options):
    if len(messages) > 2:
        return {"stop_reason": "end_turn", "content": [Block(type="text", text="x" * 3000)]}
    return {"stop_reason": "tool_use",
            "content": [Block(type="tool_use", id="t1", name="look", input={"q": 1})]}
def look(q):
    if q == 2:
        raise KeyError("nope")
    return "seen"
TOOLS = {"look": look}
'''
CODE = '''def loop():
    history = [{"role": "user", "content": "go"}]
    reply = model(history)
    history.append({"role": "assistant", "content": reply["content"]})
    found = TOOLS["look"](1)
    history.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": found}]})
    reply = model(history)
    history[0] = {"role": "user", "content": "changed"}
    try:
        TOOLS["look"](2)
    except KeyError:
        pass
    history[:] = history[:1]
    model(history)
    return reply
'''
TOML = '''title = {zh = "测", en = "T"}
summary = {zh = "测", en = "T"}
setup = "a/setup.py"
modules = ["a/code.py"]
[[presets]]
name = "normal"
zh = "正常"
en = "Normal"
[[blocks]]
symbol = "loop"
source = "a/code.py"
presets = ["normal"]
entry = "print(loop()['stop_reason'])"
[agent]
model = ["model"]
tools = ["TOOLS"]
'''


def lesson(tmp_path, toml=TOML, setup=SETUP):
    folder = tmp_path / "a"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "setup.py").write_text(setup, "utf-8")
    (folder / "code.py").write_text(CODE, "utf-8")
    (folder / "lesson.toml").write_text(toml, "utf-8")
    return [tmp_path]


def test_snapshots_history_rewrites_and_tool_errors(tmp_path):
    trace = record("a", "loop", "normal", roots=lesson(tmp_path))
    assert trace["stdout"] == "end_turn\n"
    agent = trace["agent"]
    sent = [agent_facts.messages(agent, call) for call in agent["calls"]]
    assert sent[0] == [["user", "go"]]
    # the history as it was at the call, not as it was mutated later
    assert sent[1][0] == ["user", "go"] and len(sent[1]) == 3
    assert sent[1][1] == ["assistant", [["tool_use", "t1", "look", {"q": 1}]]]
    assert agent["calls"][1]["messages"][1] == agent["calls"][0]["response"]   # stored once
    assert sent[2] == [["user", "changed"]] and agent["calls"][2]["new"] == 1
    assert [c["new"] for c in agent["calls"]] == [1, 2, 1]
    assert agent["messages"][agent["calls"][1]["response"]] == ["assistant", ["x" * 1999 + "…"]]
    assert [(t["name"], t["input"], t["result"], t["error"]) for t in agent["tools"]] == [
        ("look", {"q": 1}, "seen", False), ("look", {"q": 2}, "KeyError: 'nope'", True)]
    assert wire.unpack(record_packed("a", "loop", "normal", roots=lesson(tmp_path))) == trace


def test_a_name_missing_at_run_time_is_a_lesson_error(tmp_path):
    roots = lesson(tmp_path, setup=SETUP + "if scenario == 'other':\n    extra = 1\n",
                   toml=TOML.replace('tools = ["TOOLS"]', 'tools = ["extra"]'))
    with pytest.raises(LessonError, match=r"a/lesson.toml \[agent\].*'extra' not found"):
        record("a", "loop", "normal", roots=roots)
    roots = lesson(tmp_path / "b", setup=SETUP + "len_ = len\n",
                   toml=TOML.replace('tools = ["TOOLS"]', 'tools = ["len_"]'))
    with pytest.raises(LessonError, match="len_ is not a Python function"):
        record("a", "loop", "normal", roots=roots)


BAD = [
    ('[agent]\nmodel = ["model"]', '[agent]\nmodel = "model"', "expected an array of dotted names"),
    ('[agent]\nmodel = ["model"]', '[agent]\nmodel = ["model("]', "is not a dotted Python name"),
    ('[agent]\nmodel = ["model"]', '[agent]\nmodel = ["nothing.here"]',
     "'nothing.here' is not defined at the top level of the setup or the modules"),
    ('tools = ["TOOLS"]', 'tools = ["TOOLS"]\nextra = 1', "unknown key 'extra'"),
    ('tools = ["TOOLS"]', 'tools = ["model"]', "'model' is both a model call and a tool"),
    ('[agent]\nmodel = ["model"]\ntools = ["TOOLS"]', '', "expected a table with model"),
    ('[agent]\nmodel = ["model"]\ntools = ["TOOLS"]', '[agent]', "names no model call and no tool"),
]


@pytest.mark.parametrize("old,new,reason", BAD, ids=[r for _, _, r in BAD])
def test_invalid_agent_tables(tmp_path, old, new, reason):
    assert old in TOML
    toml = TOML.replace(old, new)
    if reason == "expected a table with model":
        toml = "agent = 3\n" + toml
    with pytest.raises(LessonError) as caught:
        load_lessons(lesson(tmp_path, toml=toml))
    assert "a/lesson.toml [agent" in str(caught.value) and reason in str(caught.value)


def test_bundled_lessons_declare_their_agent_boundary():
    lessons = load_lessons()
    assert lessons["s06"].agent.model == ("ask",)
    assert lessons["lcc-s06"].agent.tools == ("execute_tool",)
    assert lessons["lcc-s06"].standins.model == "reply"    # model calls: the stand-in client's
    assert all(lessons[name].agent for name in ("s01", "s06-recursive"))


def test_what_a_tool_returned_is_kept_as_json_and_a_bounded_one_is_marked_cut(tmp_path):
    trace = record("a", "loop", "normal", roots=lesson(tmp_path))
    assert [(t["returned"], t["cut"]) for t in trace["agent"]["tools"]] == [
        ("seen", False), (None, False)]                 # the second call raised
    exact = [None, True, 3, 2.5, "长", [1, {"a": [None]}], {"k": {"result": "x"}}]
    for value in exact:
        assert agent_parts.exact(value, Parts().data(value)), value
    cut = ["x" * 3000, list(range(500)), {"a": {"b": {"c": {"d": {"e": 1}}}}}, (1, 2),
           {1: "a"}, float("nan"), 2 ** 60, object(), {"s": {1, 2}}]
    for value in cut:
        assert not agent_parts.exact(value, Parts().data(value)), value


def test_a_tool_run_that_returned_its_result_holds_the_text_once(tmp_path):
    agent = record("a", "loop", "normal", roots=lesson(tmp_path))["agent"]
    seen = agent["tools"][0]
    assert seen["returned"] == seen["result"] == "seen"
    row = agent_wire.pack(agent)["tools"][0]
    assert json.dumps(row).count('"seen"') == 1
    text = "长" * 1500
    tool = dict(seen, result=text, returned=text)
    row = agent_wire.pack_tool(tool)
    assert json.dumps(row, ensure_ascii=False).count(text) == 1
    assert agent_wire.unpack_tool(row) == tool


def test_a_tool_run_whose_returned_differs_from_its_result_round_trips(traces):
    agent = traces[("s06", "run_subagent", "normal")]["agent"]
    tools = [t for t in agent["tools"] if t["returned"] != t["result"]]
    assert tools and all(isinstance(t["returned"], dict) for t in tools)
    assert agent_wire.unpack(agent_wire.pack(agent)) == agent
    for tool in tools:
        variants = [tool, dict(tool, cut=True), dict(tool, recorded=True, source_cut={"length": 9}),
                    dict(tool, returned=[tool["result"]]), dict(tool, returned=None, error=True),
                    dict(tool, stand_in=True), dict(tool, recorded=True, differs="tool:bash")]
        for variant in variants:
            row = agent_wire.pack_tool(variant)
            assert agent_wire.unpack_tool(row) == variant and row[7] == variant["returned"]


def test_a_call_that_differs_in_a_tolerant_replay_round_trips(traces):
    agent = traces[("s06", "run_subagent", "normal")]["agent"]
    marked = dict(agent, calls=[dict(call, differs="system") if k == 1 else call
                                for k, call in enumerate(agent["calls"])])
    packed = agent_wire.pack(marked)
    assert [len(row) for row in packed["calls"]][:3] == [8, 9, 8]
    assert agent_wire.unpack(packed) == marked
