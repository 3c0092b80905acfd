"""Event breakpoints in real Chromium: Debug and Continue stop at tool calls, error
results and model calls of s06 run_subagent as at line breakpoints; the list, the
URL and a scenario switch keep or clear them."""
import re

from playwright.sync_api import expect

try:
    from . import axe_audit
    from .page_helpers import BOOT_TIMEOUT, block, choose_option, open_lesson, press, select_scenario, wait_ready
except ImportError:
    import axe_audit
    from page_helpers import BOOT_TIMEOUT, block, choose_option, open_lesson, press, select_scenario, wait_ready


def timeline(b):
    return b.locator('input[data-role="timeline"]')


def mark_steps(b, kind, count):
    """The marks' steps, once the agent views (loaded on first use) show `count` of them."""
    marks = b.locator(f'[data-role="timeline-marks"] [data-mark="{kind}"]')
    expect(marks).to_have_count(count)
    return [int(s) for s in marks.evaluate_all("ms => ms.map(m => m.dataset.step)")]


def add_event_bp(page, b, kind, value=""):
    """Choose the kind and type the value with the keyboard, submit with Enter."""
    form = b.locator('form[data-role="event-breakpoint"]')
    choose_option(form.locator('select[name="kind"]'), kind)
    form.locator('input[name="value"]').click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    if value:
        page.keyboard.type(value)
    page.keyboard.press("Enter")


def expect_paused_at_step(b, step):
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(timeline(b)).to_have_value(str(step))


def test_tool_event_breakpoint_stops_at_both_read_file_calls(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    add_event_bp(page, b, "tool", "read_file")
    item = b.locator('[data-role="event-breakpoints"] [data-event-bp="tool:read_file"]')
    expect(item).to_have_count(1)
    expect(page).to_have_url(re.compile(r"ev=tool%253Aread_file"))
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    tools = mark_steps(b, "tool", 2)
    expect_paused_at_step(b, tools[0])
    press(b, "continue")
    expect_paused_at_step(b, tools[1])
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    # the K-th model call: the 2nd one's mark step
    add_event_bp(page, b, "model", "2")
    expect(b.locator('[data-event-bp="model:2"]')).to_have_count(1)
    item.locator('button[data-action="remove"]').click()
    expect(item).to_have_count(0)
    press(b, "debug")
    expect_paused_at_step(b, mark_steps(b, "model", 3)[1])
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")


def test_a_bad_model_number_is_refused_and_kept(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    add_event_bp(page, b, "model", "two")
    error = b.locator('[data-role="event-bp-error"]')
    expect(error).to_be_visible()
    expect(error).to_contain_text("正整数")
    expect(b.locator('input[name="value"]')).to_have_value("two")
    expect(b.locator("[data-event-bp]")).to_have_count(0)


def test_error_result_stops_once_in_forbidden_and_a_switch_clears_it(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    select_scenario(b, "forbidden")
    add_event_bp(page, b, "error")
    expect(b.locator('[data-event-bp="error:"]')).to_have_count(1)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    tools = mark_steps(b, "tool", 1)
    expect_paused_at_step(b, tools[0])
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    # s06 resets the breakpoints on a switch of input (lesson.toml switch_resets_breakpoints);
    # a lesson that keeps them: test_scenario_switch.py
    select_scenario(b, "normal")
    expect(b.locator("[data-event-bp]")).to_have_count(0)


def test_event_breakpoints_come_back_from_the_url(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind, hash="#b=run_subagent&ev=tool%253Aread_file")
    b = block(page, "run_subagent")
    expect(b.locator('[data-event-bp="tool:read_file"]')).to_have_count(1)
    wait_ready(b)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect_paused_at_step(b, mark_steps(b, "tool", 2)[0])


def go_to_third_call(b):
    pause_at_start(b)
    for n in (1, 2, 3):
        press(b, "next-call")
        expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {n} / 3")


def pause_at_start(b):
    wait_ready(b)
    b.locator('button[data-gutter="3"]').click()
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)


def test_copy_as_markdown_puts_the_call_the_place_and_the_locals_on_the_clipboard(
        page, server_url, site_kind):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    go_to_third_call(b)
    b.locator('button[data-action="copy-markdown"]').click()
    expect(b.locator(".copy-status")).to_have_text("已复制为 Markdown。")
    text = page.evaluate("navigator.clipboard.readText()")
    line = b.locator('[data-line][aria-current="step"]').first.get_attribute("data-line")
    assert text.startswith("## run_subagent · model call 3 of 3\n")
    assert f"`run_subagent` line {line}: `" in text
    assert "### Messages sent (5)" in text
    assert "tool_use `read_file` (id `child_1`)" in text and '"path": "expected.txt"' in text
    assert "读取 main.py，说明源码推导；不要运行。" in text
    assert "### Response" in text and "### Locals" in text
    expect(b.locator('[data-role="markdown"]')).to_be_hidden()


def test_copy_as_markdown_without_a_clipboard_shows_the_text(page, server_url, site_kind):
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    go_to_third_call(b)
    press(b, "step-over")                       # the 3rd call returned: its response too
    b.locator('button[data-action="copy-markdown"]').click()
    shown = b.locator('[data-role="markdown"]')
    expect(shown).to_be_visible()
    expect(shown).to_contain_text("### Response (stop_reason: end_turn)")
    expect(shown).to_contain_text("源码推导42；尚未运行。")
    names = b.locator('[data-role="variables"] [data-var]').evaluate_all(
        "rows => rows.map(r => r.dataset.var)")
    assert names                                 # the frame's locals, as the variables pane shows them
    for name in names:
        expect(shown).to_contain_text(f"- `{name}` = ")


def test_lcc_s06_subagent_boundary_shows_the_task_in_and_the_answer_out(page, server_url, site_kind):
    page.goto(f"{server_url}/lessons/lcc-s06" + ("/" if site_kind == "export" else ""))
    b = page.locator('[data-loopstep-block="lcc-s06/agent_loop"]')
    wait_ready(b)
    select_scenario(b, "answers")
    press(b, "run")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    model_marks = b.locator('[data-role="timeline-marks"] [data-mark="model"]')
    expect(model_marks).to_have_count(4)
    boundary = b.locator('[data-role="conversation"] [data-role="boundary"]')
    model_marks.nth(0).click()                      # the parent's first call: no boundary
    expect(b.locator('[data-role="conversation"]')).to_have_attribute("data-depth", "0")
    expect(boundary).to_be_hidden()
    press(b, "next-call")                           # the subagent's first call (marks 2, 3 share a step)
    expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 4")
    expect(b.locator('[data-role="conversation"]')).to_have_attribute("data-depth", "1")
    expect(boundary).to_be_visible()
    child = boundary.locator('[data-side="child"]')
    parent = boundary.locator('[data-side="parent"]')
    expect(child).to_have_attribute("data-messages", "1")
    task = "读取 requirements.txt，找出这个项目使用的测试框架，返回名称和版本。"
    expect(child).to_have_attribute("data-chars", str(len(task)))
    assert int(parent.get_attribute("data-messages")) > 1
    assert int(parent.get_attribute("data-chars")) > 0
    expect(boundary.locator('[data-role="crossed-in"]')).to_have_text(task)
    expect(boundary.locator('[data-role="crossed-out"]')).to_have_count(0)   # not returned yet
    press(b, "next-call")
    press(b, "next-call")                           # the parent's call after the task returned
    expect(b.locator('[data-role="status"]')).to_contain_text("第 4 / 4")
    expect(boundary).to_be_hidden()
    press(b, "step-back")                           # the child's last call is shown, it returned
    expect(b.locator('[data-role="conversation"]')).to_have_attribute("data-depth", "1")
    expect(boundary.locator('[data-role="crossed-out"]')).to_contain_text("pytest")
    # the new parts pass the audit: an event breakpoint listed, the boundary, the Markdown text
    page.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    add_event_bp(page, b, "stop-reason", "end_turn")
    expect(b.locator('[data-event-bp="stop-reason:end_turn"]')).to_have_count(1)
    b.locator('button[data-action="copy-markdown"]').click()
    expect(b.locator('[data-role="markdown"]')).to_contain_text("Subagent conversation, depth 1.")
    axe_audit.assert_no_violations(page, "lcc-s06 agent_loop: boundary, event breakpoints, Markdown",
                                   within='[data-loopstep-block="lcc-s06/agent_loop"]')
