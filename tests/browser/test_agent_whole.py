"""The agent-whole lesson in real Chromium: a published agent file runs whole in the
page's Python against the stand-ins; Debug pauses at a breakpoint and the conversation
panel shows the parent's and the subagent's model calls, with the `cat` result."""
from playwright.sync_api import expect

try:
    from .page_helpers import (BOOT_TIMEOUT, expect_paused_at, press, shown_output,
                               toggle_breakpoint, value, wait_ready)
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, expect_paused_at, press, shown_output,
                              toggle_breakpoint, value, wait_ready)

LESSON = "agent-whole"
STOP_CHECK = 8          # agent_loop: `if response.stop_reason != "tool_use":`


def open_block(page, server_url, site_kind, symbol):
    path = f"/lessons/{LESSON}" + ("/" if site_kind == "export" else "")
    page.goto(server_url + path)
    b = page.locator(f'[data-loopstep-block="{LESSON}/{symbol}"]')
    wait_ready(b)
    return b


def test_debug_pauses_and_the_panel_shows_parent_and_subagent_calls(page, server_url, site_kind):
    b = open_block(page, server_url, site_kind, "agent_loop")
    expect(b).to_have_attribute("data-scenario", "delegates")
    toggle_breakpoint(b, STOP_CHECK)
    press(b, "debug")
    expect_paused_at(b, STOP_CHECK)
    expect(value(b, "response")).to_contain_text("ToolUseBlock(id='toolu_001'")
    panel = b.locator('[data-role="conversation"]')
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-depth", "0")
    expect(panel.locator("[data-message]")).to_have_count(1)
    expect(panel.locator('[data-role="response"] [data-part][data-kind="tool_use"]')) \
        .to_have_attribute("data-tool", "task")
    expect(b.locator('[data-role="timeline-marks"] [data-mark="model"]')).to_have_count(5)
    expect(b.locator('[data-role="status"]')).to_contain_text("第 1 / 5")

    depths = []
    for number in (2, 3, 4):
        press(b, "next-call")
        expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {number} / 5")
        depths.append(panel.get_attribute("data-depth"))
    assert depths == ["1", "1", "1"]
    cat_result = panel.locator('[data-part][data-kind="tool_result"]').last
    expect(cat_result).to_contain_text("pytest>=8.0")
    expect(cat_result).to_contain_text("requests>=2.31")
    press(b, "next-call")
    expect(b.locator('[data-role="status"]')).to_contain_text("第 5 / 5")
    expect(panel).to_have_attribute("data-depth", "0")
    back = panel.locator("[data-message]").last
    expect(back.locator('[data-part][data-kind="tool_result"]')).to_contain_text(
        "测试框架是 pytest（requirements.txt 要求 pytest>=8.0）。")


def test_safe_path_shows_the_runs_fixed_folder(page, server_url, site_kind):
    b = open_block(page, server_url, site_kind, "safe_path")
    press(b, "run")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    output = b.locator('[data-role="output"]')
    expect(output).to_contain_text(shown_output("/tmp/loopstep-run/src/app.py\n"))
    expect(output).to_contain_text("ValueError: Path escapes workspace: ../secrets.txt")
