"""The workspace panel and the boundary's shared side (contract: "Workspace") on the s06-day56
lesson, in real Chromium: the child's file created at depth 1, the jump to its write and its
content at the cursor, the folder following the cursor back and forth, the gate's decisions
of both levels, a fork of the child's write changing the parent's printed output, and every
block × preset printing in the page what `loopstep trace` prints. Steps come from the same
runs recorded here in CPython."""
from __future__ import annotations

import functools
import json

import pytest
from playwright.sync_api import expect

from axe_audit import assert_no_violations_in_schemes
from page_helpers import (BOOT_TIMEOUT, choose_option, press, run_to_end, select_scenario, shown_output,
                          slide_to, wait_ready)
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record
from tests.cli_batch import batch

LESSON = "s06-day56"
WRITTEN = "s06_subagent/example/string_tools.py"


def open_block(page, server_url, site_kind, block_id="loop"):
    page.goto(server_url + f"/lessons/{LESSON}" + ("/" if site_kind == "export" else ""))
    b = page.locator(f'[data-loopstep-block="{LESSON}/{block_id}"]')
    wait_ready(b)
    return b


def activate(button):
    button.focus()
    button.page.keyboard.press("Enter")


@pytest.mark.smoke
def test_the_childs_file_is_created_at_depth_one_with_a_working_jump_and_view(page, server_url, site_kind):
    trace = record(LESSON, "loop", "slugify")
    write = next(t for t in trace["agent"]["tools"] if t["name"] == "write_file")
    b = open_block(page, server_url, site_kind)
    select_scenario(b, "slugify")
    run_to_end(b)
    folder = b.locator('[data-role="workspace"]')
    row = folder.locator(f'[data-file="{WRITTEN}"]')
    expect(row).to_have_attribute("data-state", "created", timeout=BOOT_TIMEOUT)
    expect(row).to_have_attribute("data-depth", "1")
    expect(folder.locator('[data-file="pyproject.toml"]')).to_have_attribute("data-state", "unchanged")
    expect(folder.locator('[data-file="pyproject.toml"]')).not_to_have_attribute("data-depth", "1")
    activate(row.locator('button[data-action="file-origin"]'))
    timeline = b.locator('input[data-role="timeline"]')
    expect(timeline).to_have_value(str(write["step"]))
    expect(b).to_have_attribute("data-state", "paused")
    expect(row.locator('button[data-action="file-origin"]')).to_be_focused()
    mark = b.locator('[data-role="timeline-marks"] [data-mark="tool"][data-tool="write_file"]')
    expect(mark).to_have_attribute("data-step", str(write["step"]))
    activate(row.locator('button[data-action="open-file"]'))
    view = b.locator('[data-role="file-view"]')
    expect(view).to_be_visible()
    expect(view).to_contain_text('PINYIN = {"苦": "ku", "猿": "yuan"}')
    press(b, "step-back")                                  # before the write: no such file
    expect(timeline).to_have_value(str(write["step"] - 1))
    expect(row).to_have_count(0)
    expect(view).to_be_hidden()
    slide_to(timeline, trace["agent"]["tools"][-1]["step"])   # forwards again: there it is
    expect(folder.locator(f'[data-file="{WRITTEN}"]')).to_have_attribute("data-state", "created")


def test_the_boundary_shows_the_shared_file_and_the_gates_decisions(page, server_url, site_kind):
    trace = record(LESSON, "loop", "slugify")
    child_last = trace["agent"]["calls"][3]                    # the child's final answer
    b = open_block(page, server_url, site_kind)
    select_scenario(b, "slugify")
    run_to_end(b)
    slide_to(b.locator('input[data-role="timeline"]'), child_last["ret"])
    boundary = b.locator('[data-role="conversation"] [data-role="boundary"]')
    expect(boundary).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(boundary.locator(f'[data-role="shared"] [data-file="{WRITTEN}"]')) \
        .to_have_attribute("data-state", "created")
    child = boundary.locator('[data-side="child"] [data-role="gate"] [data-decision]')
    expect(child).to_have_count(2)
    expect(child.nth(0)).to_have_attribute("data-tool", "write_file")
    expect(child.nth(1)).to_have_attribute("data-tool", "bash")
    expect(child.nth(1)).to_have_attribute("data-depth", "1")
    parent = boundary.locator('[data-side="parent"] [data-role="gate"] [data-decision="allow"]')
    expect(parent).to_have_attribute("data-tool", "task")
    expect(parent).to_have_attribute("data-depth", "0")


def test_dangerous_shows_the_gates_deny_for_bash(page, server_url, site_kind):
    trace = record(LESSON, "loop", "dangerous")
    b = open_block(page, server_url, site_kind)
    select_scenario(b, "dangerous")
    run_to_end(b)
    slide_to(b.locator('input[data-role="timeline"]'), trace["agent"]["calls"][2]["ret"])
    gate = b.locator('[data-role="boundary"] [data-role="gate"]')
    expect(gate.locator('[data-decision="deny"][data-tool="bash"]')).to_have_count(1, timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="boundary"] [data-role="shared"] [data-file]')).to_have_count(0)
    expect(b.locator('[data-role="workspace"] [data-state="created"]')).to_have_count(0)


def test_a_fork_of_the_childs_write_changes_the_parents_output(page, server_url, site_kind):
    trace = record(LESSON, "loop", "slugify")
    b = open_block(page, server_url, site_kind)
    select_scenario(b, "slugify")
    run_to_end(b)
    slide_to(b.locator('input[data-role="timeline"]'), trace["agent"]["calls"][2]["ret"])
    result = '[data-part][data-kind="tool_result"]'
    button = b.locator(f'{result} button[data-action="fork"][data-call="tool:2"]')
    expect(button).to_be_visible(timeout=BOOT_TIMEOUT)
    activate(button)
    text_box = b.locator('[data-role="fork-editor"] [data-role="fork-text"]')
    expect(text_box).to_be_focused(timeout=BOOT_TIMEOUT)
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type('"Wrote 0 bytes"')
    page.keyboard.press("Shift+Control+End")
    page.keyboard.press("Delete")
    press(b.locator('[data-role="fork-editor"]'), "run-fork")
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    forked = record(LESSON, "loop", "slugify", fork={"call": "tool:2", "value": "Wrote 0 bytes"})
    expect(comparison.locator('[data-role="output-a"]')).to_have_text(shown_output(trace["stdout"]))
    expect(comparison.locator('[data-role="output-b"]')).to_have_text(shown_output(forked["stdout"]))
    expect(comparison.locator('[data-role="output-a"]')).to_contain_text("> bash: hello-ku-yuan-world-56")
    expect(comparison.locator('[data-role="output-b"]')).not_to_contain_text("hello-ku-yuan-world-56")
    expect(comparison.locator('[data-role="output-b"]')).to_contain_text("ModuleNotFoundError")
    expect(comparison.locator(f'[data-role="workspace-a"] [data-file="{WRITTEN}"]')).to_have_count(1)
    expect(comparison.locator(f'[data-role="workspace-b"] [data-file="{WRITTEN}"]')).to_have_count(0)


def test_two_presets_side_by_side_show_each_whole_output_and_folder(page, server_url, site_kind):
    b = open_block(page, server_url, site_kind)
    select_scenario(b, "slugify")
    run_to_end(b)
    choose_option(b.locator('select[data-role="compare"]'), "dangerous")
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    expect(comparison.locator('[data-role="output-a"]')).to_have_text(
        shown_output(record(LESSON, "loop", "slugify")["stdout"]))
    expect(comparison.locator('[data-role="output-b"]')).to_have_text(
        shown_output(record(LESSON, "loop", "dangerous")["stdout"]))
    expect(comparison.locator(f'[data-role="workspace-a"] [data-file="{WRITTEN}"]')) \
        .to_have_attribute("data-state", "created")
    expect(comparison.locator('[data-role="workspace-b"] [data-state="created"]')).to_have_count(0)
    expect(comparison.locator('[data-role="workspace-b"] [data-file="pyproject.toml"]')).to_have_count(1)


def test_the_workspace_with_a_file_open_and_the_boundary_pass_the_audit(page, server_url, site_kind):
    trace = record(LESSON, "loop", "dangerous")
    b = open_block(page, server_url, site_kind)
    select_scenario(b, "dangerous")
    run_to_end(b)
    slide_to(b.locator('input[data-role="timeline"]'), trace["agent"]["calls"][2]["ret"])
    activate(b.locator('[data-role="workspace"] [data-file="pyproject.toml"] button[data-action="open-file"]'))
    expect(b.locator('[data-role="file-view"]')).to_contain_text('name = "mini-agent"')
    expect(b.locator('[data-role="boundary"] [data-decision="deny"]')).to_be_visible()
    assert_no_violations_in_schemes(
        page, "workspace and boundary",
        within=[f'[data-loopstep-block="{LESSON}/loop"] {part}'
                for part in (".workspace-pane", '[data-role="boundary"]')])


RUNS = [(b.id, p) for b in load_lesson(LESSON).blocks for p in b.presets]


@functools.cache
def _cli_stdouts():
    """What `loopstep trace --json` prints for each run (its `stdout`): all made at once, in
    one fresh process (tests/cli_batch.py)."""
    results = batch([["trace", f"{LESSON}/{blk}", "--scenario", p, "--json"] for blk, p in RUNS])
    return {run: json.loads(result["stdout"])["stdout"] for run, result in zip(RUNS, results)}


@pytest.mark.parametrize("block_id", sorted({b for b, _ in RUNS}))
def test_every_preset_prints_in_the_page_what_loopstep_trace_prints(page, server_url, site_kind, block_id):
    b = open_block(page, server_url, site_kind, block_id)
    for preset in [p for blk, p in RUNS if blk == block_id]:
        select_scenario(b, preset)
        run_to_end(b)
        expect(b).to_have_attribute("data-state", "finished")
        expect(b.locator('[data-role="output"]')).to_have_text(shown_output(_cli_stdouts()[block_id, preset]))
