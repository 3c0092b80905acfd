"""Contained failures: code that never ends, code stuck in C, deep recursion, deeply
nested values, a fatal Pyodide error, and markup inside values and output.

The blocks live in the fixture lessons dir `fixture_lessons/robust`, served by a
second `loopstep serve` with a 4 s record watchdog and a 20,000-step cap. These
tests always use that server, also in the `--site=export` pass: the limits reach
the page only through `serve` (`loopstep export` has no --record-timeout or
--max-steps), and the page and worker code under test are the same files in an
export.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, press, slide_to, toggle_breakpoint
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, press, slide_to, toggle_breakpoint

LESSONS = Path(__file__).resolve().parent / "fixture_lessons"
RECORD_TIMEOUT_S = 4
MAX_STEPS = 20_000
ERROR_OR_FINISHED = re.compile(r"^(finished|error)$")


@pytest.fixture(scope="module")
def robust_server():
    with served(LESSONS, "--record-timeout", str(RECORD_TIMEOUT_S),
                "--max-steps", str(MAX_STEPS)) as proc:
        yield proc


@pytest.fixture
def robust(browser_context, robust_server, request):
    """The robust fixture lesson, open; `page.workers_seen` lists the workers it started."""
    with watched_page(browser_context, robust_server.url, None, request) as page:
        page.workers_seen = []
        page.on("worker", lambda worker: page.workers_seen.append(worker))
        page.goto(robust_server.url + "/lessons/robust")
        expect(page.locator('[data-role="runtime"]')).to_have_attribute(
            "data-state", "ready", timeout=BOOT_TIMEOUT)
        yield page


def blk(page, symbol):
    return page.locator(f'[data-loopstep-block="robust/{symbol}"]')


def status(b):
    return b.locator('[data-role="status"]')


def val(b, name):
    return b.locator(f'[data-role="variables"] [data-var="{name}"] [data-role="value"]')


def run_to_end(b, timeout=BOOT_TIMEOUT):
    press(b, "run")
    expect(b).to_have_attribute("data-state", ERROR_OR_FINISHED, timeout=timeout)


def expect_runtime_ready(page):
    expect(page.locator('[data-role="runtime"]')).to_have_attribute(
        "data-state", "ready", timeout=BOOT_TIMEOUT)


def test_never_ending_code_shows_the_partial_trace_up_to_the_step_limit(robust):
    b = blk(robust, "spin")
    timeline = b.locator('input[data-role="timeline"]')
    # Run: the recording stops at the page's cap and the block says so
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(status(b)).to_have_text(f"已达步数上限（{MAX_STEPS} 步），显示部分轨迹；"
                                   "提高上限：loopstep serve --max-steps N")   # issue 36
    expect(timeline).to_have_attribute("max", str(MAX_STEPS - 1))
    # every recorded step can be revisited: back from the end, then to the start
    press(b, "step-back")
    expect(b).to_have_attribute("data-state", "paused")
    expect(b.locator('[data-line][aria-current="step"]')).to_have_attribute("data-line", "4")
    expect(status(b)).to_have_text(re.compile(rf"^已暂停 第 4 行 · 已达步数上限（{MAX_STEPS} 步）"))
    last = int(val(b, "n").inner_text())
    assert last > MAX_STEPS // 3, last  # every round up to the cap was recorded
    slide_to(timeline, 0)
    expect(b.locator('[data-line][aria-current="step"]')).to_have_attribute("data-line", "2")
    expect(b.locator('[data-role="variables"] [data-var="n"]')).to_have_count(0)
    press(b, "step-over")
    expect(val(b, "n")).to_have_text("0")
    press(b, "step-back")
    expect(b.locator('[data-line][aria-current="step"]')).to_have_attribute("data-line", "2")
    expect(b.locator('[data-role="variables"] [data-var="n"]')).to_have_count(0)
    # Debug with a breakpoint: paused there, the cap named in the status
    press(b, "reset")
    toggle_breakpoint(b, 4)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused")
    expect(status(b)).to_have_text(re.compile(rf"^已暂停 第 4 行 · 已达步数上限（{MAX_STEPS} 步）"))
    assert len(robust.workers_seen) == 1


def test_code_stuck_in_c_is_stopped_by_the_watchdog_and_the_next_run_gets_a_fresh_worker(robust):
    stuck = blk(robust, "backtrack")
    press(stuck, "run")
    expect(stuck).to_have_attribute("data-state", "running")
    # the regex never yields: only the wall-clock watchdog can end it
    expect(stuck).to_have_attribute("data-state", "error", timeout=RECORD_TIMEOUT_S * 1000 + 10_000)
    expect(status(stuck)).to_have_text(
        f"运行 {RECORD_TIMEOUT_S} s 后仍未结束（可能卡在 C 代码里），已终止并重启 Python 运行时")
    expect(stuck.locator('button[data-action="debug"]')).to_be_enabled()
    expect_runtime_ready(robust)
    assert len(robust.workers_seen) == 2
    other = blk(robust, "hold")
    run_to_end(other)
    expect(other).to_have_attribute("data-state", "finished")
    expect(other.locator('[data-role="output"]')).to_have_text("1\n")
    assert len(robust.workers_seen) == 2


def test_endless_recursion_is_a_recursion_error_and_the_worker_lives_on(robust):
    for symbol in ("recurse", "descend"):  # plain, and through a builtin (map) in C
        b = blk(robust, symbol)
        run_to_end(b)
        expect(b).to_have_attribute("data-state", "error")
        expect(status(b)).to_have_text("出错：RecursionError: maximum recursion depth exceeded（第 2 行）")
        expect(b.locator('[data-line="2"]')).to_have_attribute("data-error", "true")
        output = b.locator('[data-role="output"]')
        expect(output).to_contain_text("RecursionError: maximum recursion depth exceeded")
        expect(output).not_to_contain_text("runtime/")  # the program's traceback, not ours
        # the trace down to the limit is there, one call and one line per frame at least
        press(b, "step-back")
        expect(b).to_have_attribute("data-state", "paused")
        assert int(b.locator('input[data-role="timeline"]').get_attribute("max")) > 2 * 300
    after = blk(robust, "markup")
    run_to_end(after)
    expect(after).to_have_attribute("data-state", "finished")
    assert len(robust.workers_seen) == 1  # no restart was needed


def test_a_list_nested_100000_deep_records_and_renders(robust):
    b = blk(robust, "hold")
    toggle_breakpoint(b, 4)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused")
    expect(status(b)).to_have_text("已暂停 第 4 行")
    # the recorder keeps four levels; the rest shows as elided
    for name in ("deep", "inner"):
        expect(val(b, name)).to_have_text("[[[[[…]]]]]")
    expect(val(b, "size")).to_have_text("1")
    row = b.locator('[data-role="variables"] [data-var="inner"]')
    assert row.locator("details").count() == 4  # the row's own tree, then levels 2 to 4
    row.locator("summary").first.click()
    expect(row.locator(".tree-value").first).to_have_text("[[[[…]]]]")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_have_text("1\n")


@pytest.mark.allow_console_errors  # Pyodide logs its fatal error to the console
def test_a_fatal_pyodide_error_restarts_the_worker_with_a_message(robust):
    b = blk(robust, "dump")  # raises the recursion limit, then json.dumps recurses in C
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "error")
    expect(status(b)).to_have_text(re.compile(r"^Python 运行时崩溃（.+），已重新启动；可以再次运行$"))
    expect_runtime_ready(robust)
    assert len(robust.workers_seen) == 2
    # the fresh worker records, with the safe recursion limit back in force
    again = blk(robust, "recurse")
    run_to_end(again)
    expect(status(again)).to_contain_text("RecursionError")
    after = blk(robust, "markup")
    run_to_end(after)
    expect(after).to_have_attribute("data-state", "finished")
    assert len(robust.workers_seen) == 2


TAG = '<img src=x onerror="window.__pwned=1">'
SCRIPT = "<script>window.__pwned=2</script>"


def test_markup_in_values_and_output_is_shown_as_text(robust):
    b = blk(robust, "markup")
    toggle_breakpoint(b, 6)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused")
    expect(val(b, "tag")).to_have_text(f"'{TAG}'")
    expect(val(b, "script")).to_have_text(f"'{SCRIPT}'")
    expect(val(b, "label")).to_have_text("'<b>bold?</b>'")
    output = b.locator('[data-role="output"]')
    expect(output).to_have_text(f"{TAG}\n{SCRIPT} <b>bold?</b>\n")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    expect(output).to_have_text(f"{TAG}\n{SCRIPT} <b>bold?</b>\n{TAG}\n")
    press(b, "step-back")
    expect(b.locator('[data-role="variables"] [data-special="return"] [data-role="value"]')) \
        .to_have_text(f"'{TAG}'")
    for pane in ('[data-role="variables"]', '[data-role="output"]'):
        assert b.locator(pane).locator("img, script, b").count() == 0, pane
    # no element but the output's own parts (block-view.js): the markup is text
    assert output.evaluate("o => [...o.querySelectorAll('*')].map((e) => e.outerHTML.split('>')[0])") \
        == ['<span class="output-part"']
    assert robust.locator("img").count() == 0
    assert robust.evaluate("() => window.__pwned") is None
