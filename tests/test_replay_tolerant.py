"""Strict and tolerant replays (runtime/recording/replay.py): a strict replay stops at the
first difference; a tolerant one (``loopstep trace --tolerant``) goes on, each call
answered by the recorded call at its place in its conversation and each difference
marked on its call; the arrays of the tools' JSON Schemas whose order means nothing
compare as sets in every replay."""

import copy
import json

import pytest

from lcc_agents import LS, captured, imported, write_lesson
from loopstep.runtime import cli
from loopstep.runtime.browser import worker
from loopstep.runtime.recorder import record
from loopstep.runtime.recording.replay import Divergence, Replay, threads


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    root = tmp_path_factory.mktemp("tolerant")
    write_lesson(root, "kwargs_lambdas")
    edited = root / write_lesson(root, "edited", like="kwargs_lambdas")
    agent = edited / "agent.py"   # the reader's edit: another system prompt
    agent.write_text(agent.read_text().replace("You are a coding agent", "You are a careful agent"))
    return root


def test_a_strict_replay_of_an_edited_agent_stops_and_a_tolerant_one_goes_on(lessons):
    strict = record("edited", "agent_loop", "normal", roots=[lessons], recording=imported())
    assert strict["status"] == "error" and strict["message"] == "divergence at model call 1: system"
    assert strict["replay"]["tolerant"] is False
    result = record("edited", "agent_loop", "normal", roots=[lessons], recording=imported(),
                    tolerant=True)
    assert result["status"] == "finished", result["message"]
    assert result["stdout"] == "answer: notes.txt, 3 lines.\n"
    assert result["replay"]["tolerant"] is True and result["replay"]["differs"] == 3
    assert result["replay"]["divergence"] is None
    assert [call.get("differs") for call in result["agent"]["calls"]] == ["system"] * 3
    assert all(tool["recorded"] for tool in result["agent"]["tools"])


def test_a_tolerant_replay_of_an_unchanged_agent_marks_nothing(lessons):
    result = record("kwargs_lambdas", "agent_loop", "normal", roots=[lessons],
                    recording=imported(), tolerant=True)
    assert result["status"] == "finished" and result["replay"]["differs"] == 0
    assert not any("differs" in call for call in result["agent"]["calls"])


def test_a_tolerant_replay_answers_an_unpaired_tool_call_by_order_and_marks_it(lessons):
    recording = imported(captured(ls_input={"command": "ls"}))
    result = record("kwargs_lambdas", "agent_loop", "normal", roots=[lessons],
                    recording=recording, tolerant=True)
    assert result["status"] == "finished", result["message"]
    bash = result["agent"]["tools"][0]
    assert bash["recorded"] and bash["result"] == LS and bash["differs"] == "tool:bash"


def test_the_cli_replays_tolerantly_when_asked(lessons, tmp_path, capsys):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(imported()))
    args = ["trace", "edited/agent_loop", "--lessons", str(lessons), "--recording", str(path)]
    assert cli.main(args) == 3
    assert "divergence at model call 1: system" in capsys.readouterr().err
    assert cli.main([*args, "--tolerant"]) == 0
    out = capsys.readouterr().out
    assert ("replayed tolerantly: 3 calls differ from the recording: model call 1 (system), "
            "model call 2 (system), model call 3 (system)") in out
    assert "answer: notes.txt, 3 lines." in out
    assert cli.main(["trace", "edited/agent_loop", "--lessons", str(lessons), "--tolerant"]) == 2
    assert "answers from no recording" in capsys.readouterr().err


@pytest.mark.parametrize("requests, found", [
    ([["p"], ["c"], ["c", "a", "r"], ["p", "a", "r"]], [[1, 4], [2, 3]]),
    ([["p"], ["p", "a", "r"], ["p", "a", "r", "a", "r"]], [[1, 2, 3]]),
    ([["p"], ["q"], ["p"]], [[1], [2], [3]]),   # the same start again: a new conversation
])
def test_the_conversations_of_a_recording(requests, found):
    assert threads(requests) == found


def _schemas(required, kinds, enum):
    tools = copy.deepcopy(captured()["cycles"][0]["request"]["tools"])
    schema = tools[1]["input_schema"]
    schema["required"] = required
    schema["properties"]["limit"]["type"] = kinds
    schema["properties"]["mode"] = {"enum": enum, "items": {"type": kinds}}
    return tools


@pytest.mark.parametrize("tolerant", [False, True])
@pytest.mark.parametrize("required, kinds, enum, path", [
    (["limit", "path"], ["null", "integer"], ["b", "a"], None),     # the same sets
    (["path"], ["integer", "null"], ["a", "b"], "tools[1].input_schema.required[0]"),
    (["path", "limit"], ["integer"], ["a", "b"], "tools[1].input_schema.properties.limit.type[1]"),
])
def test_schema_arrays_whose_order_means_nothing_compare_as_sets(tolerant, required, kinds, enum,
                                                                 path):
    recording = imported(captured(tools=_schemas(["path", "limit"], ["integer", "null"],
                                                  ["a", "b"])))
    request = copy.deepcopy(recording["calls"][0]["request"])
    request["tools"] = _schemas(required, kinds, enum)
    replay = Replay(recording, tolerant=tolerant)
    if path is None or tolerant:
        assert replay.answer("anthropic", request) == recording["calls"][0]["response"]
        assert replay.differs == ({} if path is None else {1: path})
    else:
        with pytest.raises(Divergence) as stopped:
            replay.answer("anthropic", request)
        assert stopped.value.path == path


def test_a_tolerant_replay_stops_beyond_the_recorded_conversations():
    recording = imported()
    replay = Replay(recording, tolerant=True)
    first = recording["calls"][0]["request"]
    assert replay.answer("anthropic", copy.deepcopy(first)) == recording["calls"][0]["response"]
    with pytest.raises(Divergence) as stopped:   # the same start again: a second conversation
        replay.answer("anthropic", copy.deepcopy(first))
    assert stopped.value.path == "(beyond the recording)" and stopped.value.call == 2


def test_the_page_s_python_replays_tolerantly_when_asked(lessons):
    text = json.dumps(imported())
    for tolerant, status in ((False, "error"), (True, "finished")):
        packed = json.loads(worker.record("edited", "agent_loop", "normal", [str(lessons)], 0,
                                          recording=text, tolerant=tolerant))
        assert packed["status"] == status and packed["replay"]["tolerant"] is tolerant
