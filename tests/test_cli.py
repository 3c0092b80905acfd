"""``loopstep trace`` (loopstep.runtime.cli.main) in CPython."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from loopstep.runtime import cli

REPO = Path(__file__).parent.parent


def test_readable(capsys):
    assert cli.main(["trace", "s06/run_subagent", "--scenario", "limit"]) == 0
    out = capsys.readouterr().out
    assert "run_subagent#1: outcome = run_loop(" in out
    assert "outcome = {'status': 'call_limit'" in out
    assert out.rstrip().endswith("完成： call_limit")


def test_break_prints_only_hits(capsys):
    assert cli.main(["trace", "s06/child_tools", "--break", "7"]) == 0
    steps = [line for line in capsys.readouterr().out.splitlines() if " L" in line[:25]]
    assert steps and all(" L7 " in line for line in steps)


def test_json(capsys):
    assert cli.main(["trace", "s06/task_result", "--scenario", "long", "--json",
                     "--max-steps", "5"]) == 0
    trace = json.loads(capsys.readouterr().out)
    assert trace["status"] == "step_limit" and len(trace["steps"]) == 5


def test_unknown_block(capsys):
    assert cli.main(["trace", "s06/nope"]) == 2
    assert capsys.readouterr().err == ("loopstep trace: lesson s06 has no block 'nope' "
                                       "(its blocks: child_tools, run_subagent, task_result)\n")


@pytest.mark.parametrize("argv,said", [
    (["nope/x"], "loopstep trace: no lesson 'nope' among the bundled lessons (agent-whole, "
                 "lcc-s06, s01, s06, s06-day56, s06-recursive, s08-background, s09-team) — a "
                 "lesson of your own? add --lessons DIR, "
                 "the folder holding the lesson's folder\n"),
    (["s06/run_subagent", "--scenario", "nope"],
     "loopstep trace: block s06/run_subagent has no preset 'nope' (its presets: normal, "
     "missing, limit, forbidden, invalid)\n"),
    (["s06"], "loopstep trace: expected LESSON/BLOCK: name a block of s06 (child_tools, "
              "run_subagent, task_result)\n"),
    (["s06/run_subagent", "--setup", "/no/such/setup.py"],
     "loopstep trace: /no/such/setup.py: No such file or directory\n"),
])
def test_errors_list_the_choices_without_python_reprs(capsys, argv, said):
    """Issue 36: an unknown lesson, block or preset lists the valid ones; no stray quotes."""
    assert cli.main(["trace", *argv]) == 2
    assert capsys.readouterr().err == said


def test_an_unknown_lesson_under_lessons_lists_that_folder_and_no_hint(tmp_path, capsys):
    assert cli.main(["trace", "x/f", "--lessons", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"loopstep trace: no lesson 'x' among the lessons in {tmp_path} (none)\n"


def test_without_scenario_the_blocks_first_preset_runs_and_is_named(capsys):
    assert cli.main(["trace", "s01/run_loop", "--max-steps", "3"]) == 0
    captured = capsys.readouterr()
    assert "· answered ·" in captured.out
    assert captured.err == ("loopstep trace: scenario answered (the block's first preset; its "
                            "presets: answered, call_limit, model_error, protocol_error, "
                            "model_stopped; choose one with --scenario)\n")


def test_module_entry_point():
    done = subprocess.run([sys.executable, "-m", "loopstep.runtime.cli", "trace", "s06/child_tools"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "只读工具已选出" in done.stdout


def test_render():
    assert cli.render(["dict", 3, ["'a'", ["list", 2, "1"]]]) == "{'a': [1, …], …}"
    assert cli.render(["str", "'ab'", 9]) == "'ab…'"   # the rest: tests/test_value_text.py


def test_setup_file_runs_the_custom_scenario(tmp_path, capsys):
    from loopstep.runtime.catalog.lessons import load_lesson
    text = load_lesson("s06").setup_text("normal")
    path = tmp_path / "setup.py"
    path.write_text(text.replace("if index<2:", "if index<9:"), "utf-8")
    assert cli.main(["trace", "s06/run_subagent", "--setup", str(path)]) == 0
    out = capsys.readouterr().out
    assert "· custom ·" in out and out.rstrip().endswith("完成： call_limit")
    path.write_text(text.replace("if index<2:", "if index<2"), "utf-8")
    assert cli.main(["trace", "s06/run_subagent", "--setup", str(path)]) == 0
    line = text.split("\n").index("    if index<2:") + 1
    assert f"setup error: SyntaxError: expected ':' (setup line {line})" in capsys.readouterr().out
    assert cli.main(["trace", "s06/run_subagent", "--setup", str(tmp_path / "none.py")]) == 2
    assert "none.py" in capsys.readouterr().err


def test_a_symbols_block_by_id_prints_file_lines(capsys):
    fixture = str(REPO / "tests" / "browser" / "fixture_lessons")
    assert cli.main(["trace", "symbols/outer", "--lessons", fixture, "--break", "8"]) == 0
    steps = [line for line in capsys.readouterr().out.splitlines() if " L" in line[:25]]
    assert len(steps) == 2
    assert all(" L8 " in line and "inner#" in line and line.endswith(": log.append(note)")
               for line in steps)
