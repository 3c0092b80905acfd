"""Forks (contract: "Conversation origins, forks and events"): the answer of one model call
or tool call edited as JSON and run; the fork's run shown against the original, in real
Chromium, served or exported. The expected divergence comes from the runs recorded here in
CPython (the same steps as the page's Python records for these blocks)."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from axe_audit import assert_no_violations_in_schemes

from page_helpers import (BOOT_TIMEOUT, block, link_fragment, open_lesson, press, run_from_link,
                          run_to_end, select_scenario, slide_to, wait_ready)
from loopstep.runtime.catalog.lessons import CUSTOM, load_lesson
from loopstep.runtime.recorder import record

CHANGED = '{"stop_reason": "end_turn", "content": [{"type": "text", "text": "改答"}]}'


def divergence(a: dict, b: dict) -> int:
    key = lambda s: (s["depth"], s["line"], s["event"])  # noqa: E731
    k = 0
    while k < len(a["steps"]) and k < len(b["steps"]) and key(a["steps"][k]) == key(b["steps"][k]):
        k += 1
    return k


def editor_text(b) -> str:
    return "\n".join(b.locator('[data-role="fork-text"] .cm-line').all_text_contents())


def open_fork(b, call: str, where: str):
    button = b.locator(f'{where} button[data-action="fork"][data-call="{call}"]').first
    expect(button).to_be_visible(timeout=BOOT_TIMEOUT)
    button.focus()
    b.page.keyboard.press("Enter")
    editor = b.locator('[data-role="fork-editor"]')
    expect(editor).to_be_visible()
    text = editor.locator('[data-role="fork-text"]')
    expect(text).to_be_focused(timeout=BOOT_TIMEOUT)
    return editor, text


def type_fork(b, text_box, text: str) -> None:
    """Replace the editor's whole text by typing `text` (the editor closes brackets as
    they are typed, and steps over a closing one typed after)."""
    text_box.focus()
    b.page.keyboard.press("Control+a")
    b.page.keyboard.press("Delete")
    b.page.keyboard.type(text)
    b.page.keyboard.press("Shift+Control+End")   # brackets it closed that `text` leaves open
    b.page.keyboard.press("Delete")
    expect(text_box).to_have_text(text)


def s06_at_model_call_2_returned(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    run_to_end(b)
    original = record("s06", "run_subagent", "normal")
    slide_to(b.locator('input[data-role="timeline"]'), original["agent"]["calls"][1]["ret"])
    expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 3")
    return b, original


def test_a_model_call_forked_runs_against_the_original_and_travels_in_the_url(
        page, server_url, site_kind):
    b, original = s06_at_model_call_2_returned(page, server_url, site_kind)
    editor, text_box = open_fork(b, "model:2", '[data-role="response"]')
    recorded = json.loads(editor_text(b))
    assert recorded["stop_reason"] == "tool_use"
    assert recorded["content"][0]["type"] == "tool_use"
    requests = []
    page.on("request", lambda r: requests.append(r.url + (r.post_data or "")))
    type_fork(b, text_box, CHANGED)
    press(editor, "run-fork")

    forked = record("s06", "run_subagent", "normal",
                    fork={"call": "model:2", "value": json.loads(CHANGED)})
    assert len(forked["agent"]["calls"]) == 2
    assert forked["result"] != original["result"]
    k = divergence(original, forked)
    assert original["agent"]["calls"][1]["step"] < k <= original["agent"]["calls"][1]["ret"] + 1

    def check_comparison():
        comparison = b.locator('[data-role="comparison"]')
        expect(comparison.locator(".comparison-title")).to_contain_text("分叉 model:2",
                                                                          timeout=BOOT_TIMEOUT)
        marker = comparison.locator('[data-role="divergence"]')
        expect(marker).to_have_attribute("data-step-a", str(k))
        expect(marker).to_have_attribute("data-step-b", str(k))
        expect(b.locator('[data-role="fork-error"]')).to_be_hidden()

    check_comparison()
    assert not any("改答" in r or "%E6%94%B9" in r for r in requests)   # never to the server
    expect(page).to_have_url(re.compile(r"[#&]fork=model%3A2~"), timeout=BOOT_TIMEOUT)

    page.reload()
    editor = b.locator('[data-role="fork-editor"]')
    link_code = b.locator('[data-role="link-code"]')
    expect(link_code).to_contain_text("model:2", timeout=BOOT_TIMEOUT)
    expect(link_code).to_contain_text("改答")
    expect(editor).to_be_hidden()                  # shown, not run: nothing compared yet
    expect(b.locator('[data-role="comparison"]')).to_be_hidden()
    run_from_link(b)
    expect(editor).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(editor.locator('[data-role="fork-text"]')).to_have_text(CHANGED, timeout=BOOT_TIMEOUT)
    check_comparison()


def test_invalid_json_is_reported_and_nothing_is_lost(page, server_url, site_kind):
    b, _ = s06_at_model_call_2_returned(page, server_url, site_kind)
    editor, text_box = open_fork(b, "model:2", '[data-role="response"]')
    broken = '{"content": [{"type": "text", "text": "半'
    type_fork(b, text_box, broken + "]")
    press(editor, "run-fork")
    error = b.locator('[data-role="fork-error"]')
    expect(error).to_be_visible()
    expect(error).to_contain_text("JSON")
    expect(text_box).to_have_text(broken + "]")            # the editor keeps the text
    expect(b.locator('[data-role="comparison"]')).to_be_hidden()
    expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 3")   # the run still shown
    type_fork(b, text_box, '[{"type": "text", "text": "x"}]')
    press(editor, "run-fork")
    expect(error).to_contain_text("JSON 对象")                # a list where an object is used
    expect(b.locator('[data-role="comparison"]')).to_be_hidden()


def test_the_fork_editor_with_an_error_passes_the_audit(page, server_url, site_kind):
    b, _ = s06_at_model_call_2_returned(page, server_url, site_kind)
    editor, text_box = open_fork(b, "model:2", '[data-role="response"]')
    type_fork(b, text_box, "[1]")
    press(editor, "run-fork")
    expect(b.locator('[data-role="fork-error"]')).to_be_visible()
    assert_no_violations_in_schemes(
        page, "fork editor with an error, conversation with fork buttons",
        within=[f'[data-loopstep-block="s06/run_subagent"] [data-role="{part}"]'
                for part in ("fork-editor", "conversation")])


def test_a_tool_result_forked(page, server_url, site_kind):
    path = "/lessons/agent-whole" + ("/" if site_kind == "export" else "")
    page.goto(server_url + path)
    b = page.locator('[data-loopstep-block="agent-whole/agent_loop"]')
    wait_ready(b)
    select_scenario(b, "reads")
    run_to_end(b)
    result = '[data-part][data-kind="tool_result"]'
    expect(b.locator(f"{result} button[data-action=fork]")).to_have_attribute("data-call", "tool:1")
    editor, text_box = open_fork(b, "tool:1", result)
    assert "pytest>=8.0" in json.loads(editor_text(b))
    type_fork(b, text_box, '"pytest==1.0"')
    press(editor, "run-fork")
    original = record("agent-whole", "agent_loop", "reads")
    forked = record("agent-whole", "agent_loop", "reads", fork={"call": "tool:1", "value": "pytest==1.0"})
    assert forked["agent"]["tools"][0]["result"] == "pytest==1.0"
    # the same statements, other values: the comparison says the paths are the same
    assert divergence(original, forked) == len(original["steps"]) == len(forked["steps"])
    assert forked["steps"] != original["steps"]
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison.locator(".comparison-title")).to_contain_text("分叉 tool:1",
                                                                      timeout=BOOT_TIMEOUT)
    expect(comparison.locator(".comparison-same")).to_be_visible()
    expect(b.locator('[data-role="fork-error"]')).to_be_hidden()


@pytest.mark.parametrize("call", ["tool:1", "model:1"])
def test_a_fork_run_unchanged_reproduces_the_run(page, server_url, site_kind, call):
    # s06's tool stub returns {"result": …, "warnings": […]}: the editor starts from that
    # whole value, not from the result's text the panel shows
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    run_to_end(b)
    where = '[data-part][data-kind="tool_result"]' if call.startswith("tool") else \
        '[data-role="response"]'
    if call == "model:1":
        slide_to(b.locator('input[data-role="timeline"]'),
                 record("s06", "run_subagent", "normal")["agent"]["calls"][0]["ret"])
        expect(b.locator('[data-role="status"]')).to_contain_text("第 1 / 3")
    editor, _ = open_fork(b, call, where)
    value = json.loads(editor_text(b))
    if call == "tool:1":
        assert value["result"]["content"] == "print(6 * 7)" and value["warnings"] == []
    press(editor, "run-fork")
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison.locator(".comparison-title")).to_contain_text(f"分叉 {call}",
                                                                      timeout=BOOT_TIMEOUT)
    expect(comparison.locator(".comparison-same")).to_be_visible()
    expect(comparison.locator('[data-role="divergence"]')).to_have_count(0)
    expect(b.locator('[data-role="fork-error"]')).to_be_hidden()
    # the editor's value, run here, gives the very same trace: steps, output and result
    original = record("s06", "run_subagent", "normal")
    forked = record("s06", "run_subagent", "normal", fork={"call": call, "value": value})
    assert forked["fork"]["applied"]
    assert {k: v for k, v in forked.items() if k != "fork"} == original


def test_a_tool_value_the_code_cannot_use_shows_the_runs_error(page, server_url, site_kind):
    # s06's tool stub returns {"result": …, "warnings": […]}: a fork answering the
    # result's text alone fails in the lesson's code
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    run_to_end(b)
    result = '[data-part][data-kind="tool_result"]'
    editor, text_box = open_fork(b, "tool:1", result)
    type_fork(b, text_box, '"print(6 * 7)"')
    press(editor, "run-fork")
    error = b.locator('[data-role="fork-error"]')
    expect(error).to_contain_text("TypeError: string indices must be integers", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="comparison"] .comparison-title')).to_contain_text("分叉 tool:1")
    expect(text_box).to_have_text('"print(6 * 7)"')


def run_changed_fork(b):
    editor, text_box = open_fork(b, "model:2", '[data-role="response"]')
    type_fork(b, text_box, CHANGED)
    press(editor, "run-fork")
    expect(b.locator('[data-role="comparison"] .comparison-title')).to_contain_text(
        "分叉 model:2", timeout=BOOT_TIMEOUT)
    expect(b.page).to_have_url(re.compile(r"[#&]fork=model%3A2~"), timeout=BOOT_TIMEOUT)
    return editor


def expect_fork_dropped(b, editor):
    expect(editor).to_be_hidden()
    expect(b.locator('[data-role="comparison"]')).to_be_hidden()
    expect(b.page).not_to_have_url(re.compile(r"fork="))


def test_a_scenario_switch_and_reset_drop_the_fork(page, server_url, site_kind):
    b, _ = s06_at_model_call_2_returned(page, server_url, site_kind)
    editor = run_changed_fork(b)
    select_scenario(b, "limit")
    expect_fork_dropped(b, editor)
    expect(page).to_have_url(re.compile(r"[#&]s=limit"))

    select_scenario(b, "normal")
    run_to_end(b)
    slide_to(b.locator('input[data-role="timeline"]'),
             record("s06", "run_subagent", "normal")["agent"]["calls"][1]["ret"])
    editor = run_changed_fork(b)
    press(b, "reset")
    expect_fork_dropped(b, editor)
    page.reload()
    wait_ready(b)
    expect(b.locator('[data-role="fork-editor"]')).to_have_count(0)


def test_a_tool_value_cut_when_recorded_is_said_and_not_run_unchanged(
        page, server_url, site_kind):
    # the tool stub returns a warning longer than a recorded text may be
    setup = load_lesson("s06").setup_text("normal")
    assert setup.count('"warnings":[]') == 1
    setup = setup.replace('"warnings":[]', '"warnings":["长" * 3000]')
    open_lesson(page, server_url, site_kind,
                hash=f"#b=run_subagent&s=custom&custom={link_fragment(setup)}")
    b = block(page, "run_subagent")
    run_from_link(b)
    expect(b).to_have_attribute("data-scenario", "custom", timeout=BOOT_TIMEOUT)
    run_to_end(b)
    editor, text_box = open_fork(b, "tool:1", '[data-part][data-kind="tool_result"]')
    error = b.locator('[data-role="fork-error"]')
    expect(error).to_contain_text("tool:1 的返回值记录时被截断")
    tool = record("s06", "run_subagent", CUSTOM, setup=setup)["agent"]["tools"][0]
    assert tool["cut"] and tool["returned"]["warnings"][0].endswith("…")
    value = tool["returned"]
    expect(text_box).to_contain_text('"tool_use_id": "child_0"')
    press(editor, "run-fork")                       # unchanged: not run
    expect(error).to_contain_text("截断")
    expect(b.locator('[data-role="comparison"]')).to_be_hidden()
    expect(page).not_to_have_url(re.compile(r"fork="))
    value["warnings"] = []                         # edited: it runs
    type_fork(b, text_box, json.dumps(value, ensure_ascii=False))
    press(editor, "run-fork")
    expect(b.locator('[data-role="comparison"] .comparison-title')).to_contain_text(
        "分叉 tool:1", timeout=BOOT_TIMEOUT)
    expect(error).to_be_hidden()
