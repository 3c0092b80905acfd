"""A reader's clicks before the page's script has wired the blocks are kept and replayed
(web/static/js/boot/runtime-early.js keeps them, page.js replays them): a gutter and Debug
pressed on the first paint still pause the block at that line."""
from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from page_helpers import action, block, expect_paused_at, gutter, lesson_url
from loopstep.web import module_graph

LINE = 15
SCRIPT = "/static/js/" + module_graph.page_script()


def test_a_breakpoint_and_debug_pressed_before_the_script_arrives_pause_there(
        page, server_url, site_kind):
    held = []
    page.route(lambda url: urlsplit(url).path.endswith(SCRIPT), lambda route: held.append(route))
    page.goto(lesson_url(server_url, site_kind), wait_until="commit")
    b = block(page, "run_subagent")
    expect(gutter(b, LINE)).to_be_visible()
    gutter(b, LINE).press("Enter")
    action(b, "debug").press("Enter")
    assert held, "the page's script was requested and is held"
    # nothing wired them yet: the clicks are only kept
    assert page.evaluate("window.loopstepEarlyClicks !== undefined")
    expect(b).not_to_have_attribute("data-state", "paused")
    for route in held:
        route.continue_()
    expect_paused_at(b, LINE)
    expect(gutter(b, LINE)).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.loopstepEarlyClicks === undefined")


def test_clicks_after_the_page_is_wired_are_not_replayed_again(page, server_url, site_kind):
    page.goto(lesson_url(server_url, site_kind))
    b = block(page, "child_tools")
    expect(b).not_to_have_attribute("data-state", "idle")
    assert page.evaluate("window.loopstepEarlyClicks === undefined")
    gutter(b, 3).press("Enter")
    expect(gutter(b, 3)).to_have_attribute("aria-pressed", "true")
