"""Recordings (runtime/recording, docs/recordings.md) in CPython: ``loopstep record``
against the loopback fake provider (tests/fake_provider.py), replay through the
unmodified lesson, every divergence, the importer on traces written here, ``check`` and a
fork past the recording. No test reaches the network."""

import copy
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from fake_provider import KEY, FakeProvider
from sdk_programs import OPENAI_LOOP
from loopstep.runtime import cli
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import format as recording_format
from loopstep.runtime.recording import schema
from loopstep.runtime.browser import worker
from loopstep.runtime.recording.live import Live
from loopstep.runtime.recording.replay import NoAnswer, Replay

REPO = Path(__file__).parent.parent
READS = [[("thinking", "Read it."), ("tool", "read_file", {"path": "requirements.txt"})],
         "It uses pytest."]
DELEGATES = [[("tool", "task", {"prompt": "Read requirements.txt."})],
             [("tool", "bash", {"command": "cat requirements.txt"})],
             "pytest>=8.0", "The project uses pytest."]


def _record(provider_turns, tmp_path, monkeypatch, *extra, target="agent-whole/agent_loop",
            scenario="reads", provider="anthropic", lessons=None):
    out = tmp_path / "run.json"
    env = "ANTHROPIC_API_KEY" if provider == "anthropic" else "OPENAI_API_KEY"
    monkeypatch.setenv(env, KEY)
    with FakeProvider(provider_turns) as fake:
        base = fake.url if provider == "anthropic" else fake.url + "/v1"
        args = ["record", target, "--scenario", scenario, "--provider", provider,
                "--base-url", base, "-o", str(out), *extra]
        for root in lessons or ():
            args += ["--lessons", str(root)]
        code = cli.main(args)
    return code, out, fake


def test_record_then_replay_through_the_unmodified_lesson(tmp_path, monkeypatch, capsys):
    code, out, fake = _record(READS, tmp_path, monkeypatch)
    assert code == 0
    err = capsys.readouterr().err
    assert "call 1:" in err and "call 2:" in err and "Traceback" not in err
    recording = recording_format.load(out)
    assert recording["made_for"] == {"lesson": "agent-whole", "block": "agent_loop",
                                     "preset": "reads"}
    assert [len(c["request"]["messages"]) for c in recording["calls"]] == [1, 3]
    assert recording["cwd"] == "/tmp/loopstep-run"
    assert "/tmp/loopstep-run." in recording["calls"][0]["request"]["system"]
    assert recording["calls"][0]["tools"][0]["name"] == "read_file"
    # the replay: the same steps, output and answers as the run that was recorded
    assert cli.main(["trace", "agent-whole/agent_loop", "--scenario", "reads",
                     "--recording", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "replay: 2 of 2 recorded model calls (anthropic, claude-sonnet-4-5)" in shown
    assert "回答： It uses pytest." in shown
    replayed = record("agent-whole", "agent_loop", "reads", recording=recording)
    with FakeProvider(READS) as again:
        live = Live("anthropic", KEY, ("agent-whole", "agent_loop", "reads"), again.url)
        live_trace = record("agent-whole", "agent_loop", "reads", live=live)
    for key in ("steps", "stdout", "status"):
        assert replayed[key] == live_trace[key], key
    assert replayed["agent"]["messages"] == live_trace["agent"]["messages"]
    thinking = replayed["agent"]["messages"][replayed["agent"]["calls"][0]["response"]]
    assert thinking[1][0][0] == "thinking" and "Read it." in thinking[1][0][1]


def test_model_is_replaced_on_the_wire_only(tmp_path, monkeypatch):
    code, out, fake = _record(READS, tmp_path, monkeypatch, "--model", "wire-model")
    assert code == 0 and {body["model"] for _, _, body in fake.requests} == {"wire-model"}
    recording = recording_format.load(out)
    assert recording["model"] == "wire-model"
    assert {c["request"]["model"] for c in recording["calls"]} == {"claude-sonnet-4-5"}


def test_the_key_is_never_written(tmp_path, monkeypatch):
    code, out, _ = _record(DELEGATES, tmp_path, monkeypatch, scenario="delegates")
    assert code == 0
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written == [out]
    for path in written:
        assert KEY not in path.read_text(encoding="utf-8")
    assert "sk-test" not in out.read_text(encoding="utf-8")




def _openai_lesson(root):
    folder = root / "oa"
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(OPENAI_LOOP)
    (folder / "setup.py").write_text("def reply(**request):\n    return 'scripted'\n")
    (folder / "lesson.toml").write_text(
        'title.zh = "t"\ntitle.en = "t"\nsummary.zh = "s"\nsummary.en = "s"\n'
        'setup = "oa/setup.py"\nmodules = ["oa/main.py"]\n'
        '[[presets]]\nname = "normal"\nzh = "n"\nen = "n"\n'
        '[[blocks]]\nsymbol = "main"\nsource = "oa/main.py"\n'
        'entry = "print(main(\'what is here?\'))"\n'
        '[standins]\nmodules = ["openai"]\nmodel = "reply"\n'
        'files = { "a.txt" = "", "b.txt" = "" }\n')
    return root


def test_openai_record_then_replay(tmp_path, monkeypatch, capsys):
    root = _openai_lesson(tmp_path / "lessons")
    turns = [[("tool", "ls", {"path": "."})], "two files"]
    code, out, fake = _record(turns, tmp_path, monkeypatch, target="oa/main",
                              scenario="normal", provider="openai", lessons=[root])
    assert code == 0, capsys.readouterr().err
    assert fake.requests[0][0] == "/v1/chat/completions"
    recording = recording_format.load(out)
    assert recording["provider"] == "openai" and len(recording["calls"]) == 2
    trace = record("oa", "main", "normal", roots=[root], recording=recording)
    assert trace["status"] == "finished" and trace["stdout"] == "two files\n"
    assert trace["replay"]["divergence"] is None and trace["replay"]["made"] == 2


@pytest.mark.parametrize("status,shown", [(401, "HTTP 401: invalid x-api-key"),
                                          (429, "HTTP 429: fake failure 429"),
                                          (500, "HTTP 500: fake failure 500")])
def test_a_provider_error_is_one_line_exit_2_and_writes_nothing(tmp_path, monkeypatch, capsys,
                                                                 status, shown):
    out = tmp_path / "run.json"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong" if status == 401 else KEY)
    with FakeProvider(fail=None if status == 401 else (status, f"fake failure {status}")) as fake:
        code = cli.main(["record", "agent-whole/agent_loop", "--scenario", "reads",
                         "--provider", "anthropic", "--base-url", fake.url, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists() and list(tmp_path.iterdir()) == []
    assert err.strip().splitlines() == [f"loopstep record: {shown}"]


def test_a_missing_key_and_an_unreachable_provider_are_one_line(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run.json"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert cli.main(["record", "agent-whole/agent_loop", "--scenario", "reads", "--provider",
                     "openai", "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == "loopstep record: OPENAI_API_KEY is not set"
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    with FakeProvider() as fake:
        dead = fake.url
    assert cli.main(["record", "agent-whole/agent_loop", "--scenario", "reads", "--provider",
                     "anthropic", "--base-url", dead, "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("loopstep record: cannot reach http://127.0.0.1:")
    assert not out.exists()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    with FakeProvider(DELEGATES) as fake:
        live = Live("anthropic", KEY, ("agent-whole", "agent_loop", "delegates"), fake.url)
        record("agent-whole", "agent_loop", "delegates", live=live)
    return live.recording


def _diverge(recording, edit):
    changed = copy.deepcopy(recording)
    edit(changed)
    return record("agent-whole", "agent_loop", "delegates", recording=changed)


@pytest.mark.parametrize("edit,call,path", [
    (lambda r: r["calls"][0]["request"].update(system="You are edited."), 1, "system"),
    (lambda r: r["calls"][0]["request"].update(model="other"), 1, "model"),
    (lambda r: r["calls"][1]["request"]["tools"][1].update(name="list"), 2, "tools[1].name"),
    (lambda r: r["calls"][1]["request"]["messages"][0].update(content="x"), 2,
     "messages[0].content"),
    (lambda r: r["calls"][3]["request"]["messages"][2]["content"][0].update(content="x"), 4,
     "messages[2].content[0].content"),
    (lambda r: r["calls"].pop(), 4, "(beyond the recording)"),
])
def test_every_divergence_stops_the_run_at_its_call_and_path(recorded, edit, call, path):
    trace = _diverge(recorded, edit)
    assert trace["status"] == "error"
    assert trace["message"] == f"divergence at model call {call}: {path}"
    divergence = trace["replay"]["divergence"]
    assert (divergence["call"], divergence["path"]) == (call, path)
    assert len(trace["agent"]["calls"]) == call


def test_the_cli_prints_a_divergence_and_exits_3(recorded, tmp_path, capsys):
    changed = copy.deepcopy(recorded)
    changed["calls"][0]["request"]["system"] = "You are edited."
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(changed))
    assert cli.main(["trace", "agent-whole/agent_loop", "--scenario", "delegates",
                     "--recording", str(path)]) == 3
    err = capsys.readouterr().err
    assert "divergence at model call 1: system" in err
    assert '"You are edited."' in err and "You are a coding agent at" in err


def test_fewer_calls_than_recorded_finish_with_a_note(recorded):
    longer = copy.deepcopy(recorded)
    longer["calls"].append(copy.deepcopy(longer["calls"][-1]))
    trace = record("agent-whole", "agent_loop", "delegates", recording=longer)
    assert trace["status"] == "finished"
    assert trace["replay"]["note"] == "the run made 4 of the 5 recorded model calls"


def test_the_runs_folder_reads_as_the_recordings_cwd(recorded):
    moved = json.loads(json.dumps(recorded).replace("/tmp/loopstep-run", "/home/ann/proj"))
    moved["cwd"] = "/home/ann/proj"
    moved["made_for"]["block"] = None   # any block of the lesson
    trace = record("agent-whole", "whole", "delegates", recording=moved)
    assert trace["status"] == "finished", trace["message"]
    shown = json.dumps(trace["steps"], ensure_ascii=False)
    assert "WORKDIR" in shown and "PosixPath('/home/ann/proj')" in shown
    assert "You are a coding agent at /home/ann/proj." in shown
    assert "loopstep-run" not in shown


def test_a_fork_past_the_recording_answers_from_the_setup(recorded):
    fork = {"call": "model:1", "value": {"content": [{"type": "text", "text": "No."}]}}
    trace = record("agent-whole", "agent_loop", "delegates", recording=recorded, fork=fork)
    assert trace["fork"]["applied"] and trace["status"] == "finished"
    assert trace["stdout"].endswith("回答： No.\n")
    fork = {"call": "model:2", "value": {"content": [{"type": "text", "text": "Done."}]}}
    trace = record("agent-whole", "agent_loop", "delegates", recording=recorded, fork=fork)
    assert trace["status"] == "finished"   # calls 3 and 4: the setup's reply function
    assert len(trace["agent"]["calls"]) == 3


def test_past_the_recording_without_a_model_function_the_run_stops(recorded):
    replay = Replay(recorded)
    first = recorded["calls"][0]["request"]
    assert replay.answer("anthropic", first, forked=True) is None
    with pytest.raises(NoAnswer, match="no answer for model call 2: forked past the recording"):
        replay.answer("anthropic", first, has_reply=False)


def test_the_validator_and_the_shipped_schema_agree_with_jsonschema(recorded):
    assert schema.SCHEMA == schema.schema_file()
    jsonschema.Draft202012Validator.check_schema(schema.SCHEMA)
    good = copy.deepcopy(recorded)
    bad = []
    for edit in (lambda r: r.pop("cwd"), lambda r: r.update(provider="x"),
                 lambda r: r["calls"][1].update(seconds=-1),
                 lambda r: r["calls"][0]["tools"].append({"name": "a", "output": ""}),
                 lambda r: r["made_for"].update(extra=1), lambda r: r.update(version=4),
                 lambda r: r.update(world={"seed": 0, "clock": [["wall", 1, 2]]}),
                 lambda r: r.update(world={"seed": 0, "clock": [["tick", 1]]})):
        value = copy.deepcopy(good)
        edit(value)
        bad.append(value)
    validator = jsonschema.Draft202012Validator(schema.SCHEMA)
    assert validator.is_valid(good) and recording_format.problem(good) is None
    for value in bad:
        assert not validator.is_valid(value)
        assert recording_format.problem(value) is not None


def test_a_bad_file_names_its_path_the_json_path_and_the_reason(recorded, tmp_path, capsys):
    value = copy.deepcopy(recorded)
    value["calls"][1]["seconds"] = "slow"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(value))
    assert cli.main(["trace", "agent-whole/agent_loop", "--scenario", "delegates",
                     "--recording", str(path)]) == 2
    assert capsys.readouterr().err.strip() == \
        f'loopstep trace: {path}: $.calls[1].seconds: must be number, not "slow"'
    path.write_text('{"cycles": []}')
    assert cli.main(["trace", "agent-whole/agent_loop", "--recording", str(path)]) == 2
    assert "$.format: not a loopstep recording" in capsys.readouterr().err


def _nested(recording, depth):
    """``recording`` whose first response's first content part nests ``depth`` lists more."""
    text = json.dumps(recording)
    at = text.index('"content": [', text.index('"response"')) + len('"content": [')
    return text[:at] + "[" * depth + "]" * depth + ", " + text[at:]


def test_a_recording_nested_100000_deep_is_refused_before_it_is_parsed(recorded, tmp_path,
                                                                        capsys):
    text = _nested(recorded, 100_000)
    deep = "$.calls[0].response.content[0]" + "[0]" * (recording_format.MAX_DEPTH - 5)
    with pytest.raises(recording_format.RecordingError) as refused:
        recording_format.loads(text, "deep.json")
    assert str(refused.value) == (f"deep.json: nested too deeply at {deep} (more than "
                                  f"{recording_format.MAX_DEPTH} levels of arrays and objects)")
    # the page's worker says the same, in one line, and nothing ran out of stack
    assert worker.recording_problem(text, "deep.json", "agent-whole", "agent_loop",
                                    [str(REPO / "runtime" / "lessons"), str(REPO / "stubs")]) \
        == str(refused.value)
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert cli.main(["trace", "agent-whole/agent_loop", "--scenario", "delegates",
                     "--recording", str(path)]) == 2
    assert f"nested too deeply at {deep} (more than" in capsys.readouterr().err


def test_a_recording_nested_up_to_the_cap_is_read(recorded):
    depth = recording_format.MAX_DEPTH - 5   # the document, calls, a call, response, content
    assert recording_format.too_deep(_nested(recorded, depth)) is None
    assert recording_format.too_deep(_nested(recorded, depth + 1)) is not None
    assert recording_format.loads(_nested(recorded, depth))["calls"][0]["response"]["content"][0]


@pytest.mark.parametrize("text, path", [
    ('{"a": "[[[[' + "[" * 100 + '"}', None),                 # brackets in a string count not
    ('{"k\\"": ' + "[" * 70 + "]" * 70 + "}", '$["k\\""]' + "[0]" * 63),
    ('[1, 2, {"b": ' + "{}" * 3 + "[" * 70, "$[2].b" + "[0]" * 62),
    ('{"' + "x" * 100 + '": ' + "[" * 70, '$["' + "x" * 39 + '…"]' + "[0]" * 63),
])
def test_the_json_path_where_nesting_passes_the_cap(text, path):
    assert recording_format.too_deep(text) == path


def _lessons_with_a_recording(root, recording):
    shutil.copytree(REPO / "stubs" / "agent-whole", root / "agent-whole")
    shutil.copy(REPO / "runtime" / "lessons" / "agent-whole" / "agent.py",
                root / "agent-whole" / "agent.py")
    (root / "agent-whole" / "real.json").write_text(json.dumps(recording))
    toml = root / "agent-whole" / "lesson.toml"
    text = toml.read_text().replace(
        'name = "delegates"\n', 'name = "delegates"\nrecording = "agent-whole/real.json"\n')
    # the recorded preset covers the blocks whose runs make these calls
    text = text.replace('presets = ["delegates", "turn_limit"]', 'presets = ["turn_limit"]')
    toml.write_text(text.replace('presets = ["delegates", "dangerous"]', 'presets = ["dangerous"]'))
    return root


def test_a_preset_answers_from_its_recording_and_check_names_a_stale_one(recorded, tmp_path,
                                                                          capsys):
    root = _lessons_with_a_recording(tmp_path / "lessons", recorded)
    trace = record("agent-whole", "loop", "delegates", roots=[root])
    assert trace["replay"]["made"] == 4 and trace["status"] == "finished"
    assert "The project uses pytest." in trace["stdout"]
    assert cli.main(["check", "--lessons", str(root)]) == 0
    assert "checked 3 recorded runs: 0 stale" in capsys.readouterr().out
    agent = root / "agent-whole" / "agent.py"
    agent.write_text(agent.read_text().replace("Use the task tool", "Use the task tool now"))
    assert cli.main(["check", "--lessons", str(root)]) == 3
    out = capsys.readouterr().out
    assert "stale: agent-whole/real.json (agent-whole/agent_loop, preset delegates): " \
           "divergence at model call 1: system" in out


def test_the_quick_comparison_never_says_equal_where_the_normal_forms_differ():
    from loopstep.runtime.recording.normal import canonical, normal, quick_text, request_body
    from loopstep.runtime.standins.anthropic import TextBlock
    block = TextBlock(text="hi")   # citations None: left out of the normal form
    request = {"model": "m", "messages": [{"role": "assistant", "content": [block]}],
               "timeout": 5}
    recorded = {"model": "m", "messages": [{"role": "assistant", "content": [
        {"text": "hi", "type": "text", "citations": None}]}]}
    assert quick_text(request) == canonical(normal(recorded))
    assert request_body(request) == normal(recorded)
    request["messages"].append({"role": "user", "content": None})   # kept by quick_text
    assert quick_text(request) != canonical(normal(recorded))
