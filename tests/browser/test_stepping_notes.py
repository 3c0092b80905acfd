"""Where the cursor stops, said where a newcomer would not guess it (issue 36): Debug with
no breakpoint pauses at the block's first executed line (as Thonny does); Step into over
a call of a function the block does not show runs it as one step, and says so."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from loopstep.runtime.recorder import record

try:
    from .page_helpers import (block, expect_paused_at, open_lesson, press, select_scenario,
                               toggle_breakpoint, wait_ready)
except ImportError:
    from page_helpers import (block, expect_paused_at, open_lesson, press, select_scenario,
                              toggle_breakpoint, wait_ready)


def status(b):
    return b.locator('[data-role="status"]')


def first_line(block_id, scenario):
    """The first line CPython's recording stops on (a call step is no place to stop)."""
    steps = record("s06", block_id, scenario)["steps"]
    return next(step["line"] for step in steps if step["event"] != "call")


def test_debug_without_a_breakpoint_pauses_at_the_first_executed_line(page, server_url):
    open_lesson(page, server_url)
    b = block(page, "run_subagent")
    wait_ready(b)
    press(b, "debug")
    line = first_line("run_subagent", "normal")
    expect_paused_at(b, line)
    expect(status(b)).to_have_text(f"已暂停 第 {line} 行 · 没有断点，调试停在第一行")
    press(b, "step-over")
    expect(status(b)).not_to_contain_text("没有断点")
    # with a breakpoint, Debug stops there, not at the first line
    select_scenario(b, "limit")
    toggle_breakpoint(b, 8)
    press(b, "debug")
    expect_paused_at(b, 8)
    expect(status(b)).to_have_text("已暂停 第 8 行")


def test_step_into_a_function_the_block_does_not_show_steps_over_it_and_says_why(
        page, server_url):
    open_lesson(page, server_url, lang="en")
    b = block(page, "run_subagent")
    wait_ready(b)
    toggle_breakpoint(b, 7)   # restricted = child_tools(tools): another block's function
    press(b, "debug")
    expect_paused_at(b, 7)
    press(b, "step-into")
    expect_paused_at(b, 8)
    expect(status(b)).to_have_text("Paused at line 8 · child_tools is not shown in this "
                                   "block, so Step into ran it as one step")
    # into a lambda the block shows, on the run_loop line: entered, no note
    toggle_breakpoint(b, 15)
    press(b, "continue")
    expect_paused_at(b, 15)
    press(b, "step-into")
    expect(status(b)).to_have_text(re.compile(r"^Paused at line 15 · model call 1 of 3$"))
    expect(b.locator('[data-role="stack"]')).to_contain_text("<lambda>")
