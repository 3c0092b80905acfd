"""A recording without its clock readings (an imported run, a version 1 file) replays a
program whose requests carry the times it read — a transcript named after
``int(time.time())``, a ``datetime.now().isoformat()`` stamp — by giving each of those
readings back as the recorded time (runtime/recording/calibrate.py), in CPython and in
the page's Python."""

import copy

import pytest
import world_lesson

from fake_provider import KEY, FakeProvider
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import format as recording_format
from loopstep.runtime.recording.live import Live
from pyodide_node import record_in_pyodide

AGENT = '''import time
from datetime import datetime
from anthropic import Anthropic

client = Anthropic()


def main():
    messages = [{"role": "user", "content": "compact the history"}]
    reply = client.messages.create(model="m", max_tokens=50, messages=messages)
    name = f"transcript_{int(time.time())}.jsonl"
    messages += [{"role": "assistant", "content": reply.content[0].text},
                 {"role": "user", "content": f"[transcript saved: {name}]"}]
    reply = client.messages.create(model="m", max_tokens=50, messages=messages)
    time.sleep(2)
    stamp = datetime.now().isoformat()
    messages += [{"role": "assistant", "content": reply.content[0].text},
                 {"role": "user", "content": f"created_at {stamp}"}]
    reply = client.messages.create(model="m", max_tokens=50, messages=messages)
    print(name, stamp, reply.content[0].text)
'''
STANDINS = '[standins]\nmodules = ["anthropic"]\nmodel = "reply"\n'
SETUP = "def reply(**request):\n    return 'scripted'\n"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The lesson (virtual clock) and a recording of it made with the real clock, its
    world taken out as an imported run has none."""
    root = tmp_path_factory.mktemp("replay_clock")
    world_lesson.write(root, "stamps", AGENT, setup=SETUP, entry="main()", extra=STANDINS)
    world_lesson.write(root, "realstamps", AGENT, setup=SETUP, entry="main()",
                       extra=STANDINS + '[world]\nreal = ["clock"]\n')
    with FakeProvider(["saving", "noted", "done"]) as fake:
        live = Live("anthropic", KEY, ("realstamps", "main", "normal"), fake.url)
        trace = record("realstamps", "main", "normal", roots=[root], live=live)
    assert trace["status"] == "finished", trace["message"]
    recording = copy.deepcopy(recording_format.check(live.recording))
    del recording["world"]
    recording["made_for"]["lesson"] = "stamps"
    return root, trace, recording


def test_the_times_read_are_given_back_as_recorded(made):
    root, real, recording = made
    replayed = record("stamps", "main", "normal", roots=[root], recording=recording)
    assert replayed["replay"]["divergence"] is None, replayed["message"]
    assert replayed["status"] == "finished"
    assert replayed["stdout"] == real["stdout"]
    assert replayed["replay"]["clock_fixes"] == 2


def test_a_difference_that_is_no_time_still_diverges(made):
    root, _, recording = made
    edited = copy.deepcopy(recording)
    edited["calls"][1]["request"]["messages"][0]["content"] = "compact the history now"
    replayed = record("stamps", "main", "normal", roots=[root], recording=edited)
    assert replayed["status"] == "error"
    assert replayed["replay"]["divergence"]["path"] == "messages[0].content"


def test_the_pages_python_gives_them_back_too(made, tmp_path):
    root, real, recording = made
    files = {str(p.relative_to(root)): str(p) for p in root.rglob("*") if p.is_file()}
    done = record_in_pyodide(tmp_path, files, [{"lesson": "stamps", "block": "main",
                                                "scenario": "normal", "recording": recording}])
    (page,) = done["traces"]
    assert page["replay"]["divergence"] is None, page["message"]
    assert page["stdout"] == real["stdout"]


def _course_lessons(tmp_path):
    """tests/course/c06-compact twice: as it is, and as c06-real with the real clock."""
    import shutil
    from pathlib import Path
    course = Path(__file__).parent / "course" / "c06-compact"
    root = tmp_path / "lessons"
    shutil.copytree(course, root / "c06-compact")
    shutil.copytree(course, root / "c06-real")
    toml = root / "c06-real" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8").replace("c06-compact/", "c06-real/")
                    + '\n[world]\nreal = ["clock"]\n', "utf-8")
    return root


COMPACTION = [[("tool", "bash", {"command": "seq -s ' ' 1 1500"})],
              "Asked: why the build is slow. Left: cache the downloads.",
              [("tool", "bash", {"command": "wc -l .transcripts/*.jsonl"})],
              "Compacted once; next: cache the dependency download."]


def test_an_imported_compaction_run_replays_on_the_lesson(tmp_path):
    """The same run as a published course run is kept (learn-claude-code's per-cycle
    format, made on the author's machine in /home/ann/proj, no clock readings), imported
    with `loopstep import` and replayed through the unmodified lesson."""
    import json
    from loopstep.runtime import cli
    from loopstep.runtime.recording.live import add_tool_executions
    from test_import_lcc import lcc_trace
    root = _course_lessons(tmp_path)
    with FakeProvider(COMPACTION) as fake:
        live = Live("anthropic", KEY, ("c06-real", "agent_loop", "auto"), fake.url,
                    cwd="/home/ann/proj")
        real = record("c06-real", "agent_loop", "auto", roots=[root], live=live)
    assert real["status"] == "finished", real["message"]
    add_tool_executions(live.recording)
    text = json.dumps(live.recording).replace("/tmp/loopstep-run", "/home/ann/proj")
    source, out = tmp_path / "s06.json", tmp_path / "s06.recording.json"
    source.write_text(json.dumps(lcc_trace(json.loads(text))), "utf-8")
    assert cli.main(["import", "learn-claude-code", str(source), "--cwd", "/home/ann/proj",
                     "-o", str(out)]) == 0
    recording = recording_format.load(out)
    recording["made_for"] = {"lesson": "c06-compact", "block": "agent_loop", "preset": "auto"}
    replayed = record("c06-compact", "agent_loop", "auto", roots=[root], recording=recording)
    assert replayed["replay"]["divergence"] is None, replayed["message"]
    # the run's folder shows as the recording's (docs/recordings.md)
    assert replayed["stdout"] == real["stdout"].replace("/tmp/loopstep-run", "/home/ann/proj")
    assert replayed["replay"]["clock_fixes"] >= 1


def test_a_compaction_run_made_at_another_time_replays(tmp_path):
    """The course-style compaction lesson (tests/course/c06-compact), recorded with the
    real clock against a provider on loopback, its world taken out: the transcript's name
    (``int(time.time())``) in the requests after the compaction is given back, and the
    summary request (the history's text, SDK objects' reprs included) matches."""
    root = _course_lessons(tmp_path)
    turns = COMPACTION
    with FakeProvider(turns) as fake:
        live = Live("anthropic", KEY, ("c06-real", "agent_loop", "auto"), fake.url)
        real = record("c06-real", "agent_loop", "auto", roots=[root], live=live)
    assert real["status"] == "finished", real["message"]
    assert "transcript_1767258000" not in real["stdout"]   # the real clock's name
    recording = copy.deepcopy(recording_format.check(live.recording))
    del recording["world"]
    recording["made_for"]["lesson"] = "c06-compact"
    replayed = record("c06-compact", "agent_loop", "auto", roots=[root], recording=recording)
    assert replayed["replay"]["divergence"] is None, replayed["message"]
    assert replayed["stdout"] == real["stdout"]
    assert replayed["replay"]["clock_fixes"] >= 1
