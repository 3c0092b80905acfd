"""``loopstep import learn-claude-code`` (runtime/recording/learn_claude_code.py) on traces
written here, in that format (per cycle: the request's keyword arguments with SDK objects
written as their attributes, other response blocks kept only as their repr, tool outputs
cut at 5,000 characters), then replayed through the unmodified agent-whole lesson."""

import copy
import json

import pytest

from fake_provider import KEY, FakeProvider
from loopstep.runtime import cli
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import format as recording_format
from loopstep.runtime.recording.learn_claude_code import CUT_AT, TraceError, convert
from loopstep.runtime.recording.live import Live, add_tool_executions

TURNS = [[("thinking", "It's in requirements.txt\x1b[0m."), ("tool", "task", {"prompt": "Read it."})],
         [("tool", "bash", {"command": "cat requirements.txt"})],
         "pytest>=8.0", [("thinking", "Done."), "The project uses pytest."]]


def _as_attributes(block):
    """A block as capture_trace.py writes an SDK object: its attributes, None included."""
    if block["type"] == "tool_use":
        return {"id": block["id"], "caller": None, "input": block["input"],
                "name": block["name"], "type": "tool_use"}
    if block["type"] == "text":
        return {"citations": None, "text": block["text"], "type": "text"}
    return {"signature": block["signature"], "thinking": block["thinking"], "type": "thinking"}


def _repr(block):
    return (f"ThinkingBlock(signature={block['signature']!r}, thinking={block['thinking']!r}, "
            "type='thinking')")


def lcc_trace(recording, cut_at=CUT_AT):
    """The run of ``recording`` in learn-claude-code's per-cycle trace format."""
    cycles = []
    for number, call in enumerate(recording["calls"], 1):
        request = copy.deepcopy(call["request"])
        for message in request["messages"]:
            if message["role"] == "assistant" and isinstance(message["content"], list):
                message["content"] = [_as_attributes(b) for b in message["content"]]
        content = []
        for block in call["response"]["content"]:
            if block["type"] == "text":
                content.append({"type": "text", "text": block["text"]})
            elif block["type"] == "tool_use":
                content.append({k: block[k] for k in ("type", "id", "name", "input")})
            else:
                content.append({"type": "unknown", "raw": _repr(block)})
        response = {k: call["response"][k] for k in ("id", "type", "role", "model",
                                                      "stop_reason")}
        response["content"] = content
        response["usage"] = {k: call["response"]["usage"][k]
                             for k in ("input_tokens", "output_tokens")}
        tools = [{"name": t["name"], "input": t["input"], "output": t["output"][:cut_at]}
                 for t in call["tools"] if t["name"] != "task"]
        cycles.append({"cycle": number, "elapsed_ms": 10, "request": request,
                       "response": response, "tool_executions": tools})
    return {"version": "t1", "prompt": "这个项目用什么测试框架？", "model": recording["model"],
            "total_cycles": len(cycles), "total_input_tokens": 0, "total_output_tokens": 0,
            "cycles": cycles}


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    with FakeProvider(TURNS) as fake:
        live = Live("anthropic", KEY, ("agent-whole", "agent_loop", "delegates"), fake.url,
                    cwd="/home/ann/proj")
        record("agent-whole", "agent_loop", "delegates", live=live)
    add_tool_executions(live.recording)
    # the run as on the author's machine: their folder in every text
    text = json.dumps(live.recording).replace("/tmp/loopstep-run", "/home/ann/proj")
    return lcc_trace(json.loads(text))


def test_an_imported_trace_replays_through_the_unmodified_lesson(published, tmp_path, capsys):
    source, out = tmp_path / "t1.json", tmp_path / "t1.recording.json"
    source.write_text(json.dumps(published, ensure_ascii=False))
    assert cli.main(["import", "learn-claude-code", str(source), "--cwd", "/home/ann/proj",
                     "-o", str(out)]) == 0
    recording = recording_format.load(out)
    assert recording["imported_from"] == "learn-claude-code" and recording["cwd"] == "/home/ann/proj"
    first = recording["calls"][0]["response"]["content"][0]
    # kept field by field by the next request: rebuilt
    assert first == {"signature": "sig1", "thinking": "It's in requirements.txt\x1b[0m.",
                     "type": "thinking"}
    # the last answer's thinking is in no later request: kept as its text
    assert recording["calls"][3]["response"]["content"][0]["type"] == "unknown"
    assert cli.main(["trace", "agent-whole/loop", "--scenario", "delegates",
                     "--recording", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "replay: 4 of 4 recorded model calls (anthropic, claude-sonnet-4-5, imported from " \
           "learn-claude-code)" in shown
    assert "回答： The project uses pytest." in shown
    trace = record("agent-whole", "loop", "delegates",
                   recording=recording_format.load(out))
    calls = trace["agent"]["calls"]
    assert [trace["agent"]["conversations"][c["conversation"]]["depth"] for c in calls] == \
        [0, 1, 1, 0]


def test_an_edited_system_prompt_diverges_at_call_1(published, tmp_path, capsys):
    recording = convert(published, "t1.json", "/home/ann/proj")
    for call in recording["calls"][:1]:
        call["request"]["system"] = call["request"]["system"].replace("coding", "careful")
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(recording))
    assert cli.main(["trace", "agent-whole/agent_loop", "--scenario", "delegates",
                     "--recording", str(path)]) == 3
    assert "divergence at model call 1: system" in capsys.readouterr().err


def test_a_cut_output_is_taken_whole_from_the_next_request_else_marked(published):
    trace = copy.deepcopy(published)
    whole = "x" * (CUT_AT + 700)
    bash = trace["cycles"][1]
    bash["tool_executions"][0]["output"] = whole[:CUT_AT]
    trace["cycles"][2]["request"]["messages"][-1]["content"][0]["content"] = whole
    recording = convert(trace, "t.json", "/p")
    assert recording["calls"][1]["tools"][0] == {"name": "bash",
                                                 "input": {"command": "cat requirements.txt"},
                                                 "output": whole}
    trace["cycles"][2]["request"]["messages"][-1]["content"][0]["content"] = "other"
    tool = convert(trace, "t.json", "/p")["calls"][1]["tools"][0]
    assert tool["output"] == whole[:CUT_AT] and tool["cut"] is True


def test_a_file_of_another_format_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"cycles": [{"request": {"messages": []}, "response": {}}]}))
    out = tmp_path / "out.json"
    assert cli.main(["import", "learn-claude-code", str(path), "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == \
        f"loopstep import: {path}: $.cycles[0].response: missing 'content'"
    assert not out.exists()
    with pytest.raises(TraceError, match=r"\$: must be object"):
        convert([], "t.json", "/p")
