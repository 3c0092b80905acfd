"""child_tools on the lesson page: breakpoint, stepping both ways, scenario switch, exceptions."""
import re

import pytest
from playwright.sync_api import expect

try:
    from .page_helpers import (block, expect_paused_at, gutter, open_lesson, press, run_to_end,
                               select_scenario, toggle_breakpoint, value, wait_ready)
except ImportError:
    from page_helpers import (block, expect_paused_at, gutter, open_lesson, press, run_to_end,
                              select_scenario, toggle_breakpoint, value, wait_ready)

pytestmark = pytest.mark.smoke   # breakpoints, stepping both ways, a scenario switch

COPY_LINE = 7   # selected[name] = deepcopy(tools[name])
RAISE_LINE = 6  # raise ValueError('缺少只读工具：' + name)


def test_breakpoint_debug_step_over_and_back(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    wait_ready(b)
    expect(b.locator(f'[data-line="{COPY_LINE}"]')).to_have_text(
        "        selected[name] = deepcopy(tools[name])")
    toggle_breakpoint(b, COPY_LINE)

    press(b, "debug")
    expect_paused_at(b, COPY_LINE)
    expect(b.locator('[data-role="status"]')).to_have_text(f"已暂停 第 {COPY_LINE} 行")
    expect(value(b, "selected")).to_have_text("{}")
    expect(value(b, "name")).to_have_text("'read_file'")
    expect(b.locator('[data-var="selected"]')).not_to_have_attribute("data-changed", "true")

    press(b, "step-over")
    expect(b.locator('[data-line][aria-current="step"]')).not_to_have_attribute(
        "data-line", str(COPY_LINE))
    expect(value(b, "selected")).to_contain_text("'read_file'")
    expect(b.locator('[data-var="selected"]')).to_have_attribute("data-changed", "true")
    expect(b.locator('[data-var="name"]')).not_to_have_attribute("data-changed", "true")

    press(b, "step-back")
    expect_paused_at(b, COPY_LINE)
    expect(value(b, "selected")).to_have_text("{}")


def test_gutter_keyboard_toggles_and_marker(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    button = gutter(b, 3)
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(button).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Space")
    expect(button).to_have_attribute("aria-pressed", "true")
    marker = button.evaluate("b => getComputedStyle(b, '::before').backgroundColor")
    assert marker not in ("", "rgba(0, 0, 0, 0)"), marker


def test_switching_to_missing_resets_breakpoints_and_run_shows_the_raise(page, server_url,
                                                                           site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    wait_ready(b)
    toggle_breakpoint(b, COPY_LINE)
    press(b, "debug")
    expect_paused_at(b, COPY_LINE)

    select_scenario(b, "missing")
    expect(b).to_have_attribute("data-state", "ready")
    # s06 resets the breakpoints on a switch of input, as its page says (lesson.toml
    # switch_resets_breakpoints)
    expect(b.locator('button[data-gutter][aria-pressed="true"]')).to_have_count(0)
    expect(gutter(b, COPY_LINE)).to_have_attribute("aria-pressed", "false")
    expect(b.locator('[aria-current="step"]')).to_have_count(0)
    expect(b.locator('[data-role="variables"] [data-var]')).to_have_count(0)
    expect(b.locator('[data-role="output"]')).to_have_text("")
    expect(b.locator('[data-role="setup-code"]')).to_contain_text('scenario = \'missing\'')
    for name in ("continue", "step-over", "step-into", "step-out", "step-back"):
        expect(b.locator(f'button[data-action="{name}"]')).to_be_disabled()

    run_to_end(b)
    expect(b).to_have_attribute("data-state", "error")
    expect(b.locator('[data-role="output"]')).to_contain_text("缺少只读工具：read_file")
    exception = b.locator('[data-role="exception"]')
    expect(exception).to_contain_text("ValueError")
    expect(exception).to_contain_text("缺少只读工具：read_file")
    expect(exception).to_contain_text(f"第 {RAISE_LINE} 行")
    expect(b.locator(f'[data-line="{RAISE_LINE}"]')).to_have_attribute("data-error", "true")
    expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {RAISE_LINE} 行")
    expect(b.locator('[data-role="status"]')).to_contain_text("出错")


def test_missing_debug_stops_on_the_raise_and_never_copies(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    select_scenario(b, "missing")
    wait_ready(b)
    toggle_breakpoint(b, RAISE_LINE)
    toggle_breakpoint(b, COPY_LINE)
    press(b, "debug")
    expect_paused_at(b, RAISE_LINE)
    expect(value(b, "selected")).to_have_text("{}")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "error")
    expect(b.locator('[data-role="timeline"]')).to_be_enabled()
    press(b, "step-back")
    expect(b).to_have_attribute("data-state", "paused")
    expect(b.locator('[data-var][data-special="exception"], [data-special="exception"]')
           ).to_contain_text("ValueError")


def test_setup_details_follow_the_scenario(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    setup = b.locator('details[data-role="setup"]')
    expect(setup).not_to_have_attribute("open", re.compile(".*"))
    setup.locator("summary").click()
    code = b.locator('[data-role="setup-code"]')
    expect(code).to_contain_text("scenario = 'normal'")
    expect(code).to_contain_text("observed=child_tools(tools)")
    select_scenario(b, "missing")
    expect(code).to_contain_text("scenario = 'missing'")
