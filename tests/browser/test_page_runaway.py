"""Runaway runs on the page (issue 36): an agent whose model always asks for a tool and a
loop that prints forever end at the default caps, well inside the record watchdog, with
the cap named (and how to raise it) and the partial run steppable.

The lesson is `fixture_lessons/runaway` on a `loopstep serve` with the default limits."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, press, slide_to
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, press, slide_to

LESSONS = Path(__file__).resolve().parent / "fixture_lessons"


@pytest.fixture(scope="module")
def default_server():
    with served(LESSONS) as proc:
        yield proc


@pytest.fixture
def runaway(browser_context, default_server, request):
    with watched_page(browser_context, default_server.url, "/lessons/runaway", request) as page:
        expect(page.locator('[data-role="runtime"]')).to_have_attribute(
            "data-state", "ready", timeout=BOOT_TIMEOUT)
        yield page


def blk(page, symbol):
    return page.locator(f'[data-loopstep-block="runaway/{symbol}"]')


def status(b):
    return b.locator('[data-role="status"]')


def current_line(b):
    return b.locator('[data-line][aria-current="step"]')


def test_an_agent_that_never_stops_ends_at_the_model_call_cap_steppable(runaway):
    b = blk(runaway, "agent_loop")
    press(b, "run")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(status(b)).to_have_text(
        "已达模型调用上限（100 次），显示部分轨迹；提高上限：lesson.toml 里的 max_model_calls = N")
    timeline = b.locator('input[data-role="timeline"]')
    assert int(timeline.get_attribute("max")) > 1000   # a hundred rounds of the loop
    press(b, "step-back")
    expect(b).to_have_attribute("data-state", "paused")
    expect(current_line(b)).to_have_attribute("data-line", "4")   # the 101st model call
    expect(status(b)).to_have_text(re.compile(r"^已暂停 第 4 行 · 已达模型调用上限（100 次），轨迹不完整"))
    slide_to(timeline, 0)
    expect(current_line(b)).to_have_attribute("data-line", "2")


def test_a_loop_that_prints_forever_ends_at_the_default_step_cap(runaway):
    b = blk(runaway, "chatter")
    press(b, "run")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(status(b)).to_have_text(
        "已达步数上限（10000 步），显示部分轨迹；提高上限：loopstep serve --max-steps N")
    expect(b.locator('input[data-role="timeline"]')).to_have_attribute("max", "9999")
    press(b, "step-back")
    expect(status(b)).to_have_text(re.compile(r"^已暂停 第 \d 行 · 已达步数上限（10000 步）"))
