"""One cursor per page, the diagram following it, keyboard stepping and the contract events."""
from playwright.sync_api import expect

try:
    from .page_helpers import (block, current_lines, expect_paused_at, open_lesson, press,
                               slide_to, toggle_breakpoint, value, wait_ready)
except ImportError:
    from page_helpers import (block, current_lines, expect_paused_at, open_lesson, press,
                              slide_to, toggle_breakpoint, value, wait_ready)


def stage(page, stage_id):
    return page.locator(f'[data-role="diagram"] [data-stage="{stage_id}"]')


def current_stage(page):
    return page.locator('[data-role="diagram"] [data-stage][aria-current="true"]')


def test_one_cursor_and_the_diagram_follows_it(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    child, sub, result = (block(page, s) for s in ("child_tools", "run_subagent", "task_result"))
    wait_ready(child)
    expect(current_stage(page)).to_have_count(0)

    toggle_breakpoint(child, 7)
    press(child, "debug")
    expect_paused_at(child, 7)
    expect(current_stage(page)).to_have_attribute("data-stage", "child_tools")
    expect(stage(page, "child_tools").locator('[data-role="stage-facts"]')).to_contain_text("read_file")

    toggle_breakpoint(result, 3)
    press(result, "debug")
    expect_paused_at(result, 3)
    expect(child).to_have_attribute("data-state", "ready")
    expect(child.locator('[aria-current="step"]')).to_have_count(0)
    expect(page.locator('[data-line][aria-current="step"]')).to_have_count(1)
    expect(current_stage(page)).to_have_attribute("data-stage", "task_result")

    # run_subagent line 7 (restricted = child_tools(tools)) belongs to the child_tools stage
    toggle_breakpoint(sub, 7)
    press(sub, "debug")
    expect_paused_at(sub, 7)
    expect(result).to_have_attribute("data-state", "ready")
    expect(page.locator('[aria-current="step"]')).to_have_count(1)
    expect(current_stage(page)).to_have_attribute("data-stage", "child_tools")
    press(sub, "step-over")
    expect_paused_at(sub, 8)
    expect(current_stage(page)).to_have_attribute("data-stage", "run_subagent")
    facts = stage(page, "run_subagent").locator('[data-role="stage-facts"]')
    expect(facts).to_contain_text("restricted")

    # running another block to its end takes the cursor away and clears the diagram
    press(child, "run")
    expect(child).to_have_attribute("data-state", "finished")
    expect(sub).to_have_attribute("data-state", "ready")
    expect(page.locator('[aria-current="step"]')).to_have_count(0)
    expect(current_stage(page)).to_have_count(0)


def test_keys_step_the_block_with_the_cursor(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    expect(page.locator('[data-role="keys-hint"]')).to_contain_text("F10")
    toggle_breakpoint(b, 15)
    press(b, "debug")
    expect_paused_at(b, 15)

    page.keyboard.press("F11")
    expect(b.locator('[data-role="stack"] [data-frame]').last).to_have_attribute(
        "data-frame", "<lambda>")
    page.keyboard.press("Shift+F11")
    expect(b.locator('[data-special="return"]')).to_have_count(1)
    expect(b.locator('[data-role="stack"] [data-frame]').last).to_have_attribute(
        "data-frame", "<lambda>")
    page.keyboard.press("F11")
    expect(b.locator('[data-role="stack"] [data-frame]').last).to_have_attribute(
        "data-frame", "execute")
    expect_paused_at(b, 10)
    page.keyboard.press("F10")
    expect_paused_at(b, 12)
    page.keyboard.press("Shift+F11")
    expect(b.locator('[data-special="return"]')).to_contain_text("'tool_use_id': 'child_0'")

    b.locator('button[data-gutter="15"]').click()  # off again: F8 must not stop in the lambdas
    toggle_breakpoint(b, 17)
    page.keyboard.press("F8")
    expect_paused_at(b, 17)
    expect(value(b, "outcome")).to_contain_text("'answered'")
    page.keyboard.press("F8")
    expect(b).to_have_attribute("data-state", "finished")
    expect(current_lines(b)).to_have_count(0)


def test_pause_and_finish_events_and_timeline(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    page.evaluate("""() => { window.seen = [];
        for (const t of ['loopstep:pause', 'loopstep:finish'])
          document.addEventListener(t, e => window.seen.push({type: t, ...e.detail})); }""")
    b = block(page, "child_tools")
    wait_ready(b)
    toggle_breakpoint(b, 7)
    press(b, "debug")
    expect_paused_at(b, 7)
    timeline = b.locator('input[type=range][data-role="timeline"]')
    expect(timeline).to_be_enabled()
    expect(b.locator('[data-role="ticks"] .tick')).to_have_count(1)
    at_break = int(timeline.input_value())
    assert at_break > 0

    # dragging the slider to its start moves the cursor there
    slide_to(timeline, 0)
    expect(b).to_have_attribute("data-state", "paused")
    expect(current_lines(b).first).not_to_have_attribute("data-line", "7")
    expect(b.locator('[data-var="selected"]')).to_have_count(0)
    slide_to(timeline, at_break)
    expect_paused_at(b, 7)

    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    seen = page.evaluate("window.seen")
    pauses = [e for e in seen if e["type"] == "loopstep:pause"]
    assert pauses[0] == {"type": "loopstep:pause", "block": "s06/child_tools",
                         "scenario": "normal", "step": at_break, "line": 7}
    assert seen[-1] == {"type": "loopstep:finish", "block": "s06/child_tools", "scenario": "normal",
                        "status": "finished", "output": "完成： 只读工具已选出\n"}
