"""The agent-whole lesson in real Chromium: a published agent file runs whole in the
page's Python against the stand-ins; Debug pauses at a breakpoint and the conversation
panel shows the parent's and the subagent's model calls, with the `cat` result; the
`agent_loop` + `run_subagent` block pauses inside the subagent; the whole-file block steps
the module's own statements."""
from playwright.sync_api import expect

try:
    from .page_helpers import (BOOT_TIMEOUT, add_watch, expect_paused_at, press, run_to_end,
                               shown_output, toggle_breakpoint, value, wait_ready, watch_value)
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, add_watch, expect_paused_at, press, run_to_end,
                              shown_output, toggle_breakpoint, value, wait_ready, watch_value)

LESSON = "agent-whole"
STOP_CHECK = 8          # agent_loop: `if response.stop_reason != "tool_use":`
SUB_STOP_CHECK = 107    # the file's line of run_subagent's `if response.stop_reason != …:`


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


def stack_names(b):
    return b.locator('[data-role="stack"] [data-frame]:not([data-hidden="true"])').evaluate_all(
        "els => els.map(e => e.dataset.frame)")


def test_a_breakpoint_in_run_subagent_pauses_there_in_the_pair_block(page, server_url,
                                                                       site_kind):
    b = open_block(page, server_url, site_kind, "loop")
    expect(b).to_have_attribute("data-scenario", "delegates")
    expect(b.locator(f'[data-line="{SUB_STOP_CHECK}"]')).to_have_text(
        '        if response.stop_reason != "tool_use":')
    toggle_breakpoint(b, SUB_STOP_CHECK)
    expect(b.locator(f'button[data-gutter="{SUB_STOP_CHECK}"]')) \
        .to_have_attribute("aria-pressed", "true")
    press(b, "debug")
    expect_paused_at(b, SUB_STOP_CHECK)
    expect(value(b, "prompt")).to_have_text("'读 requirements.txt，说出测试框架和版本。'")
    expect(value(b, "_")).to_have_text("0")
    expect(value(b, "response")).to_contain_text("ToolUseBlock(")
    expect(b.locator('[data-role="variables"] [data-var="messages"]')).to_have_count(1)
    assert stack_names(b) == ["agent_loop", "run_subagent"]
    add_watch(b, "len(messages)")
    expect(watch_value(b, "len(messages)")).to_have_text("2")
    panel = b.locator('[data-role="conversation"]')
    expect(panel).to_have_attribute("data-depth", "1")
    expect(page.locator('[data-stage="stop"]')).to_have_attribute("aria-current", "true")

    marks = b.locator('[data-role="timeline-marks"] [data-mark="model"]')
    expect(marks).to_have_count(5)
    steps = [int(s) for s in marks.evaluate_all("els => els.map(e => e.dataset.step)")]
    expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 5")
    press(b, "prev-call")                          # the subagent's first call (its step)
    expect(b.locator('[data-role="timeline"]')).to_have_value(str(steps[1]))
    press(b, "prev-call")                          # back to the parent's first call
    expect(b.locator('button[data-action="prev-call"]')).to_be_disabled()
    depths = []
    for number, step in enumerate(steps, start=1):
        if number > 1:
            press(b, "next-call")
        expect(b.locator('[data-role="timeline"]')).to_have_value(str(step))
        expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {number} / 5")
        depths.append(panel.get_attribute("data-depth"))
        if number == 4:   # the subagent's last call was sent the `cat` result
            expect(panel.locator('[data-part][data-kind="tool_result"]').last) \
                .to_contain_text("pytest>=8.0\nrequests>=2.31")
    assert depths == ["0", "1", "1", "1", "0"]


def test_the_whole_file_block_steps_the_modules_statements(page, server_url, site_kind):
    b = open_block(page, server_url, site_kind, "whole")
    expect(b.locator('[data-line="1"]')).to_have_text("#!/usr/bin/env python3")
    toggle_breakpoint(b, 23)                      # MODEL = os.environ["MODEL_ID"]
    press(b, "debug")
    expect_paused_at(b, 23)
    assert stack_names(b) == ["<module>"]
    expect(value(b, "WORKDIR")).to_contain_text("/tmp/loopstep-run")
    expect(b.locator('[data-role="variables"] [data-var="MODEL"]')).to_have_count(0)
    press(b, "step-over")
    expect_paused_at(b, 24)
    expect(value(b, "MODEL")).to_have_text("'claude-sonnet-4-5'")
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_contain_text("回答： （delegates）我看过了")


def test_the_shell_runs_in_a_page_that_keeps_the_snapshots_recorder(page, server_url):
    """The memory snapshot leaves the stand-in shell out (web/bundles.py lazy_modules): the
    lesson's own bundle brings its modules, so a run recorded in the page runs `bash`
    commands without the recorder's files, and prints what CPython prints."""
    from loopstep.runtime.recorder import record
    from loopstep.web import bundles
    expected = record(LESSON, "run_bash", "delegates")
    assert expected["status"] == "finished" and expected["stdout"].strip()
    fetched = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(f"{server_url}/lessons/{LESSON}?trace=live")
    b = page.locator(f'[data-loopstep-block="{LESSON}/run_bash"]')
    wait_ready(b)
    runtime = page.locator('[data-role="runtime"]')
    expect(runtime).to_have_attribute("data-recorder", "snapshot")
    run_to_end(b)
    expect(b).to_have_attribute("data-trace", "live")
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(expected["stdout"]))
    assert not [u for u in fetched if u.endswith(f"/{bundles.RUNTIME}") or "/static/pyc/" in u]
