"""URL state round trip, English labels, Debug before the runtime is ready, text-only rendering."""
import re

import pytest
from playwright.sync_api import expect

try:
    from .page_helpers import (BOOT_TIMEOUT, block, expect_paused_at, open_lesson, press,
                               select_scenario, toggle_breakpoint, value, wait_ready)
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, block, expect_paused_at, open_lesson, press,
                              select_scenario, toggle_breakpoint, value, wait_ready)


# `hosting` (also run on the export and on nginx): URL state and Debug before the runtime, on
# the export's page paths.

@pytest.mark.hosting
def test_url_round_trip_restores_scenario_breakpoints_and_step(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    select_scenario(b, "limit")
    wait_ready(b)
    toggle_breakpoint(b, 15)
    toggle_breakpoint(b, 17)
    press(b, "debug")
    expect_paused_at(b, 15)
    press(b, "step-over")
    expect_paused_at(b, 17)
    step = b.locator('[data-role="timeline"]').input_value()
    expect(page).to_have_url(re.compile(rf"#b=run_subagent&s=limit&bp=15,17&step={step}$"))
    url = page.url

    page.reload()
    b = block(page, "run_subagent")
    expect(b).to_have_attribute("data-scenario", "limit")
    expect(b.locator('select[data-role="scenario"]')).to_have_value("limit")
    expect(b.locator('button[data-gutter][aria-pressed="true"]')).to_have_count(2)
    expect(b.locator('button[data-gutter="15"]')).to_have_attribute("aria-pressed", "true")
    expect(b.locator('button[data-gutter="17"]')).to_have_attribute("aria-pressed", "true")
    expect_paused_at(b, 17)
    expect(b.locator('[data-role="timeline"]')).to_have_value(step)
    expect(value(b, "outcome")).to_contain_text("'call_limit'")
    expect(page).to_have_url(url)

    # stepping on updates the URL; a scenario switch clears the step from it and, in s06,
    # the breakpoints (lesson.toml switch_resets_breakpoints; test_scenario_switch.py)
    press(b, "step-back")
    expect_paused_at(b, 15)
    expect(page).to_have_url(re.compile(r"&bp=15,17&step=\d+$"))
    select_scenario(b, "normal")
    expect(page).to_have_url(re.compile(r"#b=run_subagent&s=normal$"))


@pytest.mark.hosting
def test_english_labels(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind, lang="en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    b = block(page, "child_tools")
    wait_ready(b)
    labels = {"debug": "Debug", "run": "Run", "continue": "Continue", "step-over": "Step over",
              "step-into": "Step into", "step-out": "Step out", "step-back": "Step back",
              "reset": "Reset"}
    for action, label in labels.items():
        expect(b.locator(f'button[data-action="{action}"]')).to_have_text(label)
    expect(b.locator('[data-role="status"]')).to_have_text("Not run")
    expect(b.locator('select[data-role="scenario"] option[value="missing"]')).to_have_text(
        "read_file missing")
    expect(page.locator('[data-role="keys-hint"]')).to_contain_text("F10 step over")
    expect(page.locator('[data-role="runtime"]')).to_contain_text("ready")
    toggle_breakpoint(b, 7)
    press(b, "debug")
    expect(b.locator('[data-role="status"]')).to_have_text("Paused at line 7")
    press(b, "continue")
    expect(b.locator('[data-role="status"]')).to_have_text("Finished")
    select_scenario(b, "missing")
    press(b, "run")
    expect(b.locator('[data-role="exception"]')).to_contain_text("(line 6)")


@pytest.mark.hosting
def test_debug_pressed_before_the_runtime_is_ready_runs_when_it_is(page, server_url, site_kind):
    url = (server_url + ("/lessons/s06/" if site_kind == "export" else "/lessons/s06")
           + "#b=child_tools&bp=7")
    page.goto(url, wait_until="domcontentloaded")
    b = block(page, "child_tools")
    expect(b.locator('button[data-gutter="7"]')).to_have_attribute("aria-pressed", "true")
    runtime_before = page.evaluate("""() => {
        const state = document.querySelector('[data-role="runtime"]').dataset.state;
        document.querySelector('[data-loopstep-block="s06/child_tools"] [data-action="debug"]').click();
        return state; }""")
    assert runtime_before in ("idle", "loading"), runtime_before
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect_paused_at(b, 7)
    expect(page.locator('[data-role="runtime"]')).to_have_attribute("data-state", "ready")


def test_values_and_output_are_text_not_html(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    wait_ready(b)
    toggle_breakpoint(b, 8)
    press(b, "debug")
    expect_paused_at(b, 8)
    # `<function <lambda>>` looks like markup: it must show as typed, with no element made of it
    expect(value(b, "tools")).to_contain_text("'run': <function <lambda>>")
    assert value(b, "tools").evaluate("v => v.children.length") == 0
    assert b.locator("function, lambda").count() == 0
    press(b, "continue")
    output = b.locator('[data-role="output"]')
    expect(output).to_have_text("完成： 只读工具已选出\n")
    # no element but the output's own part (block-view.js)
    assert output.evaluate("o => [...o.querySelectorAll('*')].map((e) => e.className)") \
        == ["output-part"]
    assert page.locator("[style]").evaluate_all(
        "els => els.filter(e => !e.closest('[data-role=ticks]')).length") == 0
