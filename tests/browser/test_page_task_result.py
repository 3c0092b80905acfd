"""task_result on the lesson page, and Run of every block under every preset."""
from playwright.sync_api import expect

try:
    from .page_helpers import (block, expect_paused_at, open_lesson, press, run_to_end,
                               select_scenario, toggle_breakpoint, value, wait_ready)
except ImportError:
    from page_helpers import (block, expect_paused_at, open_lesson, press, run_to_end,
                              select_scenario, toggle_breakpoint, value, wait_ready)

TRUNCATE_LINE = 7  # text = text[:1200] + '（结论过长，已截断；请缩小子任务）'
RETURN_LINE = 10   # return {'type': 'tool_result', 'tool_use_id': call['id'],
NOTE = "（结论过长，已截断；请缩小子任务）"

# The outputs the lesson's own setup code gives (issue 3).
OUTPUTS = {
    "child_tools": {
        "normal": "完成： 只读工具已选出\n",
        "missing": "缺少只读工具：read_file\n",
    },
    "run_subagent": {
        "normal": "完成： answered\n",
        "missing": "缺少只读工具：read_file\n",
        "limit": "完成： call_limit\n",
        "forbidden": "完成： answered\n",
        "invalid": "子任务必须是1到600字符的文本。\n",
    },
    "task_result": {
        "normal": '完成： {"status": "answered", "summary": "源码推导42；尚未运行。", "calls": 3}\n',
        "limit": '完成： {"status": "call_limit", "summary": "已达子循环预算，尚未得出结论。", '
                 '"calls": 1}\n',
        "long": '完成： {"status": "answered", "summary": "' + "长" * 1200 + NOTE
                + '", "calls": 3}\n',
    },
}


def test_limit_return_statement_shows_failed_and_the_call_id(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "task_result")
    select_scenario(b, "limit")
    wait_ready(b)
    toggle_breakpoint(b, RETURN_LINE)
    press(b, "debug")
    expect_paused_at(b, RETURN_LINE)
    expect(b.locator(f'[data-line="{RETURN_LINE + 1}"]')).to_have_attribute("aria-current", "step")
    expect(value(b, "failed")).to_have_text("True")
    expect(value(b, "call")).to_have_text("{'id': 'parent_task_1'}")
    expect(value(b, "status")).to_have_text("'call_limit'")
    press(b, "step-over")
    expect(b.locator('[data-special="return"] [data-role="value"]')).to_contain_text(
        "'tool_use_id': 'parent_task_1'")
    expect(b.locator('[data-special="return"] [data-role="value"]')).to_contain_text(
        "'is_error': True")


def test_long_hits_the_truncation_line_and_output_ends_with_the_note(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "task_result")
    select_scenario(b, "long")
    wait_ready(b)
    toggle_breakpoint(b, TRUNCATE_LINE)
    press(b, "debug")
    expect_paused_at(b, TRUNCATE_LINE)
    expect(value(b, "failed")).to_have_text("False")
    text = value(b, "text")
    expect(text).to_contain_text("长长长")
    assert "1201" in (text.get_attribute("title") or ""), text.get_attribute("title")
    press(b, "step-over")
    expect(b.locator('[data-var="text"]')).to_have_attribute("data-changed", "true")
    press(b, "step-over")
    expect(value(b, "failed")).to_have_text("True")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    output = b.locator('[data-role="output"]').text_content()
    assert output.rstrip("\n").endswith(NOTE + '", "calls": 3}'), output[-80:]
    assert output == OUTPUTS["task_result"]["long"]


def test_run_every_preset_gives_the_lesson_output(page, server_url, site_kind):
    """Every block of the page, one after another, each preset run to its end."""
    open_lesson(page, server_url, site_kind)
    page.evaluate("""() => { window.finishes = [];
        document.addEventListener('loopstep:finish', e => window.finishes.push(e.detail)); }""")
    for symbol in OUTPUTS:
        b = block(page, symbol)
        options = b.locator('select[data-role="scenario"] option')
        assert options.evaluate_all("os => os.map(o => o.value)") == list(OUTPUTS[symbol])
        wait_ready(b)
        finished = []
        for scenario, expected in OUTPUTS[symbol].items():
            select_scenario(b, scenario)
            expect(b).to_have_attribute("data-state", "ready")
            run_to_end(b)
            expect(b.locator('[data-role="output"]')).to_have_text(expected)
            finished.append(scenario)
        details = page.evaluate("window.finishes.splice(0)")
        assert [d["scenario"] for d in details] == finished, symbol
        assert all(d["block"] == f"s06/{symbol}" for d in details)
        assert [d["output"] for d in details] == list(OUTPUTS[symbol].values())
