"""A reader's switch of input in a block's picker, as lesson.toml `switch_resets_breakpoints`
chooses: s06 says its switch resets the block's breakpoints and does (line breakpoints,
their details, event breakpoints; the watches stay), the custom setup keeps them; another
lesson keeps them all. A link's breakpoints are restored on any lesson (test_page_state.py)."""
import re

from playwright.sync_api import expect

from page_helpers import (BOOT_TIMEOUT, add_watch, block, choose_option, edit_breakpoint,
                          expect_paused_at, gutter, open_lesson, press, replace_in_editor,
                          select_scenario, toggle_breakpoint, wait_ready)


def add_error_breakpoint(b) -> None:
    """An event breakpoint on any error result, from the keyboard."""
    form = b.locator('form[data-role="event-breakpoint"]')
    choose_option(form.locator('select[name="kind"]'), "error")
    form.locator('input[name="value"]').focus()
    b.page.keyboard.press("Enter")
    expect(b.locator('[data-role="event-breakpoints"] [data-event-bp="error:"]')).to_have_count(1)


def pressed(b):
    return b.locator('button[data-gutter][aria-pressed="true"]')


def test_s06_a_switch_of_input_resets_the_breakpoints_as_its_page_says(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    expect(page.locator("p.intro")).to_contain_text("切换输入会重置该代码块的运行和断点。")
    b = block(page, "run_subagent")
    wait_ready(b)
    toggle_breakpoint(b, 15)                                  # a click on the line number
    edit_breakpoint(b, 17, condition="max_calls == 1")        # a breakpoint with a condition
    add_error_breakpoint(b)
    add_watch(b, "len(restricted)")
    for part in ("bp=15,17", "c17=", "ev=", "w="):
        expect(page).to_have_url(re.compile(rf"[#&]{part}"))

    select_scenario(b, "limit")                               # the arrow keys on the picker
    expect(gutter(b, 15)).to_have_attribute("aria-pressed", "false")
    expect(pressed(b)).to_have_count(0)
    expect(b.locator("button[data-gutter][data-condition]")).to_have_count(0)
    expect(b.locator("[data-event-bp]")).to_have_count(0)
    expect(b.locator('[data-role="watches"] [data-watch="len(restricted)"]')).to_have_count(1)
    expect(page).to_have_url(re.compile(r"#b=run_subagent&s=limit&"))
    expect(page).to_have_url(re.compile(r"[#&]w="))
    for part in ("bp", "c17", "ev"):
        expect(page).not_to_have_url(re.compile(rf"[#&]{part}="))
    # no breakpoint is left: Debug pauses at the first line and says why
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="status"]')).to_contain_text("没有断点")


def test_s06_the_custom_setup_is_no_switch_of_input(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    toggle_breakpoint(b, 15)
    press(b, "edit-setup")
    replace_in_editor(b, "index<2", "index<9")
    press(b, "run-custom")                       # the reader's own input runs with them
    expect(b).to_have_attribute("data-scenario", "custom")
    expect_paused_at(b, 15)
    select_scenario(b, "normal")                 # from it to a preset: a switch of input
    expect(pressed(b)).to_have_count(0)
    toggle_breakpoint(b, 17)
    scenario = b.locator('select[data-role="scenario"]')
    scenario.focus()
    scenario.press("End")                        # back to the custom setup, at the end
    expect(b).to_have_attribute("data-scenario", "custom")
    expect(gutter(b, 17)).to_have_attribute("aria-pressed", "true")
    expect(page).to_have_url(re.compile(r"[#&]s=custom&bp=17(&|$)"))


def test_another_lesson_keeps_the_breakpoints_and_says_so(page, server_url, site_kind):
    page.goto(f"{server_url}/lessons/lcc-s06" + ("/" if site_kind == "export" else ""))
    expect(page.locator("p.intro")).to_contain_text("切换输入会重置该代码块的运行，断点保留。")
    b = page.locator('[data-loopstep-block="lcc-s06/run_subagent"]')
    wait_ready(b)
    line = int(b.locator("button[data-gutter]").nth(2).get_attribute("data-gutter"))
    toggle_breakpoint(b, line)
    add_error_breakpoint(b)
    select_scenario(b, "turn_limit")
    expect(gutter(b, line)).to_have_attribute("aria-pressed", "true")
    expect(pressed(b)).to_have_count(1)
    expect(b.locator('[data-event-bp="error:"]')).to_have_count(1)
    expect(page).to_have_url(re.compile(rf"#b=run_subagent&s=turn_limit&bp={line}&ev="))
