"""A watch never changes the run, on the page (real server, real Chromium): on the fixture
lesson `fixture_lessons/readonly`, watches that would consume the block's iterator
are shown as not evaluated and the output stays the run's; `len(items)` shows 3.
Runs against its own `loopstep serve --lessons fixture_lessons` in every pass."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, press, toggle_breakpoint
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, press, toggle_breakpoint

LESSONS = Path(__file__).resolve().parent / "fixture_lessons"
LESSON, BLOCK = "readonly", "take"
RETURN_LINE = 5   # return first, rest
CONSUMING = ["list(it)", "sorted(it)", "3 in it", "[x for x in it]", "next(it)"]


@pytest.fixture(scope="module")
def fixture_server():
    with served(LESSONS) as proc:
        yield proc


@pytest.fixture
def take(browser_context, fixture_server, request):
    with watched_page(browser_context, fixture_server.url, f"/lessons/{LESSON}", request) as page:
        b = page.locator(f'[data-loopstep-block="{LESSON}/{BLOCK}"]')
        expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        yield b


def type_watch(b, expression):
    """Type a watch expression into the watch form with the keyboard and press Enter."""
    field = b.locator('form[data-role="watch"] input[name="expression"]')
    field.focus()
    b.page.keyboard.type(expression)
    b.page.keyboard.press("Enter")
    expect(b.locator(f'[data-role="watches"] [data-watch="{expression}"]')).to_have_count(1)


def watch_value(b, expression):
    return b.locator(f'[data-role="watches"] [data-watch="{expression}"] [data-role="value"]')


def test_watches_that_would_consume_the_iterator_are_not_evaluated(take):
    for expression in CONSUMING + ["len(items)"]:
        type_watch(take, expression)
    toggle_breakpoint(take, RETURN_LINE)
    press(take, "debug")
    expect(take).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(take.locator('[data-var="rest"] [data-role="value"]')).to_have_text("[2, 3]")
    for expression in CONSUMING:
        verb = "advance" if expression.startswith("next") else "consume"
        expect(watch_value(take, expression)).to_contain_text(
            f"not evaluated: would {verb} the iterator `it`")
    expect(watch_value(take, "len(items)")).to_have_text("3")
    press(take, "continue")
    expect(take).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(take.locator('[data-role="output"]')).to_have_text("(1, [2, 3])\n")
