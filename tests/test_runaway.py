"""Runaway runs (issue 36): the default caps end them with a partial run and say which cap
ended it and how to raise it; `loopstep trace` bounds what it prints and tells progress."""

import shutil
import time
from pathlib import Path

from loopstep.runtime import cli
from loopstep.runtime.recorder import DEFAULT_MAX_STEPS, MAX_OUTPUT_CHARS, record
from loopstep.runtime.trace.wire import pack, unpack

FIXTURE = Path(__file__).parent / "browser" / "fixture_lessons" / "runaway"
FLOOD = [Path(__file__).parent / "browser" / "fixture_lessons"]   # flood/: prints 80 MB


def lessons(tmp_path, extra=""):
    """The runaway fixture lesson in a lessons root of its own, `extra` added to lesson.toml."""
    shutil.copytree(FIXTURE, tmp_path / "runaway")
    toml = tmp_path / "runaway" / "lesson.toml"
    toml.write_text(extra + toml.read_text("utf-8"), "utf-8")
    return [tmp_path]


def test_an_agent_that_always_asks_for_a_tool_stops_at_the_model_call_cap(tmp_path):
    trace = record("runaway", "agent_loop", "always", roots=lessons(tmp_path))
    assert trace["status"] == "step_limit"
    assert trace["limit"] == {"kind": "model_calls", "cap": 100}
    assert trace["message"] == ("stopped at model call 101: the model-call limit is 100; "
                                "raise it with max_model_calls = N in lesson.toml")
    assert len(trace["agent"]["calls"]) == 100
    assert len(trace["steps"]) < DEFAULT_MAX_STEPS   # the partial run, every step of it
    assert trace["steps"][-1]["line"] == 4           # at the 101st call: response = model(...)


def test_a_lesson_sets_its_own_model_call_cap(tmp_path):
    trace = record("runaway", "agent_loop", "always",
                   roots=lessons(tmp_path, "max_model_calls = 3\n"))
    assert trace["limit"] == {"kind": "model_calls", "cap": 3}
    assert len(trace["agent"]["calls"]) == 3 and "limit is 3;" in trace["message"]


def test_a_loop_that_prints_forever_stops_at_the_default_step_cap(tmp_path):
    trace = record("runaway", "chatter", "always", roots=lessons(tmp_path))
    assert DEFAULT_MAX_STEPS == 10_000
    assert trace["limit"] == {"kind": "steps", "cap": DEFAULT_MAX_STEPS}
    assert len(trace["steps"]) == DEFAULT_MAX_STEPS
    assert trace["message"] == (f"stopped after {DEFAULT_MAX_STEPS} steps: the step limit; "
                                "raise it with --max-steps N")


def test_a_run_that_prints_80_mb_stops_at_the_output_cap_steppable():
    started = time.monotonic()
    trace = record("flood", "flood", "normal", roots=FLOOD)
    assert time.monotonic() - started < 10   # stopped early, not after printing 80 MB
    assert MAX_OUTPUT_CHARS == 1_000_000
    assert trace["status"] == "step_limit"
    assert trace["limit"] == {"kind": "output", "cap": MAX_OUTPUT_CHARS}
    assert trace["message"] == "stopped: the output passed 1,000,000 characters, the output limit"
    assert trace["stdout"] == "start\n" + ("x" * 1000 + "\n") * 998 + "x" * 996
    assert len(trace["stdout"]) == MAX_OUTPUT_CHARS
    steps = trace["steps"]
    assert len(steps) == 2 + 2 * 999 < DEFAULT_MAX_STEPS   # every step up to the 999th print
    assert steps[-1]["line"] == 4 and steps[-1]["set"] == {"i": "998"}
    assert steps[-1]["out"] == len("start\n") + 998 * 1001
    assert unpack(pack(trace)) == trace   # the packed form the page reads holds the same


def test_a_setup_that_prints_80_mb_stops_at_the_output_cap():
    """Untraced code (a reader's setup) is capped as well: no step cap would stop it."""
    setup = "for i in range(80_000):\n    print('y' * 1000)\n"
    trace = record("flood", "flood", "custom", roots=FLOOD, setup=setup)
    assert trace["status"] == "step_limit" and trace["steps"] == []
    assert trace["limit"] == {"kind": "output", "cap": MAX_OUTPUT_CHARS}
    assert trace["stdout"] == ("y" * 1000 + "\n") * 999 + "y" and "setup_error" not in trace


def test_output_caught_past_the_cap_still_stops_the_run():
    """A program that catches the stop and prints on gets no more output and no more steps."""
    setup = ("for i in range(2_000):\n    try:\n        print('z' * 1000)\n"
             "    except BaseException:\n        pass\n")
    trace = record("flood", "flood", "custom", roots=FLOOD, setup=setup)
    assert trace["limit"] == {"kind": "output", "cap": MAX_OUTPUT_CHARS}
    assert len(trace["stdout"]) == MAX_OUTPUT_CHARS and trace["steps"] == []


def test_a_finished_run_names_no_cap():
    assert "limit" not in record("s06", "child_tools", "normal")


def test_the_cli_bounds_what_it_prints_and_says_what_it_left_out(tmp_path, capsys):
    root = str(lessons(tmp_path)[0])
    assert cli.main(["trace", "runaway/chatter", "--lessons", root]) == 0
    out = capsys.readouterr().out
    assert len(out) < 400_000
    assert f"… {DEFAULT_MAX_STEPS - cli.MAX_PRINTED_STEPS:,} more steps not printed" in out
    assert "more characters of output not printed (--json prints the whole trace)" in out
    assert f"status: step_limit (stopped after {DEFAULT_MAX_STEPS} steps: the step limit; " \
           "raise it with --max-steps N)" in out


def test_the_cli_names_the_model_call_cap(tmp_path, capsys):
    root = str(lessons(tmp_path)[0])
    assert cli.main(["trace", "runaway/agent_loop", "--lessons", root]) == 0
    assert "status: step_limit (stopped at model call 101: the model-call limit is 100; " \
           "raise it with max_model_calls = N in lesson.toml)" in capsys.readouterr().out


def test_a_recording_longer_than_a_tick_tells_its_progress_on_stderr(monkeypatch, capsys):
    real = cli.record

    def slow(*args, **kwargs):
        time.sleep(0.3)   # a slow recording, as a runaway is
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "record", slow)
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.05)
    assert cli.main(["trace", "s06/child_tools", "--scenario", "normal"]) == 0
    err = capsys.readouterr().err
    assert "loopstep trace: recording s06/child_tools… " in err


def test_a_quick_recording_prints_no_progress(capsys):
    assert cli.main(["trace", "s06/child_tools", "--scenario", "normal"]) == 0
    assert capsys.readouterr().err == ""
