"""run_subagent on the lesson page: stepping over and into run_loop, and each scenario."""
from playwright.sync_api import expect

try:
    from .page_helpers import (block, expect_paused_at, open_lesson, press, run_to_end,
                               select_scenario, toggle_breakpoint, value, wait_ready)
except ImportError:
    from page_helpers import (block, expect_paused_at, open_lesson, press, run_to_end,
                              select_scenario, toggle_breakpoint, value, wait_ready)

CALL_LINE = 15    # outcome = run_loop(lambda history: ask(history, restricted), execute,
RETURN_LINE = 17  # return outcome
EXECUTE_RETURN = 14  # return report['result']


def frames(b):
    return b.locator('[data-role="stack"] [data-frame]')


def test_step_over_run_loop_lands_on_return_with_the_outcome(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    toggle_breakpoint(b, CALL_LINE)
    press(b, "debug")
    expect_paused_at(b, CALL_LINE)
    expect(b.locator(f'[data-line="{CALL_LINE + 1}"]')).to_have_attribute("aria-current", "step")
    expect(value(b, "restricted")).to_contain_text("'read_file'")
    expect(b.locator('[data-var="outcome"]')).to_have_count(0)

    press(b, "step-over")
    expect_paused_at(b, RETURN_LINE)
    outcome = value(b, "outcome")
    expect(outcome).to_contain_text("'status': 'answered'")
    expect(outcome).to_contain_text("'calls': 3")
    expect(b.locator('[data-var="outcome"]')).to_have_attribute("data-changed", "true")

    # the dict is expandable: its keys appear as tree items
    b.locator('[data-var="outcome"] > details > summary').click()
    expect(b.locator('[data-var="outcome"] .tree-key').first).to_be_visible()


def test_step_into_shows_the_lambda_under_a_greyed_run_loop(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    toggle_breakpoint(b, CALL_LINE)
    press(b, "debug")
    expect_paused_at(b, CALL_LINE)

    press(b, "step-into")
    expect(frames(b).last).to_have_attribute("data-frame", "<lambda>")
    run_loop = b.locator('[data-role="stack"] [data-frame="run_loop"]')
    expect(run_loop).to_have_attribute("data-hidden", "true")
    expect(b.locator('[data-role="stack"] [data-frame="run_subagent"]')).not_to_have_attribute(
        "data-hidden", "true")
    names = frames(b).evaluate_all("fs => fs.map(f => f.dataset.frame)")
    assert names.index("run_subagent") < names.index("run_loop") < names.index("<lambda>"), names
    colour = run_loop.evaluate("f => getComputedStyle(f).color")
    current = frames(b).last.evaluate("f => getComputedStyle(f).color")
    assert colour != current, (colour, current)
    expect(value(b, "history")).to_contain_text("'role': 'user'")

    # further in, execute runs under the same hidden run_loop frame
    for _ in range(4):
        press(b, "step-into")
    expect(frames(b).last).to_have_attribute("data-frame", "execute")
    expect(b.locator('[data-role="stack"] [data-frame="run_loop"]')).to_have_attribute(
        "data-hidden", "true")

    press(b, "step-out")
    expect(frames(b).last).to_have_attribute("data-frame", "execute")
    expect(b.locator('[data-special="return"]')).to_contain_text("tool_result")


def test_limit_runs_to_call_limit(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    select_scenario(b, "limit")
    wait_ready(b)
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_have_text("完成： call_limit\n")
    expect(b.locator('[data-role="status"]')).to_have_text("已完成")


def test_forbidden_execute_returns_the_unregistered_result(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    select_scenario(b, "forbidden")
    wait_ready(b)
    toggle_breakpoint(b, EXECUTE_RETURN)
    press(b, "debug")
    expect_paused_at(b, EXECUTE_RETURN)
    expect(frames(b).last).to_have_attribute("data-frame", "execute")
    expect(value(b, "call")).to_contain_text("'run_main'")
    expect(value(b, "report")).to_contain_text("未执行：未注册工具。")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_have_text("完成： answered\n")


def test_invalid_task_is_rejected(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    select_scenario(b, "invalid")
    wait_ready(b)
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "error")
    expect(b.locator('[data-role="output"]')).to_contain_text("子任务必须是1到600字符的文本。")
    expect(b.locator('[data-role="exception"]')).to_contain_text("第 4 行")
