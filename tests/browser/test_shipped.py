"""Shipped traces in real Chromium (web/shipped_traces.py): a preset is debugged from the
build's recording before the runtime is ready; what needs a new recording (a custom
setup, a watch, a recording that does not load) is recorded live once it is."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from page_helpers import (BOOT_TIMEOUT, action, add_watch, block, compare_with, drawn,
                          expect_paused_at, lesson_url, open_lesson, pause_at, press,
                          press_and_draw, replace_in_editor)
from loopstep.web import assets

try:
    from .conftest import CHROMIUM_ARGS, chromium_path
except ImportError:
    from conftest import CHROMIUM_ARGS, chromium_path

# `hosting` (also run on the export and on nginx): shipped traces as files (paths,
# compression, a 404's fallback); the rest is the page's own.

CALL_LINE = 15  # run_subagent: outcome = run_loop(...)
WASM = f"{assets.PYODIDE_URL}pyodide.asm.wasm"
TRACES = f"/vendor/{assets.BOOT_DIR.name}/traces/s06/"


@pytest.mark.hosting
def test_debug_pauses_from_the_shipped_recording_before_the_runtime_is_ready(
        playwright_instance, server_url, site_kind):
    browser = playwright_instance.chromium.launch(executable_path=chromium_path(),
                                                  args=CHROMIUM_ARGS, headless=True)
    try:
        context = browser.new_context()  # a fresh profile
        held = []
        # the wasm is held until the shipped run is shown: the runtime cannot be ready
        is_wasm = lambda url: urlsplit(url).path == WASM  # noqa: E731
        hold = lambda route: held.append(route)  # noqa: E731
        context.route(is_wasm, hold)
        page = context.new_page()
        traces = []
        page.on("request", lambda r: urlsplit(r.url).path.startswith(TRACES)
                and traces.append(r.url))
        page.goto(lesson_url(server_url, site_kind))
        b = block(page, "run_subagent")
        runtime = page.locator('[data-role="runtime"]')
        expect(action(b, "debug")).to_be_enabled()
        pause_at(b, CALL_LINE)
        expect(b).to_have_attribute("data-trace", "shipped")
        expect(b.locator('[data-var="restricted"] [data-role="value"]')).to_contain_text(
            "'read_file'")
        press(b, "step-over")
        expect_paused_at(b, CALL_LINE + 2)
        expect(runtime).not_to_have_attribute("data-state", "ready")
        # the shown presets' traces, preloaded from the head, each fetched once
        paths = sorted(urlsplit(u).path.removeprefix(TRACES) for u in traces)
        assert paths == ["child_tools/normal.json", "run_subagent/normal.json",
                         "task_result/normal.json"], traces
        assert all(re.search(r"\?v=[0-9a-f]{16}$", u) for u in traces), traces

        for route in held:
            route.continue_()
        context.unroute(is_wasm, hold)
        expect(runtime).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        press(b, "edit-setup")
        replace_in_editor(b, "index<2", "index<9")
        press(b, "run-custom")  # stops at the breakpoint, recorded live
        # the shipped run stays shown, paused, until Run custom has its setup (encoded for the
        # URL first): what is read next is the live run's
        expect(b).to_have_attribute("data-trace", "live", timeout=BOOT_TIMEOUT)
        expect_paused_at(b, CALL_LINE)
        press(b, "continue")
        expect(b).to_have_attribute("data-state", "finished")
        expect(b.locator('[data-role="output"]')).to_have_text("完成： call_limit\n")
    finally:
        browser.close()


@pytest.mark.hosting
@pytest.mark.allow_console_errors  # the browser logs the 404
def test_a_missing_shipped_recording_is_recorded_live(page, server_url, site_kind):
    page.route(lambda url: urlsplit(url).path.startswith(TRACES),
               lambda route: route.fulfill(status=404, body="gone"))
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    pause_at(b, CALL_LINE)
    expect(b).to_have_attribute("data-trace", "live")
    expect(b.locator('[data-var="restricted"] [data-role="value"]')).to_contain_text(
        "'read_file'")


def test_a_watch_is_answered_by_a_live_recording(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    pause_at(b, CALL_LINE)
    expect(b).to_have_attribute("data-trace", "shipped")
    add_watch(b, "len(restricted)")
    expect(b).to_have_attribute("data-trace", "live", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="watches"] [data-watch="len(restricted)"] [data-role="value"]')
           ).to_have_text("1")


def test_a_lazy_page_boots_its_runtime_on_first_need(page, server_url, site_kind):
    page.goto(lesson_url(server_url, site_kind) + "?runtime=lazy")
    b = block(page, "run_subagent")
    runtime = page.locator('[data-role="runtime"]')
    pause_at(b, CALL_LINE)
    expect(b).to_have_attribute("data-trace", "shipped")
    expect(page.locator("html")).to_have_attribute("data-runtime", "lazy")
    expect(runtime).not_to_have_attribute("data-state", re.compile("loading|ready"))
    add_watch(b, "len(restricted)")
    expect(b).to_have_attribute("data-trace", "live", timeout=BOOT_TIMEOUT)
    expect(runtime).to_have_attribute("data-state", "ready")


def views(b) -> str:
    """The block's whole DOM (code gutter, variables, output, stack, timeline, conversation
    panel, history, comparison) but where its run came from."""
    return b.evaluate("""root => {
        const copy = root.cloneNode(true);
        delete copy.dataset.trace;
        return copy.outerHTML;
    }""")


def walk(page, server_url, site_kind, query: str) -> tuple[str, list[str]]:
    """Debug run_subagent's "normal" preset, step, open a history and the comparison with
    "limit"; returns where the run came from and the block's DOM at each stop, each read
    once what it shows is drawn whole: the step (`data-drawn` names it, every view of the
    run attached), the history of `outcome`, the comparison with "limit" (`ready`)."""
    page.goto(lesson_url(server_url, site_kind) + query)
    b = block(page, "run_subagent")
    shown = []

    def keep():
        drawn(b)
        shown.append(views(b))

    pause_at(b, CALL_LINE)
    recording = b.get_attribute("data-trace")
    keep()
    # the agent views are among what is drawn (their module loads with the first run)
    expect(b.locator('[data-role="timeline-marks"] [data-mark="model"]').first).to_be_attached()
    for command in ("step-into", "step-into", "step-over", "step-out", "step-back"):
        press_and_draw(b, command)
        expect(b).to_have_attribute("data-state", "paused")
        keep()
    for _ in range(20):  # every later hit of the breakpoint, then the end
        if press_and_draw(b, "continue") == "end":
            expect(b).to_have_attribute("data-state", "finished")
            keep()
            break
        expect(b).to_have_attribute("data-state", "paused")
        keep()
    expect(b).to_have_attribute("data-state", "finished")
    press_and_draw(b, "step-back")
    expect(b).to_have_attribute("data-state", "paused")
    b.locator('[data-var="outcome"] button[data-action="history"]').click()
    expect(b.locator('[data-role="history"]')).to_have_attribute("data-var", "outcome")
    keep()
    comparison = compare_with(b, "limit")
    expect(comparison.locator('[data-role="divergence"]')).to_have_count(1)
    keep()
    return recording, shown


def test_a_shipped_and_a_live_recording_show_the_same(page, server_url, site_kind):
    shipped, from_shipped = walk(page, server_url, site_kind, "")
    live, from_live = walk(page, server_url, site_kind, "?trace=live")
    assert (shipped, live) == ("shipped", "live")
    assert len(from_shipped) == len(from_live) >= 9
    for k, (a, b) in enumerate(zip(from_shipped, from_live)):
        assert a == b, f"stop {k} differs"


def test_a_value_tree_opened_before_the_runtime_is_ready_stays_open(page, server_url, site_kind):
    """The block is drawn again when its runtime gets ready; the variables of the step
    shown are not: a tree the reader opened stays open."""
    held = []
    is_wasm = lambda url: urlsplit(url).path == WASM  # noqa: E731
    page.route(is_wasm, lambda route: held.append(route))
    page.goto(lesson_url(server_url, site_kind))
    b = block(page, "run_subagent")
    runtime = page.locator('[data-role="runtime"]')
    pause_at(b, CALL_LINE)
    press(b, "step-over")
    expect_paused_at(b, CALL_LINE + 2)
    expect(b).to_have_attribute("data-trace", "shipped")
    b.locator('[data-var="outcome"] > details > summary').click()
    key = b.locator('[data-var="outcome"] .tree-key').first
    expect(key).to_be_visible()
    expect(runtime).not_to_have_attribute("data-state", "ready")
    for route in held:
        route.continue_()
    expect(runtime).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-var="outcome"] > details')).to_have_attribute("open", "")
    expect(key).to_be_visible()
