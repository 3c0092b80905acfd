"""Blocks of several functions and whole files in real Chromium (`fixture_lessons/symbols`):
`symbols = ["outer", "inner"]` shows both functions numbered with the file's lines and
the function between them as a gap row; a breakpoint inside `inner` pauses there with
its locals and the stack outer → inner; step into from outer's call line enters inner;
`symbols = ["*"]` steps the module's own statements. Served as --site asks (the app,
an export on http.server, or nginx)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import PageWatch, site_of
    from .page_helpers import (BOOT_TIMEOUT, expect_paused_at, gutter, press, run_to_end,
                               toggle_breakpoint, value)
except ImportError:
    from conftest import PageWatch, site_of
    from page_helpers import (BOOT_TIMEOUT, expect_paused_at, gutter, press, run_to_end,
                              toggle_breakpoint, value)

LESSONS = Path(__file__).resolve().parent / "fixture_lessons"
SOURCE = (LESSONS / "symbols" / "code.py").read_text("utf-8").split("\n")
PAIR = [*range(6, 10), *range(16, 22)]   # inner's lines, then outer's (keep is elided)


@pytest.fixture(scope="module")
def symbols_site(request):
    site = site_of(request.config.getoption("--site"), LESSONS)
    yield site
    site.stop()


@pytest.fixture
def lesson(browser_context, symbols_site, request):
    page = browser_context.new_page()
    watch = PageWatch(page, symbols_site.url)
    exported = request.config.getoption("--site") != "server"
    page.goto(f"{symbols_site.url}/lessons/symbols" + ("/" if exported else ""))
    for name in ("outer", "code"):
        expect(block(page, name)).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    yield page
    page.close()
    watch.check(request)


def block(page, name):
    return page.locator(f'[data-loopstep-block="symbols/{name}"]')


def numbers(locator, attribute):
    found = locator.evaluate_all(f"els => els.map(e => e.getAttribute('{attribute}'))")
    return [int(n) for n in found]


def stack_names(b):
    return b.locator('[data-role="stack"] [data-frame]:not([data-hidden="true"])').evaluate_all(
        "els => els.map(e => e.dataset.frame)")


def test_gutter_and_lines_are_the_files_with_a_gap_row(lesson):
    pair = block(lesson, "outer")
    assert numbers(pair.locator("button[data-gutter]"), "data-gutter") == PAIR
    assert numbers(pair.locator("[data-line]"), "data-line") == PAIR
    for n in PAIR:
        expect(pair.locator(f'[data-line="{n}"]')).to_have_text(SOURCE[n - 1])
        expect(gutter(pair, n)).to_have_text(str(n))
    gap = pair.locator('[data-role="gap"]')
    expect(gap).to_have_count(1)
    expect(gap).to_contain_text("⋯")
    expect(gap).to_have_attribute("data-from", "10")
    expect(gap).to_have_attribute("data-to", "15")
    whole = block(lesson, "code")
    assert numbers(whole.locator("[data-line]"), "data-line") == list(range(1, len(SOURCE)))
    expect(whole.locator('[data-role="gap"]')).to_have_count(0)


def test_a_breakpoint_in_inner_pauses_there_with_its_locals_and_stack(lesson):
    pair = block(lesson, "outer")
    gutter(pair, 8).focus()
    lesson.keyboard.press("Enter")
    expect(gutter(pair, 8)).to_have_attribute("aria-pressed", "true")
    press(pair, "debug")
    expect_paused_at(pair, 8)
    expect(value(pair, "task")).to_have_text("'x'")
    expect(value(pair, "depth")).to_have_text("0")
    expect(value(pair, "note")).to_have_text("'x@0'")
    expect(pair.locator('[data-role="variables"] [data-var]')).to_have_count(3)
    assert stack_names(pair) == ["outer", "inner"]
    innermost = pair.locator('[data-role="stack"] [data-frame]').last
    expect(innermost).to_have_attribute("data-frame", "inner")
    # the stage's lines are file lines too
    expect(lesson.locator('[data-stage="hand-off"]')).to_have_attribute("aria-current", "true")
    press(pair, "continue")
    expect(value(pair, "note")).to_have_text("'y@1'")
    assert stack_names(pair) == ["outer", "inner"]


def test_step_into_from_outers_call_line_enters_inner(lesson):
    pair = block(lesson, "outer")
    toggle_breakpoint(pair, 19)
    press(pair, "debug")
    expect_paused_at(pair, 19)
    assert stack_names(pair) == ["outer"]
    expect(value(pair, "task")).to_have_text("'x'")
    press(pair, "step-into")
    expect_paused_at(pair, 7)
    assert stack_names(pair) == ["outer", "inner"]
    expect(value(pair, "depth")).to_have_text("0")
    press(pair, "step-out")
    expect_paused_at(pair, 9)   # inner's return: its value shows before outer goes on
    expect(pair.locator('[data-special="return"] [data-role="value"]')).to_have_text("'X@0'")
    press(pair, "step-over")
    expect_paused_at(pair, 20)
    expect(value(pair, "answer")).to_have_text("'X@0'")


def test_the_whole_file_steps_its_module_statements(lesson):
    whole = block(lesson, "code")
    toggle_breakpoint(whole, 25)
    press(whole, "debug")
    expect_paused_at(whole, 25)
    expect(value(whole, "name")).to_have_text("'a'")
    expect(value(whole, "BUDGET")).to_have_text("2")
    assert stack_names(whole) == ["<module>"]
    press(whole, "continue")
    expect_paused_at(whole, 25)
    expect(value(whole, "name")).to_have_text("'b'")
    expect(value(whole, "log")).to_have_text("['a']")
    press(whole, "step-over")
    expect_paused_at(whole, 24)
    press(whole, "step-over")
    expect_paused_at(whole, 26)
    expect(value(whole, "log")).to_have_text("['a', 'b']")
    run_to_end(whole)
    expect(whole).to_have_attribute("data-state", "finished")
    expect(whole.locator('[data-role="output"]')).to_have_text("loaded 2\n")


def test_the_url_names_the_block_by_its_id_and_restores_it(lesson, symbols_site, request):
    pair = block(lesson, "outer")
    toggle_breakpoint(pair, 8)
    press(pair, "debug")
    expect_paused_at(pair, 8)
    expect(lesson).to_have_url(re.compile(r"#b=outer(&s=normal)?&bp=8&step=\d+"))
    url = lesson.url
    lesson.goto("about:blank")
    lesson.goto(url)
    restored = block(lesson, "outer")
    expect_paused_at(restored, 8)
    expect(gutter(restored, 8)).to_have_attribute("aria-pressed", "true")
    expect(value(restored, "note")).to_have_text("'x@0'")
