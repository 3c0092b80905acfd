"""``loopstep record --input TEXT…`` against the loopback fake provider: the answers feed
the program's ``input()`` instead of the lesson's ``[standins] input``, the recording
keeps them so it replays, and one progress line per call says its number, the
conversation's depth (a subagent's calls are one deeper), the tokens and the seconds."""

import json
import re

from fake_provider import KEY, FakeProvider
from test_recorded_tools import CALLS, LOOP
from loopstep.runtime import cli
from loopstep.runtime.recording import format as recording_format

TOML = '''title.zh = "t"
title.en = "t"
summary.zh = "s"
summary.en = "s"
setup = "ask/setup.py"
modules = ["ask/code.py"]

[standins]
modules = ["anthropic"]
model = "reply"
input = ["the preset's question"]

[[presets]]
name = "normal"
zh = "n"
en = "n"

[[blocks]]
symbol = "agent_loop"
source = "ask/code.py"
entry = """
while True:
    try:
        question = input("> ")
    except EOFError:
        break
    history = [{"role": "user", "content": question}]
    agent_loop(history)
    print("answer:", history[-1]["content"][0].text)
"""

[agent]
tools = ["TOOL_HANDLERS"]
'''
TURNS = [[("tool", "task", {"prompt": "Count notes.txt"})],
         [("tool", "bash", {"command": "wc -l notes.txt"})], "3 lines", "It has 3 lines."]


def _lessons(root):
    folder = root / "ask"
    folder.mkdir(parents=True)
    (folder / "code.py").write_text(LOOP.replace("CALL(block)", CALLS["TOOL_HANDLERS"]))
    (folder / "setup.py").write_text("def reply(messages, **request):\n"
                                     "    return {'content': [{'type': 'text', 'text': 'no'}]}\n")
    (folder / "lesson.toml").write_text(TOML)
    return root


def _record(tmp_path, monkeypatch, *inputs):
    lessons = _lessons(tmp_path / "lessons")
    out = tmp_path / "run.json"
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    args = ["record", "ask/agent_loop", "--scenario", "normal", "--provider", "anthropic",
            "-o", str(out), "--lessons", str(lessons)]
    for text in inputs:
        args += ["--input", text]
    with FakeProvider(TURNS) as fake:
        code = cli.main(args + ["--base-url", fake.url])
    return code, out, lessons, fake


def test_inputs_feed_the_program_and_the_recording_keeps_them(tmp_path, monkeypatch, capsys):
    code, out, lessons, fake = _record(tmp_path, monkeypatch, "How many lines has notes.txt?")
    assert code == 0
    assert fake.requests[0][2]["messages"] == [
        {"role": "user", "content": "How many lines has notes.txt?"}]
    recording = recording_format.load(out)
    assert recording["input"] == ["How many lines has notes.txt?"]
    assert KEY not in out.read_text()
    capsys.readouterr()
    # the replay gives the program the recorded answers, not the preset's
    assert cli.main(["trace", "ask/agent_loop", "--lessons", str(lessons),
                     "--recording", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "answer: It has 3 lines." in shown and "replay: 4 of 4" in shown
    del recording["input"]   # without them the program asks what the preset says
    path = tmp_path / "without.json"
    path.write_text(json.dumps(recording))
    assert cli.main(["trace", "ask/agent_loop", "--lessons", str(lessons),
                     "--recording", str(path)]) == 3
    assert "divergence at model call 1: messages[0].content" in capsys.readouterr().err


def test_without_input_the_lessons_answers_are_used(tmp_path, monkeypatch):
    code, out, _lessons_root, fake = _record(tmp_path, monkeypatch)
    assert code == 0
    assert fake.requests[0][2]["messages"][0]["content"] == "the preset's question"
    assert "input" not in recording_format.load(out)


def test_progress_lines_say_the_call_its_depth_tokens_and_seconds(tmp_path, monkeypatch,
                                                                   capsys):
    code, _out, _lessons_root, _fake = _record(tmp_path, monkeypatch, "How many lines?")
    assert code == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("call ")]
    pattern = re.compile(r"call (\d+): depth (\d+), (\d+) messages, (\d+) in / (\d+) out "
                         r"tokens, \d+\.\d\d s$")
    found = [pattern.match(line) for line in lines]
    assert all(found), lines
    assert [(m[1], m[2], m[3]) for m in found] == [
        ("1", "0", "1"), ("2", "1", "1"), ("3", "1", "3"), ("4", "0", "3")]
    assert [(m[4], m[5]) for m in found] == [("10", "5"), ("20", "5"), ("30", "5"), ("40", "5")]
