"""Agent views in real Chromium: the conversation panel, the model and tool marks, the
previous / next model call buttons and keys, the "model call K of N" status.

The facts come from the lessons' scripted models (see tests/agent_facts.py for the
same facts on the recorded traces)."""
import re

from playwright.sync_api import expect

try:
    from . import axe_audit
    from .page_helpers import (BOOT_TIMEOUT, action, block, open_lesson, press, run_to_end,
                               select_scenario, toggle_breakpoint, wait_ready)
except ImportError:
    import axe_audit
    from page_helpers import (BOOT_TIMEOUT, action, block, open_lesson, press, run_to_end,
                              select_scenario, toggle_breakpoint, wait_ready)

TASK = "读取 main.py，说明源码推导；不要运行。"


def marks(b, kind):
    return b.locator(f'[data-role="timeline-marks"] [data-mark="{kind}"]')


def conversation(b):
    return b.locator('[data-role="conversation"]')


def messages(b):
    return conversation(b).locator("[data-message]")


def timeline_value(b) -> int:
    return int(b.locator('input[data-role="timeline"]').input_value())


def mark_steps(b, kind="model"):
    return [int(s) for s in marks(b, kind).evaluate_all("ms => ms.map(m => m.dataset.step)")]


def debug_at_start(b):
    """Pause at line 3 of the block (its first statement, before any model call)."""
    wait_ready(b)
    toggle_breakpoint(b, 3)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)


def go_to_call(b, number):
    """From a cursor before the first call: next-call `number` times."""
    for _ in range(number):
        press(b, "next-call")
    expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {number} / ")


def test_s06_normal_third_call_shows_five_messages_two_new_then_the_answer(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    debug_at_start(b)
    expect(marks(b, "model")).to_have_count(3)
    expect(marks(b, "tool")).to_have_count(2)
    assert marks(b, "tool").evaluate_all("ms => ms.map(m => m.dataset.tool)") == ["read_file"] * 2
    expect(conversation(b)).to_be_hidden()           # before the first model call
    go_to_call(b, 3)
    expect(b.locator('[data-role="status"]')).to_contain_text("第 3 / 3 次模型调用")
    expect(conversation(b)).to_have_attribute("data-depth", "0")
    expect(messages(b)).to_have_count(5)
    authors = messages(b).evaluate_all("ms => ms.map(m => m.dataset.author)")
    assert authors == ["user", "assistant", "user", "assistant", "user"]
    expect(messages(b).nth(0).locator('[data-part][data-kind="text"]')).to_have_text(TASK)
    uses = conversation(b).locator('[data-message] [data-part][data-kind="tool_use"]')
    expect(uses).to_have_count(2)
    expect(uses.nth(0)).to_have_attribute("data-tool", "read_file")
    expect(uses.nth(0)).to_contain_text('"path": "main.py"')
    expect(uses.nth(1)).to_contain_text('"path": "expected.txt"')
    results = conversation(b).locator('[data-message] [data-part][data-kind="tool_result"]')
    expect(results.nth(0)).to_have_attribute("data-tool-id", uses.nth(0).get_attribute("data-tool-id"))
    expect(results.nth(0)).to_contain_text("print(6 * 7)")
    expect(results.nth(1)).to_contain_text("42")
    expect(results.nth(1)).not_to_have_attribute("data-error", "true")
    new = messages(b).evaluate_all("ms => ms.map(m => m.dataset.new === 'true')")
    assert new == [False, False, False, True, True]
    expect(conversation(b).locator('[data-role="response"]')).to_have_count(0)   # not returned yet
    press(b, "step-over")
    response = conversation(b).locator('[data-role="response"]')
    expect(response).to_have_attribute("data-stop-reason", "end_turn")
    expect(response.locator('[data-part][data-kind="text"]')).to_have_text("源码推导42；尚未运行。")


def test_next_and_previous_call_move_to_the_marks_and_step_back_shows_the_previous_call(
        page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    debug_at_start(b)
    expect(marks(b, "model")).to_have_count(3)
    steps = mark_steps(b)
    assert steps == sorted(steps) and len(set(steps)) == 3
    expect(action(b, "prev-call")).to_be_disabled()
    for step in steps:
        press(b, "next-call")
        expect(b.locator('input[data-role="timeline"]')).to_have_value(str(step))
    expect(action(b, "next-call")).to_be_disabled()
    expect(messages(b)).to_have_count(5)
    press(b, "step-back")                     # one step before the 3rd call: the 2nd call's view
    expect(messages(b)).to_have_count(3)
    expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 3 次模型调用")
    press(b, "prev-call")
    expect(b.locator('input[data-role="timeline"]')).to_have_value(str(steps[1]))
    # the keys: [ previous, ] next
    page.keyboard.press("[")
    expect(b.locator('input[data-role="timeline"]')).to_have_value(str(steps[0]))
    expect(messages(b)).to_have_count(1)
    page.keyboard.press("]")
    expect(b.locator('input[data-role="timeline"]')).to_have_value(str(steps[1]))
    # a mark moves the cursor to its step
    marks(b, "model").nth(2).click()
    expect(b.locator('input[data-role="timeline"]')).to_have_value(str(steps[2]))


def test_forbidden_limit_missing_invalid(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    select_scenario(b, "forbidden")
    run_to_end(b)
    press(b, "prev-call")                      # from the end: the last call
    result = conversation(b).locator('[data-part][data-kind="tool_result"]')
    expect(result).to_have_count(1)
    expect(result).to_have_attribute("data-error", "true")
    expect(result).to_contain_text("未执行：未注册工具。")
    expect(conversation(b).locator('[data-part][data-kind="tool_use"]')).to_have_attribute(
        "data-tool", "run_main")
    expect(marks(b, "tool")).to_have_attribute("data-tool", "run_main")
    select_scenario(b, "limit")
    run_to_end(b)
    expect(marks(b, "model")).to_have_count(1)
    expect(marks(b, "tool")).to_have_count(1)
    for scenario in ("missing", "invalid"):
        select_scenario(b, scenario)
        run_to_end(b)                          # the displayed function raised its ValueError
        expect(b.locator('[data-role="status"]')).to_contain_text("ValueError")
        expect(conversation(b)).to_have_count(0)
        expect(b.locator('[data-role="timeline-marks"]')).to_have_count(0)
        expect(action(b, "next-call")).to_have_count(0)


def test_blocks_without_model_calls_have_no_agent_views(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    wait_ready(b)
    toggle_breakpoint(b, 4)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused")
    expect(b.locator('[data-role="status"]')).to_have_text(re.compile(r"^已暂停 第 \d+ 行$"))
    run_b = block(page, "run_subagent")
    run_to_end(run_b)                           # a block with calls loads the agent views
    expect(marks(run_b, "model")).to_have_count(3)
    for other in ("child_tools", "task_result"):
        o = block(page, other)
        expect(o.locator('[data-role="conversation"]')).to_have_count(0)
        expect(o.locator('[data-role="timeline-marks"]')).to_have_count(0)
        expect(o.locator('button[data-action="next-call"]')).to_have_count(0)
        expect(o.locator(".conversation-pane")).to_have_count(0)


def test_english_names_of_marks(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind, lang="en")
    b = block(page, "run_subagent")
    wait_ready(b)
    run_to_end(b)
    expect(marks(b, "model").nth(1)).to_have_accessible_name("model call 2")
    expect(marks(b, "tool").nth(0)).to_have_accessible_name("tool read_file")
    press(b, "prev-call")
    expect(b.locator('[data-role="status"]')).to_have_text(re.compile(r"model call 3 of 3$"))
    expect(action(b, "prev-call")).to_have_accessible_name("Previous model call")


AGENT_PARTS = ['[data-role="conversation"]', '[data-role="timeline-marks"]',
               'button[data-action="prev-call"]', 'button[data-action="next-call"]']


def test_agent_views_pass_the_axe_audit(page, server_url, site_kind):
    """The agent views alone (the rest of the page has its own audit), with an error card,
    new messages and the answer shown, in both colour schemes."""
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    select_scenario(b, "forbidden")
    run_to_end(b)
    press(b, "prev-call")
    press(b, "step-over")
    expect(conversation(b).locator('[data-role="response"]')).to_be_visible()
    expect(conversation(b).locator('[data-error="true"]')).to_be_visible()
    axe_audit.assert_no_violations_in_schemes(page, "agent views", within=AGENT_PARTS)


def test_call_keys_are_text_in_a_text_field(page, server_url, site_kind):
    """`[` and `]` move between model calls, but not while the reader types."""
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    debug_at_start(b)
    expect(marks(b, "model")).to_have_count(3)
    at = b.locator('input[data-role="timeline"]').input_value()
    page.evaluate("""() => { const t = document.createElement('textarea');
        t.id = 'typing'; document.body.append(t); t.focus(); }""")
    page.keyboard.press("]")
    expect(page.locator("#typing")).to_have_value("]")
    expect(b.locator('input[data-role="timeline"]')).to_have_value(at)
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("]")
    expect(b.locator('input[data-role="timeline"]')).to_have_value(str(mark_steps(b)[0]))
