"""Recording format 3 (runtime/recording/compact.py, docs/recordings.md "Version 3"): each
message and request field stored once, read back whole; versions 1 and 2 still read and
convert (``loopstep import recording``); a file's references that lead nowhere named; and
the replay comparing only what is new since a conversation's previous call (sent.py)
while an edit of a message already sent still stops the run at its call and path."""

import copy
import json

import pytest

from loopstep.runtime import cli
from loopstep.runtime.recording import format as recording_format
from loopstep.runtime.recording import replay as replay_module
from loopstep.runtime.recording.compact import distinct_bytes
from loopstep.runtime.recording.live import add_tool_executions
from loopstep.runtime.recording.normal import canonical
from loopstep.runtime.recording.replay import Divergence, Replay
from loopstep.runtime.recording.sent import Sent
from loopstep.runtime.standins.sdk import model

SYSTEM = "You read files. Ask for one file at a time; when done, say how many you read."
TOOLS = [{"name": "read_file", "description": "Read a file.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}]
TextBlock = model("anthropic.types", "TextBlock",
                  (("type", "text"), ("text", ""), ("citations", None)))
ToolUseBlock = model("anthropic.types", "ToolUseBlock",
                     (("type", "tool_use"), ("id", ""), ("name", ""), ("input", None)))


def _response(number, calls):
    if number == calls:
        return {"id": f"msg_{number}", "content": [{"type": "text", "text": "Done."}],
                "stop_reason": "end_turn"}
    return {"id": f"msg_{number}", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": f"Reading file {number}."},
        {"type": "tool_use", "id": f"toolu_{number}", "name": "read_file",
         "input": {"path": f"file_{number}.txt"}}]}


def program(answer, calls, size, edit=None):
    """An agent loop as a program writes it: one ``messages`` list growing by an assistant
    turn (SDK-like objects) and a tool result (``size`` characters) per call; ``edit(n,
    messages)`` before call n."""
    messages = [{"role": "user", "content": "Read every file.", "meta": 1}]
    for number in range(1, calls + 1):
        if edit:
            edit(number, messages)
        request = {"model": "bench-model", "max_tokens": 100, "system": SYSTEM,
                   "messages": messages, "tools": TOOLS}
        response = answer(number, request)
        blocks = [TextBlock(**part) if part["type"] == "text" else ToolUseBlock(**part)
                  for part in response["content"]]
        messages.append({"role": "assistant", "content": blocks})
        if number < calls:
            output = (f"contents of file_{number}.txt " * (size // 20 + 1))[:size]
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{number}", "content": output}]})


def recorded(calls, size=200):
    """A whole recording of ``program``, its requests made as the live sender makes them."""
    recording = recording_format.new("scale", "run_agent", "c", "anthropic", "bench-model",
                                     None, "/tmp/loopstep-run")
    sent = Sent()

    def answer(number, request):
        response = _response(number, calls)
        recording["calls"].append({"request": sent.body(request), "response": response,
                                   "seconds": 0.1, "tools": []})
        return response
    program(answer, calls, size)
    return add_tool_executions(recording)


def plain(recording):
    """A whole recording as JSON text, its version left out (what must survive a file; its
    top-level keys in one order, each request's as sent)."""
    return json.dumps(sorted((k, v) for k, v in recording.items() if k != "version"))


def test_version_3_round_trips_and_stores_each_message_once():
    whole = recorded(300, size=8192)
    text = recording_format.dumps(whole)
    document = json.loads(text)
    assert document["version"] == 3
    assert document["calls"][1]["continues"] == {"call": 1, "keep": 1}
    assert len(document["calls"][1]["request"]["messages"]) == 2   # the new ones only
    assert document["values"] == [SYSTEM, TOOLS]
    assert all(c["request"]["system"] is None and c["values"] == {"system": 0, "tools": 1}
               for c in document["calls"])
    assert "sent" in document["calls"][0]["tools"][0]   # the output sent back, once
    back = recording_format.loads(text)
    assert plain(back) == plain(whole)
    size = len(text.encode())
    assert size <= 1.3 * distinct_bytes(back)
    assert size < 0.01 * len(json.dumps(whole).encode())   # the whole form: every history again
    # linear: three times the calls, three times the file (not nine)
    assert size <= 3.3 * len(recording_format.dumps(recorded(100, size=8192)).encode())
    # read whole, the requests share their messages: memory as the file, not as the histories
    calls = back["calls"]
    assert calls[299]["request"]["messages"][0] is calls[0]["request"]["messages"][0]


@pytest.mark.parametrize("version", [1, 2])
def test_versions_1_and_2_read_whole_and_convert(version, tmp_path, capsys):
    whole = recorded(30)
    old = json.loads(json.dumps(whole))   # no message shared: as an older file has them
    old["version"] = version
    if version == 2:
        old["world"] = {"seed": 7, "clock": [["wall", 5]]}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old, indent=1))
    read = recording_format.load(path)
    assert read["version"] == version and plain(read) == plain(old)
    assert cli.main(["import", "recording", str(path), "-o", str(tmp_path / "new.json")]) == 0
    assert "wrote 30 model calls" in capsys.readouterr().err
    new = tmp_path / "new.json"
    assert json.loads(new.read_text())["version"] == 3
    assert plain(recording_format.load(new)) == plain(old)
    assert new.stat().st_size < path.stat().st_size / 3


def _compact():
    return json.loads(recording_format.dumps(recorded(5)))


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["calls"][2]["continues"].update(call=3), "$.calls[2].continues.call: must be "
                                                          "an earlier call (1 to 2)"),
    (lambda d: d["calls"][2]["continues"].update(keep=9), "$.calls[2].continues.keep: call 2 "
                                                          "sent 3 messages"),
    (lambda d: d["calls"][1]["values"].update(tools=5), "$.calls[1].values.tools: must be an "
                                                        "index of $.values (0 to 1)"),
    (lambda d: d["calls"][1]["request"].update(tools=[]), "$.calls[1].request.tools: must be "
                                                          "null: its value is in $.values"),
    (lambda d: d["calls"][0]["tools"][0].update(sent=[1, 0, 0]),
     "$.calls[0].tools[0].sent: names no tool result the run sent"),
    (lambda d: d["calls"][0]["tools"][0].pop("sent"), "$.calls[0].tools[0]: missing 'output'"),
    (lambda d: d.update(version=2), "$.values: only version 3 has it"),
    (lambda d: (d.pop("values"), d.update(version=2)), "$.calls[0].values: only version 3 "
                                                        "has it"),
])
def test_a_reference_that_leads_nowhere_is_named(edit, where):
    document = _compact()
    edit(document)
    with pytest.raises(recording_format.RecordingError) as error:
        recording_format.loads(json.dumps(document), "run.json")
    assert str(error.value) == f"run.json: {where}"


def _replayed(recording, calls, size=200, edit=None):
    replay = Replay(recording_format.loads(recording_format.dumps(recording)))
    program(lambda number, request: replay.answer("anthropic", request), calls, size, edit)
    return replay


def test_an_unchanged_history_is_compared_by_what_is_new(monkeypatch):
    recording = recorded(40)
    lengths = []
    real = replay_module.quick_text

    def counted(request, text=str):
        found = real(request, text)
        lengths.append(len(found))
        return found
    monkeypatch.setattr(replay_module, "quick_text", counted)
    replay = _replayed(recording, 40)
    assert replay.made == 40 and replay.stopped is None
    whole = len(canonical(recording["calls"][-1]["request"]))
    # the first call whole; then only the fields and what is new since the previous call
    assert max(lengths[1:]) < whole / 10


def test_the_replay_keeps_the_snaps_of_a_call_only_until_the_next_continues_it(monkeypatch):
    """Memory linear in the run: a call's snapshot is let go once the call continuing it
    has been answered, its lists taken over rather than copied."""
    held = []
    real = replay_module.Replay._remember

    def remember(self, number, messages):
        real(self, number, messages)
        held.append(sorted(self._snaps))
    monkeypatch.setattr(replay_module.Replay, "_remember", remember)
    replay = _replayed(recorded(40), 40)
    assert replay.made == 40 and replay.stopped is None
    assert held[:3] == [[1], [2], [3]] and held[-1] == []   # the last call: none continues it


def _edit_at(number, change):
    return lambda at, messages: change(messages) if at == number else None


@pytest.mark.parametrize("change, path", [
    (lambda m: setattr(m[1]["content"][0], "text", "edited"), "messages[1].content[0].text"),
    (lambda m: m[2]["content"][0].update(content="shorter"), "messages[2].content[0].content"),
    (lambda m: m[0].update(meta=1.0), "messages[0].meta"),
    (lambda m: m[0].update(meta=True), "messages[0].meta"),
    (lambda m: m[1]["content"][1].input.update(path="other.txt"),
     "messages[1].content[1].input.path"),
    (lambda m: m[1]["content"].__setitem__(0, TextBlock(text="another")),
     "messages[1].content[0].text"),
    (lambda m: m.pop(), "messages[8]"),
    (lambda m: m.append({"role": "user", "content": "more"}), "messages[9]"),
    (lambda m: m.__delitem__(slice(1, 3)), "messages[1].content[0].text"),
])
def test_an_edit_of_a_message_already_sent_stops_the_run_at_its_call(change, path):
    with pytest.raises(Divergence) as stop:
        _replayed(recorded(8), 8, edit=_edit_at(5, change))
    assert (stop.value.call, stop.value.path) == (5, path)
    assert str(stop.value).startswith(f"divergence at model call 5: {path}")


def test_a_key_order_changed_is_no_divergence_as_before():
    def reorder(messages):
        messages[0] = dict(reversed(list(messages[0].items())))
    replay = _replayed(recorded(8), 8, edit=_edit_at(4, reorder))
    assert replay.made == 8 and replay.stopped is None


def test_the_live_sender_puts_only_new_messages_in_the_normal_form():
    whole = recorded(6)
    first, last = whole["calls"][1]["request"], whole["calls"][5]["request"]
    assert last["messages"][:3] == first["messages"]
    assert all(a is b for a, b in zip(first["messages"], last["messages"]))
    assert last["messages"][1] == {"role": "assistant", "content": [
        {"type": "text", "text": "Reading file 1."},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file",
         "input": {"path": "file_1.txt"}}]}   # None fields left out, as the SDK sends them
    # an edit of a message already sent: the body says what the program sends now
    sent = Sent()
    messages = [{"role": "user", "content": "a"}]
    body = sent.body({"model": "m", "messages": messages})
    messages.append({"role": "user", "content": "b"})
    messages[0]["content"] = "edited"
    again = sent.body({"model": "m", "messages": messages})
    assert again["messages"] == [{"role": "user", "content": "edited"},
                                 {"role": "user", "content": "b"}]
    assert body["messages"] == [{"role": "user", "content": "a"}]
    assert copy.deepcopy(again) == again
