"""Recordings keep what the world could not decide (runtime/world/tape.py,
docs/recordings.md): a run recorded with the real clock and real randomness replays
exactly; without its ``world`` it would not; version 1 files still read and replay."""

import copy

import pytest
import world_lesson

from fake_provider import KEY, FakeProvider
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import format as recording_format
from loopstep.runtime.recording.live import Live
from loopstep.runtime.world import tape

# the program sends what its world drew: the clock, an id, a random number
AGENT = '''import random
import time
import uuid
from datetime import datetime
from anthropic import Anthropic

client = Anthropic()


def main():
    started = time.perf_counter()
    text = f"{time.time()} {datetime.now()} {uuid.uuid4()} {random.random()}"
    reply = client.messages.create(model="m", max_tokens=50,
                                   messages=[{"role": "user", "content": text}])
    time.sleep(0.01)
    print(reply.content[0].text, text, time.perf_counter() - started > 0)
'''
STANDINS = '[standins]\nmodules = ["anthropic"]\nmodel = "reply"\n'
SETUP = "def reply(**request):\n    return 'scripted'\n"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("world_recordings")
    world_lesson.write(root, "real", AGENT, setup=SETUP, entry="main()",
                       extra=STANDINS + '[world]\nreal = ["clock", "random"]\n')
    world_lesson.write(root, "virtual", AGENT, setup=SETUP, entry="main()", extra=STANDINS)
    runs = {}
    for lesson in ("real", "virtual"):
        with FakeProvider(["hello"]) as fake:
            live = Live("anthropic", KEY, (lesson, "main", "normal"), fake.url)
            trace = record(lesson, "main", "normal", roots=[root], live=live)
        assert trace["status"] == "finished", trace["message"]
        recording = recording_format.check(live.recording)
        runs[lesson] = (trace, recording)
    return root, runs


def test_a_recording_holds_the_seed_and_the_clock_readings_in_order(made):
    _, runs = made
    world = runs["virtual"][1]["world"]
    assert runs["virtual"][1]["version"] == recording_format.VERSION >= 2
    assert world["seed"] == 0
    start = 1_767_258_000_000_000
    assert world["clock"] == [["mono", 0], ["wall", start + 1000], ["wall", start + 2000],
                              ["mono", 10_000 + 3000]]
    real = runs["real"][1]["world"]
    assert real["seed"] != 0 and [kind for kind, _ in real["clock"]] == \
        ["mono", "wall", "wall", "mono"]


def test_a_real_world_replays_exactly(made):
    root, runs = made
    trace, recording = runs["real"]
    replayed = record("real", "main", "normal", roots=[root], recording=recording)
    assert replayed["replay"]["divergence"] is None
    assert replayed["stdout"] == trace["stdout"] and replayed["steps"] == trace["steps"]
    again = record("real", "main", "normal", roots=[root], recording=recording)
    assert again["stdout"] == trace["stdout"]


def test_without_its_world_a_real_run_diverges(made):
    root, runs = made
    recording = copy.deepcopy(runs["real"][1])
    del recording["world"]
    replayed = record("real", "main", "normal", roots=[root], recording=recording)
    assert replayed["status"] == "error"
    assert replayed["replay"]["divergence"]["path"] == "messages[0].content"


def test_a_version_1_recording_still_reads_and_replays_in_the_lessons_world(made, tmp_path):
    root, runs = made
    old = copy.deepcopy(runs["virtual"][1])
    del old["world"]
    old["version"] = 1
    path = tmp_path / "old.json"
    path.write_text(recording_format.dumps(old), "utf-8")
    loaded = recording_format.load(path)
    replayed = record("virtual", "main", "normal", roots=[root], recording=loaded)
    assert replayed["replay"]["divergence"] is None
    assert replayed["stdout"] == runs["virtual"][0]["stdout"]


@pytest.mark.parametrize("edit, where", [
    (lambda w: w.update(clock=[["when", 1]]), "$.world.clock[0][0]"),
    (lambda w: w.update(clock=[["wall", -1]]), "$.world.clock[0][1]"),
    (lambda w: w.update(clock=[["wall"]]), "$.world.clock[0]"),
    (lambda w: w.update(seed="7"), "$.world.seed"),
    (lambda w: w.pop("clock"), "$.world"),
])
def test_a_bad_world_is_refused_with_its_json_path(made, edit, where):
    recording = copy.deepcopy(made[1]["virtual"][1])
    edit(recording["world"])
    assert recording_format.problem(recording)[0] == where


def test_a_replay_goes_on_virtually_past_the_recorded_readings():
    kept = tape.Tape({"seed": 3, "clock": [["wall", 5_000_000], ["mono", 7]]})
    assert kept.replayed and kept.replayed_seed == 3
    assert kept.recorded("wall") == 5_000_000 and kept.recorded("wall") is None
    assert not kept.replaying   # a reading of another kind ends the replay of the clock
    cut = tape.Tape()
    for n in range(tape.MAX_READINGS + 1):
        cut.keep("wall", n)
    assert cut.to_dict()["cut"] is True and len(cut.readings) == tape.MAX_READINGS
