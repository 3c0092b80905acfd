"""A tolerant replay of a recording of threads (runtime/recording/replay.py,
interleave.py): like the strict replay it answers in the recorded interleaving and holds a
teammate's call past the recording in flight; each call gets the recorded call at its
place in its conversation, and a difference is marked, not a stop. The recording is
tests/test_in_flight.py's team (a lead and alice)."""

import copy
import json

import pytest

from loopstep.runtime.recorder import record
from loopstep.runtime.recording import learn_claude_code
from test_in_flight import CWD, MATE, capture, recording, write


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    root = tmp_path_factory.mktemp("tolerant_threads")
    write(root)
    edited = tmp_path_factory.mktemp("tolerant_threads_edited")
    write(edited)
    agent = edited / "team" / "agent.py"   # the reader's edit: alice's system prompt
    agent.write_text(agent.read_text().replace('system=f"You are {name}."',
                                               'system=f"You are {name}, careful."'))
    return root, edited


def swapped():
    """The team's run with alice's first answer arriving before the lead's second (both
    began after the lead's first): the other order than the default schedule gives."""
    found = capture()
    found["cycles"][1], found["cycles"][2] = found["cycles"][2], found["cycles"][1]
    return learn_claude_code.convert(json.loads(json.dumps(found)), "s09.json", CWD)


def edited():
    """The team's recording with alice's first request another (the page's Python replays
    it too: tests/test_threads_pyodide.py)."""
    found = recording()
    found["calls"][2]["request"]["system"] = "You are alice, careful."
    return found


def replayed(root, recorded, **options):
    trace = record("team", "agent_loop", "normal", roots=[root], recording=recorded, **options)
    assert trace["status"] == "finished", trace.get("message")
    return trace


def answered(trace):
    """Each call's conversation (0: the lead, 1: alice) and the step its answer came."""
    return [(c["conversation"], c["ret"]) for c in trace["agent"]["calls"]]


def test_an_edited_teammate_replays_tolerantly_in_the_recorded_order(lessons):
    root, edited = lessons
    strict = replayed(root, recording())
    result = replayed(edited, recording(), tolerant=True)
    assert result["stdout"].endswith("answer: alice is on it\n")
    replay = result["replay"]
    assert replay["tolerant"] and replay["differs"] == 1 and replay["divergence"] is None
    assert [c.get("differs") for c in result["agent"]["calls"]] == [None, None, "system", None,
                                                                     None]
    # the calls in the recorded order, answered where the strict replay answers them
    assert [c for c, _ in answered(result)] == [0, 0, 1, 0, 0]
    assert answered(result) == answered(strict)
    # alice's second call, past the recording, is held in flight (no divergence)
    assert replay["made"] == replay["calls"] == 5
    assert replay["note"] == f"1 model call still in flight when the recording ended ({MATE})"
    assert [(c["thread"], c["conversation"]) for c in result["agent"]["in_flight"]] == \
        [(MATE, 1)]


def test_a_tolerant_replay_follows_a_recording_in_the_other_order(lessons):
    root, _ = lessons
    first, other = replayed(root, recording(), tolerant=True), replayed(root, swapped(),
                                                                         tolerant=True)
    (_, lead), (_, alice) = answered(first)[1:3]
    assert alice > lead             # the lead's second answer came first
    (_, lead), (_, alice) = answered(other)[1:3]
    assert alice <= lead            # alice's came first: her answer is no longer held
    assert answered(other) == answered(replayed(root, swapped()))
    assert other["replay"]["differs"] == 0 and len(other["agent"]["in_flight"]) == 1


def test_a_call_by_another_thread_than_recorded_is_marked_not_stopped(lessons):
    root, _ = lessons
    named = recording()
    for call in named["calls"]:
        call["thread"] = "MainThread"   # alice's call too: the caller differs
    strict = record("team", "agent_loop", "normal", roots=[root], recording=copy.deepcopy(named))
    assert strict["status"] == "error" and "divergence at model call 3: thread" in \
        strict["message"]
    result = replayed(root, named, tolerant=True)
    assert [c.get("differs") for c in result["agent"]["calls"]] == [None, None, "thread", None,
                                                                     None]
    assert result["replay"]["differs"] == 1


def test_an_edited_recording_differs_where_the_edited_agent_does(lessons):
    root, _ = lessons
    result = replayed(root, edited(), tolerant=True)
    assert [c.get("differs") for c in result["agent"]["calls"]] == [None, None, "system", None,
                                                                     None]
    assert answered(result) == answered(replayed(root, recording()))
    assert len(result["agent"]["in_flight"]) == 1
