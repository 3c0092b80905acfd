"""Recorded schedules (docs/recordings.md, "Threads"): runs of threaded agents captured
elsewhere in learn-claude-code's per-cycle format — calls numbered when they began, listed
when they ended, one still in flight when the capture ended — imported and replayed
through small agent files of the same kind, written here."""

import json

import pytest

from fake_provider import KEY, FakeProvider
from loopstep.runtime import cli
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import calibrate, format as recording_format, learn_claude_code, \
    replay
from loopstep.runtime.recording.live import Live

CWD = "/home/ann/proj"
TOML = '''title.zh = "t"
title.en = "t"
summary.zh = "s"
summary.en = "s"
setup = "{id}/setup.py"
modules = ["{id}/agent.py"]

[standins]
modules = ["anthropic", "subprocess"]
model = "reply"

[[presets]]
name = "normal"
zh = "n"
en = "n"

[[blocks]]
symbol = "agent_loop"
source = "{id}/agent.py"
entry = """
history = [{{"role": "user", "content": "Go."}}]
agent_loop(history)
print("answer:", history[-1]["content"][0].text)
"""

[agent]
tools = ["HANDLERS"]
'''
HEAD = '''import json
import subprocess
import threading
import uuid

from anthropic import Anthropic

client = Anthropic()
LOCK = threading.Lock()
INBOX = {}
DONE = []
'''
LOOP = '''

def agent_loop(messages):
    while True:
        with LOCK:
            done = list(DONE)
            DONE.clear()
        if done:
            messages.append({"role": "user", "content": "<done>" + "\\n".join(done) + "</done>"})
            messages.append({"role": "assistant", "content": "Noted."})
        response = client.messages.create(model="m", system="lead", messages=messages,
                                          tools=TOOLS, max_tokens=100)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = HANDLERS[block.name](**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})
'''
TEAM = HEAD + '''

def mate(name):
    messages = [{"role": "user", "content": f"You are {name}."}]
    while True:
        response = client.messages.create(model="m", system=name, messages=messages,
                                          tools=MATE_TOOLS, max_tokens=100)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        with LOCK:
            got = INBOX.pop(name, [])
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": json.dumps(got)}
            for b in response.content if b.type == "tool_use"]})


def spawn(name):
    threading.Thread(target=mate, args=(name,), daemon=True).start()
    return f"spawned {name}"


def send(to, text):
    with LOCK:
        INBOX.setdefault(to, []).append(text)
    return f"sent to {to}"


HANDLERS = {"spawn": lambda **kw: spawn(kw["name"]), "send": lambda **kw: send(kw["to"], kw["text"])}
''' + LOOP
BACKGROUND = HEAD + '''

def work(tid, command):
    r = subprocess.run(command, shell=True, capture_output=True, text=True)
    with LOCK:
        DONE.append(f"[{tid}] {(r.stdout + r.stderr).strip()}")


def start(command):
    tid = str(uuid.uuid4())[:8]
    threading.Thread(target=work, args=(tid, command), daemon=True).start()
    return f"started {tid}"


HANDLERS = {"start": lambda **kw: start(kw["command"]),
            "echo": lambda **kw: subprocess.run(["echo", kw["text"]], capture_output=True,
                                                 text=True).stdout.strip()}
''' + LOOP


def tool(name, *fields):
    return {"name": name, "description": name, "input_schema": {
        "type": "object", "properties": {f: {"type": "string"} for f in fields},
        "required": list(fields)}}


def use(ident, tool_name, **given):
    return {"id": ident, "caller": None, "input": given, "name": tool_name, "type": "tool_use"}


def result(ident, text):
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": ident,
                                         "content": text}]}


def cycle(number, system, messages, tools, content, executions=()):
    """One cycle as the capture writes it (a tool_use block in a response: no caller)."""
    shown = [{k: v for k, v in b.items() if k != "caller"} if b.get("type") == "tool_use"
             else b for b in content]
    return {"cycle": number, "elapsed_ms": 100,
            "request": {"model": "m", "system": system, "messages": json.loads(json.dumps(
                messages)), "tools": tools, "max_tokens": 100},
            "response": {"id": f"msg{number}", "type": "message", "role": "assistant",
                         "model": "m", "content": shown,
                         "stop_reason": "tool_use" if any(b.get("type") == "tool_use"
                                                          for b in content) else "end_turn",
                         "usage": {"input_tokens": 1, "output_tokens": 1}},
            "tool_executions": [{"name": n, "input": i, "output": o} for n, i, o in executions]}


LEAD_TOOLS = [tool("spawn", "name"), tool("send", "to", "text")]
MATE_TOOLS = [tool("read_inbox")]
TEAM_TOOLS = f"TOOLS = {LEAD_TOOLS!r}\nMATE_TOOLS = {MATE_TOOLS!r}\n"


def team_capture():
    """The lead spawns ann and ben, sends ben a message; calls numbered when they began,
    listed when they ended (ben's first answer came before ann's); ann's second call was
    still in flight when the lead finished."""
    ask = {"role": "user", "content": "Go."}
    said1 = {"role": "assistant", "content": [use("s1", "spawn", name="ann"),
                                              use("s2", "spawn", name="ben")]}
    got1 = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "s1", "content": "spawned ann"},
        {"type": "tool_result", "tool_use_id": "s2", "content": "spawned ben"}]}
    said2 = {"role": "assistant", "content": [use("m1", "send", to="ben", text="hi ben")]}
    lead2 = [ask, said1, got1]
    lead3 = lead2 + [said2, result("m1", "sent to ben")]
    ben = [{"role": "user", "content": "You are ben."}]
    ben_said = {"role": "assistant", "content": [use("b1", "read_inbox")]}
    return {"version": "team", "prompt": "Go.", "model": "m", "cycles": [
        cycle(1, "lead", [ask], LEAD_TOOLS, said1["content"],
              [("spawn", {"name": "ann"}, "spawned ann"), ("spawn", {"name": "ben"}, "spawned ben")]),
        cycle(2, "lead", lead2, LEAD_TOOLS, said2["content"],
              [("send", {"to": "ben", "text": "hi ben"}, "sent to ben")]),
        cycle(2, "ben", ben, MATE_TOOLS, ben_said["content"]),
        cycle(2, "ann", [{"role": "user", "content": "You are ann."}], MATE_TOOLS,
              [use("a1", "read_inbox")]),
        cycle(4, "ben", ben + [ben_said, result("b1", '["hi ben"]')], MATE_TOOLS,
              [{"type": "text", "text": "ben got hi"}]),
        cycle(3, "lead", lead3, LEAD_TOOLS, [{"type": "text", "text": "team done"}])]}


def background_capture():
    """A command run in a thread on the author's machine (``du``, which the stand-in shell
    lacks), its id from uuid4, its result injected before call 3."""
    ask = {"role": "user", "content": "Go."}
    said1 = {"role": "assistant", "content": [use("t1", "start", command="du -sh .")]}
    said2 = {"role": "assistant", "content": [use("t2", "echo", text="meanwhile")]}
    first = [ask, said1, result("t1", "started 5c1f09ab")]
    second = first + [said2, result("t2", "meanwhile"),
                      {"role": "user", "content": "<done>[5c1f09ab] 12K\t.</done>"},
                      {"role": "assistant", "content": "Noted."}]
    tools = [tool("start", "command"), tool("echo", "text")]
    return {"version": "bg", "prompt": "Go.", "model": "m", "cycles": [
        cycle(1, "lead", [ask], tools, said1["content"],
              [("start", {"command": "du -sh ."}, "started 5c1f09ab")]),
        cycle(2, "lead", first, tools, said2["content"],
              [("echo", {"text": "meanwhile"}, "meanwhile")]),
        cycle(3, "lead", second, tools, [{"type": "text", "text": "it takes 12K"}])]}


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    root = tmp_path_factory.mktemp("threaded")
    bg_tools = f"TOOLS = {[tool('start', 'command'), tool('echo', 'text')]!r}\n"
    for name, source in (("team", TEAM.replace(LOOP, "\n" + TEAM_TOOLS + LOOP)),
                         ("bg", BACKGROUND.replace(LOOP, "\n" + bg_tools + LOOP))):
        folder = root / name
        folder.mkdir()
        (folder / "agent.py").write_text(source)
        (folder / "setup.py").write_text("def reply(**request):\n"
                                         "    raise RuntimeError('not from the recording')\n")
        (folder / "lesson.toml").write_text(TOML.format(id=name))
    return root


def test_overlapping_calls_keep_their_start_order_sequential_ones_none():
    team = learn_claude_code.convert(team_capture(), "team.json", CWD)
    assert [c["started"] for c in team["calls"]] == [1, 2, 3, 4, 6, 5]
    assert replay.Replay(team).order is not None
    alone = learn_claude_code.convert(background_capture(), "bg.json", CWD)
    assert all("started" not in c for c in alone["calls"]) and \
        replay.Replay(alone).order is None


def test_a_team_replays_in_the_recorded_interleaving_one_call_in_flight(lessons, tmp_path,
                                                                        capsys):
    source, out = tmp_path / "team.json", tmp_path / "team.recording.json"
    source.write_text(json.dumps(team_capture()))
    assert cli.main(["import", "learn-claude-code", str(source), "--cwd", CWD,
                     "-o", str(out)]) == 0
    capsys.readouterr()
    assert cli.main(["trace", "team/agent_loop", "--lessons", str(lessons),
                     "--recording", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "answer: team done" in shown
    assert "replay: 6 of 6 recorded model calls" in shown
    assert "1 model call still in flight when the recording ended (Thread-1 (mate))" in shown
    trace = record("team", "agent_loop", "normal", roots=[lessons],
                   recording=learn_claude_code.convert(team_capture(), "team.json", CWD))
    assert trace["status"] == "finished" and trace["replay"]["divergence"] is None
    calls = trace["agent"]["calls"]
    # the order the answered calls began: lead, lead, ann, ben, lead, ben; ann's last
    # one was in flight (runtime/agent/in_flight.py)
    assert [c["conversation"] for c in calls] == [0, 0, 1, 2, 0, 2]
    assert [(c["thread"], c["conversation"]) for c in trace["agent"]["in_flight"]] == \
        [("Thread-1 (mate)", 1)]
    # no divergence: ben's second request held the lead's message (his first answer
    # came after the lead's second, whose tool sent it), ann's none
    threads = {t["name"]: t["end"] for t in trace["threads"]}
    assert threads["Thread-1 (mate)"].startswith("ended with the run")


def test_a_teammates_divergence_stops_the_run(lessons):
    capture = team_capture()
    capture["cycles"][4]["request"]["messages"][2]["content"][0]["content"] = '["bye"]'
    trace = record("team", "agent_loop", "normal", roots=[lessons],
                   recording=learn_claude_code.convert(capture, "team.json", CWD))
    assert trace["status"] == "error"
    assert trace["message"] == "divergence at model call 6: messages[2].content[0].content"


def test_a_thread_starting_handler_runs_its_id_and_command_output_replay(lessons):
    trace = record("bg", "agent_loop", "normal", roots=[lessons],
                   recording=learn_claude_code.convert(background_capture(), "bg.json", CWD))
    assert trace["status"] == "finished", trace.get("message")
    assert trace["stdout"].endswith("answer: it takes 12K\n")
    # the id (uuid4) and the command's output on the author's machine are given back
    assert trace["replay"]["clock_fixes"] == 2 and trace["replay"]["tool_outputs"] == 1


def test_id_and_output_fixes_name_only_what_the_run_drew_or_printed():
    drawn = ["79452b6c" + "0" * 24]
    found = {"recorded": '"started 5c1f09ab"', "sent": '"started 79452b6c"'}
    assert calibrate.id_fix(found, drawn) == [[0, "5c1f09ab" + "0" * 24]]
    assert calibrate.id_fix(found, ["aaaaaaaa" + "0" * 24]) is None
    shown = {"recorded": '"<done>[x] 12K\\t.</done>"', "sent": '"<done>[x] bash: du</done>"'}
    assert calibrate.output_fix(shown, ["bash: du\n"]) == [[0, "12K\t."]]
    assert calibrate.output_fix(shown, ["other"]) is None


def test_a_live_run_of_a_team_keeps_threads_and_start_order_and_replays(lessons):
    turns = [[("tool", "spawn", {"name": "ann"}), ("tool", "spawn", {"name": "ben"})],
             [("tool", "send", {"to": "ben", "text": "hi"})],
             [("tool", "read_inbox", {})], [("tool", "read_inbox", {})], "team done"]
    with FakeProvider(turns) as fake:
        live = Live("anthropic", KEY, ("team", "agent_loop", "normal"), fake.url)
        first = record("team", "agent_loop", "normal", roots=[lessons], live=live)
    calls = recording_format.loads(recording_format.dumps(live.recording))["calls"]
    assert first["stdout"].endswith("answer: team done\n")
    # the first call came before any thread; then the lead, ann and ben overlapped
    assert [c.get("thread") for c in calls] == \
        [None, "MainThread", "Thread-1 (mate)", "Thread-2 (mate)", "MainThread"]
    assert [c.get("started") for c in calls] == [None, 2, 3, 4, 5]
    again = record("team", "agent_loop", "normal", roots=[lessons],
                   recording=json.loads(json.dumps(live.recording)))
    assert again["status"] == "finished" and again["replay"]["divergence"] is None
    assert again["stdout"] == first["stdout"]
    assert again["replay"]["note"] == ("2 model calls still in flight when the recording "
                                       "ended (Thread-1 (mate), Thread-2 (mate))")
