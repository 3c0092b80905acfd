"""Recorded tool outputs (runtime/recording/tools.py): an imported recording's tool
executions answer the handlers of ``[agent] tools`` — a dict of handlers by key and input,
a plain function by order and its arguments —, a call the recording does not hold runs
the handler (a subagent's ``task``), and the trace says which results came from the
recording and which the source cut. The traces are written here, in the format of
learn-claude-code's captures (docs/recordings.md, "Importing")."""

import copy
import json

import pytest

from loopstep.runtime import cli
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import learn_claude_code
from loopstep.runtime.trace.steps import FORK_FILE

TOML = '''title.zh = "t"
title.en = "t"
summary.zh = "s"
summary.en = "s"
setup = "{id}/setup.py"
modules = ["{id}/code.py"]

[standins]
modules = ["anthropic"]
model = "reply"

[[presets]]
name = "normal"
zh = "n"
en = "n"

[[blocks]]
symbol = "agent_loop"
source = "{id}/code.py"
entry = """
history = [{{"role": "user", "content": "How many lines has notes.txt?"}}]
agent_loop(history)
print("answer:", history[-1]["content"][0].text)
"""

[[blocks]]
symbol = "run_subagent"
source = "{id}/code.py"
entry = """
history = [{{"role": "user", "content": "How many lines has notes.txt?"}}]
agent_loop(history)
"""

[agent]
tools = ["{tools}"]
'''

LOOP = '''import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a coding agent."
TOOLS = [{"name": "bash", "description": "Run a command.",
          "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}}},
         {"name": "task", "description": "Delegate.",
          "input_schema": {"type": "object", "properties": {"prompt": {"type": "string"}}}}]


def run_bash(command, timeout=30):
    return "ran here: " + command


TOOL_HANDLERS = {"bash": lambda **kw: run_bash(kw["command"])}


def run_subagent(prompt):
    sub = [{"role": "user", "content": prompt}]
    while True:
        response = client.messages.create(model="m", system=SYSTEM, messages=sub,
                                          tools=TOOLS[:1], max_tokens=100)
        sub.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return "".join(b.text for b in response.content if b.type == "text")
        results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": CALL(block)})
        sub.append({"role": "user", "content": results})


TOOL_HANDLERS["task"] = lambda **kw: run_subagent(kw["prompt"])


def agent_loop(messages):
    while True:
        response = client.messages.create(model="m", system=SYSTEM, messages=messages,
                                          tools=TOOLS, max_tokens=100)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": CALL(block)})
        messages.append({"role": "user", "content": results})
'''
# how a tool_use block is run: by the handler table, or (s01) by the plain function
CALLS = {"TOOL_HANDLERS": "TOOL_HANDLERS[block.name](**block.input)",
         "run_bash": 'run_bash(block.input["command"]) if block.name == "bash" '
                     'else run_subagent(block.input["prompt"])'}


def lesson(root, tools):
    lesson_id = {"TOOL_HANDLERS": "lcc", "run_bash": "plain"}[tools]
    folder = root / lesson_id
    folder.mkdir(parents=True)
    (folder / "code.py").write_text(LOOP.replace("CALL(block)", CALLS[tools]))
    (folder / "setup.py").write_text(
        "def reply(messages, **request):\n"
        "    return {'content': [{'type': 'text', 'text': 'scripted'}]}\n")
    (folder / "lesson.toml").write_text(TOML.format(id=lesson_id, tools=tools))
    return lesson_id


def _use(ident, name, tool_input, caller=True):
    block = {"id": ident, "input": tool_input, "name": name, "type": "tool_use"}
    return dict(block, caller=None) if caller else block


def _cycle(messages, content, stop, executions=(), tools=2):
    request = {"model": "m", "system": "You are a coding agent.", "messages": messages,
               "tools": json.loads(json.dumps(TOOLS_JSON[:tools])), "max_tokens": 100}
    response = {"id": "msg", "type": "message", "role": "assistant", "model": "m",
                "stop_reason": stop, "content": content,
                "usage": {"input_tokens": 10, "output_tokens": 5}}
    return {"elapsed_ms": 500, "request": request, "response": response,
            "tool_executions": list(executions)}


TOOLS_JSON = [{"name": "bash", "description": "Run a command.",
               "input_schema": {"type": "object",
                                "properties": {"command": {"type": "string"}}}},
              {"name": "task", "description": "Delegate.",
               "input_schema": {"type": "object", "properties": {"prompt": {"type": "string"}}}}]
QUESTION = "How many lines has notes.txt?"
THINKING = {"signature": "c2ln", "thinking": "Count them with wc.", "type": "thinking"}


def trace(output="3 notes.txt"):
    """A captured run: the parent delegates (``task``, not among the executions), the
    subagent runs bash (recorded, elsewhere) and answers; the parent answers."""
    bash = {"command": "wc -l notes.txt"}
    sub = [{"role": "user", "content": "Count notes.txt"}]
    parent = [{"role": "user", "content": QUESTION}]
    raw = {"type": "unknown", "raw": "ThinkingBlock(signature='c2ln', thinking='Count them "
                                     "with wc.', type='thinking')"}
    cycles = [
        _cycle(copy.deepcopy(parent), [_use("t1", "task", {"prompt": "Count notes.txt"}, False)],
               "tool_use"),
        _cycle(copy.deepcopy(sub), [raw, _use("t2", "bash", bash, False)], "tool_use",
               [{"name": "bash", "input": bash, "output": output[:5000]}], tools=1),
        _cycle(sub + [{"role": "assistant", "content": [THINKING, _use("t2", "bash", bash)]},
                      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2",
                                                    "content": output}]}],
               [{"type": "text", "text": "3 lines"}], "end_turn", tools=1),
        _cycle(parent + [{"role": "assistant",
                          "content": [_use("t1", "task", {"prompt": "Count notes.txt"})]},
                         {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                       "content": "3 lines"}]}],
               [{"type": "text", "text": "notes.txt has 3 lines."}], "end_turn"),
    ]
    return {"version": "t1", "prompt": QUESTION, "model": "m", "cycles": cycles}


def imported(captured=None):
    return learn_claude_code.convert(captured or trace(), "trace.json", "/home/ann/proj")


@pytest.fixture
def lessons(tmp_path):
    root = tmp_path / "lessons"
    lesson(root, "TOOL_HANDLERS")
    lesson(root, "run_bash")
    return root


@pytest.mark.parametrize("lesson_id", ["lcc", "plain"])
def test_recorded_outputs_answer_the_handlers_and_the_subagent_runs(lessons, lesson_id):
    result = record(lesson_id, "agent_loop", "normal", roots=[lessons], recording=imported())
    assert result["status"] == "finished", result["message"]
    assert result["stdout"] == "answer: notes.txt has 3 lines.\n"
    assert result["replay"]["made"] == 4 and result["replay"]["tool_outputs"] == 1
    agent = result["agent"]
    assert [c["depth"] for c in agent["conversations"]] == [0, 1]
    tools = {t["name"]: t for t in agent["tools"]}
    bash = tools["bash" if lesson_id == "lcc" else "run_bash"]
    assert bash["recorded"] and bash["result"] == "3 notes.txt" and bash["source_cut"] is None
    if lesson_id == "lcc":   # the task handler is declared too: it ran, not recorded
        assert tools["task"]["recorded"] is False and tools["task"]["result"] == "3 lines"


def test_without_recorded_outputs_the_handler_runs_and_the_replay_diverges(lessons):
    recording = imported()
    recording["imported_from"] = None   # a loopstep recording: tools run again here
    recording["made_for"]["block"] = "agent_loop"
    recording["made_for"]["lesson"] = "lcc"
    result = record("lcc", "agent_loop", "normal", roots=[lessons], recording=recording)
    assert result["message"] == "divergence at model call 3: messages[2].content[0].content"
    assert result["replay"]["tool_outputs"] == 0


@pytest.mark.parametrize("lesson_id, name", [("lcc", "bash"), ("plain", "run_bash")])
def test_a_call_the_recording_holds_otherwise_stops_at_the_tool_call(lessons, lesson_id, name):
    recording = imported()
    recording["calls"][1]["tools"][0]["input"] = {"command": "ls"}   # not this call's input
    result = record(lesson_id, "agent_loop", "normal", roots=[lessons], recording=recording)
    assert result["status"] == "error"
    assert result["message"] == ("tool call not in the recording at model call 2: "
                                 f'{name}({{"command": "wc -l notes.txt"}})')
    assert result["replay"]["divergence"] == {
        "call": 2, "path": f"tool:{name}", "sent": f'{name}({{"command": "wc -l notes.txt"}})',
        "recorded": 'bash({"command": "ls"}) → "3 notes.txt"'}
    assert "ran here" not in json.dumps(result["agent"]["tools"])   # it never ran
    renamed = imported()
    renamed["calls"][1]["tools"][0]["name"] = "shell"   # a dict pairs by key: no answer
    result = record(lesson_id, "agent_loop", "normal", roots=[lessons], recording=renamed)
    assert (result["status"] == "error") == (lesson_id == "lcc")
    if lesson_id == "lcc":   # no execution of bash left: it runs, and the next request differs
        assert result["message"] == "divergence at model call 3: messages[2].content[0].content"


def test_a_cut_output_is_marked_and_the_program_gets_it_as_recorded(lessons):
    long = "x" * 6000
    result = record("lcc", "agent_loop", "normal", roots=[lessons],
                    recording=imported(trace(long[:5000])))
    assert result["status"] == "finished", result["message"]
    bash = next(t for t in result["agent"]["tools"] if t["name"] == "bash")
    assert bash["recorded"] and bash["source_cut"] == {"length": None}
    whole = imported(trace(long))   # the next request holds it whole: not cut
    assert whole["calls"][1]["tools"][0] == {"name": "bash", "input": {
        "command": "wc -l notes.txt"}, "output": long}
    result = record("lcc", "agent_loop", "normal", roots=[lessons], recording=whole)
    bash = next(t for t in result["agent"]["tools"] if t["name"] == "bash")
    assert result["status"] == "finished" and bash["source_cut"] is None


def test_an_unrecorded_handler_is_stepped_and_the_dispatcher_is_out_of_the_stacks(lessons):
    result = record("lcc", "run_subagent", "normal", roots=[lessons], recording=imported())
    assert result["status"] == "finished", result["message"]
    frames = [frame for stack in result["stacks"] for frame in stack]
    assert "<lambda>" in [f["name"] for f in frames]   # task's handler, on the way in
    assert FORK_FILE not in json.dumps(result["stacks"])
    assert result["steps"][0]["fn"] == "run_subagent"


def test_after_a_forked_model_call_the_tools_run_here(lessons):
    fork = {"call": "model:2", "value": {"content": [
        {"type": "tool_use", "id": "t9", "name": "bash", "input": {"command": "wc -l notes.txt"}}],
        "stop_reason": "tool_use"}}
    result = record("lcc", "agent_loop", "normal", roots=[lessons], recording=imported(),
                    fork=fork)
    assert result["fork"]["applied"]
    bash = next(t for t in result["agent"]["tools"] if t["name"] == "bash")
    assert not bash["recorded"] and bash["result"] == "ran here: wc -l notes.txt"


def test_a_fork_of_a_recorded_tool_call_answers_the_fork(lessons):
    fork = {"call": "tool:2", "value": "forked"}   # tool 1 is task, 2 is bash
    result = record("lcc", "agent_loop", "normal", roots=[lessons], recording=imported(),
                    fork=fork)
    assert result["fork"]["applied"]
    bash = result["agent"]["tools"][1]
    assert bash["name"] == "bash" and bash["result"] == "forked" and not bash["recorded"]
    assert result["message"] == "divergence at model call 3: messages[2].content[0].content"


def test_the_cli_replays_an_imported_trace_with_its_tool_outputs(lessons, tmp_path, capsys):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace()))
    out = tmp_path / "run.json"
    assert cli.main(["import", "learn-claude-code", str(path), "-o", str(out)]) == 0
    assert cli.main(["trace", "lcc/agent_loop", "--lessons", str(lessons),
                     "--recording", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "answer: notes.txt has 3 lines." in shown
    assert "1 tool output from the recording" in shown
