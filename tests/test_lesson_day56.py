"""The bundled lesson s06-day56 (seed 004, the Day56 article), recorded in CPython: what each
preset prints, the article's functions verbatim, and the shared folder across the boundary."""

import ast
import functools
from pathlib import Path

import pytest

from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "runtime" / "lessons" / "s06-day56" / "s06_subagent" / "agent.py"
SEED = ROOT / "tests" / "fixtures" / "seeds" / "004_965babc3361bd830.txt"
PRESETS = ["investigate", "slugify", "dangerous", "one-level", "turn-limit", "no-summary"]
CONCLUSION = ("该项目使用 pytest 作为测试框架。\n测试位于 tests/ 目录，直接运行 python -m pytest 即可。\n"
              "conftest.py 提供了公共 fixtures。")

# what the parent's loop prints about the child, per preset (the `loop` block)
SEEN = {
    "investigate": ["[sub] glob: tests\ntests/test_agent.py", "[sub] bash: tests/test_agent.py::test_loop_stops",
                    f"> task: {CONCLUSION}\n"],
    "slugify": ["[sub] write_file: Wrote 323 bytes to s06_subagent/example/string_tools.py",
                "[sub] bash: (no output)", "> bash: hello-ku-yuan-world-56\n"],
    "dangerous": ["[sub] bash: Permission denied: bash {'command': 'rm -rf /'}"],
    "one-level": ["[sub] task: Unknown tool: task"],
    "turn-limit": ["> task: Subagent stopped after 30 turns without a final answer.\n"],
    "no-summary": ["> task: (no summary)\n"],
}


@functools.cache
def trace(block, preset, fork=None):
    return record("s06-day56", block, preset, fork=None if fork is None else dict(fork))


def test_blocks_and_presets():
    lesson = load_lesson("s06-day56")
    assert [p.name for p in lesson.presets] == PRESETS
    assert all(p.zh and p.en for p in lesson.presets)
    assert {b.id: list(b.presets) for b in lesson.blocks} == {
        "run_subagent": PRESETS, "extract_text": PRESETS, "loop": PRESETS}
    assert lesson.block("loop").symbols == ("run_subagent", "agent_loop")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_block_finishes(preset):
    for block in ("run_subagent", "extract_text", "loop"):
        found = trace(block, preset)
        assert (found["status"], found["error"]) == ("finished", None), found["message"]
    shown = trace("loop", preset)["stdout"]
    for text in SEEN[preset]:
        assert text in shown


def test_turn_limit_runs_thirty_child_turns():
    calls = trace("loop", "turn-limit")["agent"]["calls"]
    conversations = trace("loop", "turn-limit")["agent"]["conversations"]
    assert sum(conversations[c["conversation"]]["depth"] == 1 for c in calls) == 30


def test_the_parent_verifies_what_the_child_wrote_and_a_fork_of_the_write_changes_it():
    tools = trace("loop", "slugify")["agent"]["tools"]
    write = next(i for i, t in enumerate(tools, 1) if t["name"] == "write_file")
    forked = trace("loop", "slugify", (("call", f"tool:{write}"), ("value", "Wrote 0 bytes")))
    assert forked["fork"]["applied"]
    assert "hello-ku-yuan-world-56" not in forked["stdout"]
    assert "> bash: Traceback (most recent call last):" in forked["stdout"]


def _functions():
    text = SOURCE.read_text(encoding="utf-8")
    lines = text.split("\n")
    return text, {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno])
                  for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)}


def test_the_article_functions_are_verbatim():
    seed = SEED.read_text(encoding="utf-8")
    text, functions = _functions()
    for name in ("extract_text", "run_subagent"):
        assert functions[name] in seed
        assert load_lesson("s06-day56").block(name).text == functions[name]
    start = text.index("SUB_TOOLS = list(BASE_TOOLS)")
    assert text[start:text.index("\n\n\ndef extract_text")] in seed
    start = text.index("TASK_TOOL = {")
    assert text[start:text.index("\n\n\n", start)] in seed
    assert text.count("本课自己的部分") == 2     # the parts taken from earlier lessons are marked
