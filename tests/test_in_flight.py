"""Model calls in flight when a recording ended (runtime/agent/in_flight.py): a team's
run captured in learn-claude-code's per-cycle format, whose last answer (the lead's)
came while a teammate's call was still waiting. Its replay makes every recorded call;
the trace's calls are those answered, numbered as the recording answered them, and the
teammate's call is listed in flight."""

import json

import pytest

from loopstep.runtime.agent import wire
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import format as recording_format, learn_claude_code

CWD = "/home/ann/team"
MATE = "Thread-1 (_teammate_loop)"
TOML = '''title.zh = "t"
title.en = "t"
summary.zh = "s"
summary.en = "s"
setup = "team/setup.py"
modules = ["team/agent.py"]

[standins]
modules = ["anthropic"]
model = "reply"

[[presets]]
name = "normal"
zh = "n"
en = "n"

[[blocks]]
symbol = "agent_loop"
source = "team/agent.py"
entry = """
history = [{"role": "user", "content": "Spawn alice."}]
agent_loop(history)
print("answer:", history[-1]["content"][0].text)
"""

[agent]
tools = ["TOOL_HANDLERS"]
'''
AGENT = '''import json
import threading

from anthropic import Anthropic

client = Anthropic()
MODEL = "m"
SYSTEM = "You are the team lead."
INBOX = {}
LOCK = threading.Lock()
TOOLS = %(lead)r
MATE_TOOLS = %(mate)r


class TeammateManager:
    def __init__(self):
        self.members = {}

    def spawn(self, name):
        self.members[name] = "working"
        thread = threading.Thread(target=self._teammate_loop, args=(name,), daemon=True)
        thread.start()
        return f"Spawned {name}"

    def _teammate_loop(self, name):
        messages = [{"role": "user", "content": f"You are {name}. Check your inbox."}]
        while True:
            response = client.messages.create(model=MODEL, system=f"You are {name}.",
                                              messages=messages, tools=MATE_TOOLS,
                                              max_tokens=100)
            messages.append({"role": "assistant", "content": response.content})
            if response.stop_reason != "tool_use":
                break
            results = []
            for block in response.content:
                if block.type == "tool_use":
                    with LOCK:
                        got = INBOX.pop(name, [])
                    results.append({"type": "tool_result", "tool_use_id": block.id,
                                    "content": json.dumps(got)})
            messages.append({"role": "user", "content": results})
        self.members[name] = "idle"

    def list_all(self):
        return "\\n".join(f"{name}: {state}" for name, state in self.members.items())


TEAM = TeammateManager()
TOOL_HANDLERS = {"spawn_teammate": lambda **kw: TEAM.spawn(kw["name"]),
                 "list_teammates": lambda **kw: TEAM.list_all()}


def agent_loop(messages):
    while True:
        response = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                          tools=TOOLS, max_tokens=100)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = TOOL_HANDLERS[block.name](**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": str(output)})
        messages.append({"role": "user", "content": results})
'''


def tool(name, *fields):
    return {"name": name, "description": name, "input_schema": {
        "type": "object", "properties": {f: {"type": "string"} for f in fields},
        "required": list(fields)}}


LEAD_TOOLS = [tool("spawn_teammate", "name"), tool("list_teammates")]
MATE_TOOLS = [tool("read_inbox")]


def use(ident, tool_name, **given):
    return {"id": ident, "caller": None, "input": given, "name": tool_name, "type": "tool_use"}


def said(*content):
    return {"role": "assistant", "content": list(content)}


def got(ident, text):
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": ident,
                                         "content": text}]}


def cycle(number, system, messages, tools, content, executions=()):
    """One cycle as the capture writes it (numbered when it began, listed when it ended)."""
    shown = [{k: v for k, v in b.items() if k != "caller"} for b in content]
    return {"cycle": number, "elapsed_ms": 100,
            "request": {"model": "m", "system": system, "messages": messages,
                        "tools": tools, "max_tokens": 100},
            "response": {"id": f"msg{number}", "type": "message", "role": "assistant",
                         "model": "m", "content": shown,
                         "stop_reason": "tool_use" if any(b["type"] == "tool_use"
                                                          for b in content) else "end_turn",
                         "usage": {"input_tokens": 1, "output_tokens": 1}},
            "tool_executions": [{"name": n, "input": i, "output": o} for n, i, o in executions]}


def capture():
    """The lead spawns alice and lists the team twice, then answers; alice's first call
    (reading her inbox) overlapped the lead's second; her second call began before the
    lead's last and was still waiting when the lead's answer ended the capture."""
    lead, mate = "You are the team lead.", "You are alice."
    ask = {"role": "user", "content": "Spawn alice."}
    one = [ask, said(use("s1", "spawn_teammate", name="alice")), got("s1", "Spawned alice")]
    two = one + [said(use("l1", "list_teammates")), got("l1", "alice: working")]
    three = two + [said(use("l2", "list_teammates")), got("l2", "alice: working")]
    alice = [{"role": "user", "content": "You are alice. Check your inbox."}]
    return {"version": "s09", "prompt": "Spawn alice.", "model": "m", "cycles": [
        cycle(1, lead, [ask], LEAD_TOOLS, [use("s1", "spawn_teammate", name="alice")],
              [("spawn_teammate", {"name": "alice"}, "Spawned alice")]),
        cycle(2, lead, one, LEAD_TOOLS, [use("l1", "list_teammates")],
              [("list_teammates", {}, "alice: working")]),
        cycle(2, mate, alice, MATE_TOOLS, [use("r1", "read_inbox")]),
        cycle(3, lead, two, LEAD_TOOLS, [use("l2", "list_teammates")],
              [("list_teammates", {}, "alice: working")]),
        cycle(5, lead, three, LEAD_TOOLS, [{"type": "text", "text": "alice is on it"}])]}


def write(root, preset=False):
    """The lesson ``team`` under ``root`` (``preset``: with a preset ``recorded`` answered
    from the recording); its files ({relative path: path})."""
    folder = root / "team"
    folder.mkdir()
    (folder / "agent.py").write_text(AGENT % {"lead": LEAD_TOOLS, "mate": MATE_TOOLS})
    (folder / "setup.py").write_text("def reply(**request):\n"
                                     "    raise RuntimeError('not from the recording')\n")
    toml = TOML
    if preset:
        (folder / "rec.json").write_text(recording_format.dumps(recording()))
        toml = toml.replace("\n[[blocks]]", '\n[[presets]]\nname = "recorded"\nzh = "r"\n'
                            'en = "Recorded"\nrecording = "team/rec.json"\n\n[[blocks]]')
    (folder / "lesson.toml").write_text(toml)
    return {f"team/{path.name}": str(path) for path in folder.iterdir()}


def recording():
    return learn_claude_code.convert(json.loads(json.dumps(capture())), "s09.json", CWD)


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    root = tmp_path_factory.mktemp("in_flight")
    write(root)
    return root


def replayed(lessons, **options):
    return record("team", "agent_loop", "normal", roots=[lessons], recording=recording(),
                  **options)


def test_a_call_in_flight_when_the_recording_ended_is_no_call_of_the_trace(lessons):
    trace = replayed(lessons)
    assert trace["status"] == "finished", trace.get("message")
    assert trace["stdout"].endswith("answer: alice is on it\n")
    replay = trace["replay"]
    assert replay["divergence"] is None and replay["made"] == replay["calls"] == 5
    assert replay["note"] == f"1 model call still in flight when the recording ended ({MATE})"
    agent = trace["agent"]
    calls = agent["calls"]
    # every call of the trace got its answer: as many as the recording holds, in the order
    # they began (lead, lead, alice, lead, lead), each one's `changed` beside it
    assert len(calls) == 5 and all(c["response"] is not None for c in calls)
    assert [c["conversation"] for c in calls] == [0, 0, 1, 0, 0]
    assert len(agent["changed"]) == len(calls)
    # alice's second call (begun before the lead's last) waited when the run ended
    [flying] = agent["in_flight"]
    assert flying["thread"] == MATE and flying["conversation"] == 1 and flying["depth"] == 0
    assert calls[2]["step"] <= flying["step"] <= calls[4]["step"]
    assert [agent["messages"][k][0] for k in flying["messages"]] == \
        ["user", "assistant", "user"]
    assert wire.unpack(wire.pack(agent)) == agent and wire.pack(agent)["in_flight"] == \
        [[flying["step"], 1, MATE, flying["messages"]]]


def test_a_fork_counts_the_calls_as_the_trace_numbers_them(lessons):
    """model:5 is the lead's last call (the 6th the run began, alice's waiting one 5th)."""
    forked = replayed(lessons, fork={"call": "model:5", "value": {
        "stop_reason": "end_turn", "content": [{"type": "text", "text": "forked"}]}})
    assert forked["status"] == "finished", forked.get("message")
    assert forked["fork"]["applied"] and forked["stdout"].endswith("answer: forked\n")
    assert len(forked["agent"]["calls"]) == 5 and len(forked["agent"]["in_flight"]) == 1
