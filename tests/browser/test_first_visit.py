"""A first visit (empty cache, no storage): on a page that records in its worker
(`?trace=live`), the page's head script starts the runtime's two
big downloads before the worker runs and hands them over as they arrive; the worker
fetches the lesson's Python files as a bundle (the recorder's came with the snapshot), and
nothing twice. A later visit boots
from the snapshot too, read from the HTTP cache by the worker alone; so does a page with
shipped traces, whose worker starts once the page is interactive."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from loopstep.web import assets

try:
    from .conftest import CHROMIUM_ARGS, chromium_path
    from .page_helpers import block, lesson_url
except ImportError:
    from conftest import CHROMIUM_ARGS, chromium_path
    from page_helpers import block, lesson_url

pytestmark = pytest.mark.hosting   # an empty cache: the head's preloads and the files' caching headers

BOOT_SET = f"/vendor/{assets.BOOT_DIR.name}/"
SNAPSHOT = BOOT_SET + "snapshot.bin"
WASM = f"{assets.PYODIDE_URL}pyodide.asm.wasm"


def live_url(server_url: str, site_kind: str) -> str:
    """The lesson page recording every run in its worker (not from the shipped traces):
    these tests run what the worker they booted records."""
    return lesson_url(server_url, site_kind) + "?trace=live"


def first_visit(playwright_instance, url: str, route=None):
    """Open `url` in a fresh browser until the runtime is ready; yields (page, paths of
    every request made until then); `page.urls` has their whole URLs."""
    browser = playwright_instance.chromium.launch(executable_path=chromium_path(),
                                                  args=CHROMIUM_ARGS, headless=True)
    try:
        page = browser.new_page()
        if route:
            page.route(*route)
        requested = []
        page.urls = []
        page.on("request", lambda r: (requested.append(urlsplit(r.url).path),
                                      page.urls.append(r.url)))
        page.goto(url)
        runtime = page.locator('[data-role="runtime"]')
        expect(runtime).to_have_attribute("data-state", "ready", timeout=120_000)
        yield page, list(requested)
    finally:
        browser.close()


def page_fetches(page) -> list[str]:
    """What the document itself fetched (the worker's requests are not in its timeline)."""
    return page.evaluate("performance.getEntriesByType('resource')"
                         ".filter((e) => e.initiatorType === 'fetch')"
                         ".map((e) => new URL(e.name).pathname)")


def test_the_page_downloads_the_snapshot_and_the_worker_boots_from_it(
        playwright_instance, server_url, site_kind):
    for page, requested in first_visit(playwright_instance, live_url(server_url, site_kind)):
        runtime = page.locator('[data-role="runtime"]')
        expect(runtime).to_have_attribute("data-boot", "snapshot")
        assert {SNAPSHOT, WASM} <= set(page_fetches(page))
        assert requested.count(SNAPSHOT) == 1
        # the boot set is served as immutable: each of its URLs names the set's version
        # (the shipped traces in its traces/ carry their lesson's version instead)
        versions = [parse_qs(urlsplit(u).query).get("v") for u in page.urls
                    if urlsplit(u).path.startswith(BOOT_SET)
                    and not urlsplit(u).path.startswith(BOOT_SET + "traces/")]
        assert len(versions) >= 2 and all(v == [assets.BOOT_VERSION] for v in versions)
        # the lesson's files; the recorder came with the snapshot: its files are not fetched
        sources = [p for p in requested if p.startswith(("/py/", "/static/pyc/"))]
        assert sources == ["/py/bundles/lessons/s06.bin"]
        expect(runtime).to_have_attribute("data-recorder", "snapshot")
        tools = block(page, "child_tools")
        tools.locator('button[data-action="run"]').click()
        expect(tools.locator('[data-role="output"]')).to_have_text("完成： 只读工具已选出\n")
        expect(tools).to_have_attribute("data-trace", "live")


def test_a_snapshot_that_does_not_arrive_leaves_the_trimmed_boot(
        playwright_instance, server_url, site_kind):
    missing = (lambda url: urlsplit(url).path == SNAPSHOT,
               lambda route: route.fulfill(status=404, body=b"gone"))
    for page, requested in first_visit(playwright_instance, live_url(server_url, site_kind),
                                       missing):
        expect(page.locator('[data-role="runtime"]')).to_have_attribute("data-boot", "trimmed")
        assert requested.count(SNAPSHOT) == 1     # asked for once, by the page
        tools = block(page, "child_tools")
        tools.locator('button[data-action="run"]').click()
        expect(tools.locator('[data-role="output"]')).to_have_text("完成： 只读工具已选出\n")
        expect(tools).to_have_attribute("data-trace", "live")


def test_a_second_visit_boots_from_the_cached_snapshot_without_the_head_start(
        playwright_instance, server_url, site_kind):
    for page, _ in first_visit(playwright_instance, live_url(server_url, site_kind)):
        page.reload()
        runtime = page.locator('[data-role="runtime"]')
        expect(runtime).to_have_attribute("data-state", "ready", timeout=120_000)
        expect(runtime).to_have_attribute("data-boot", "snapshot")
        assert SNAPSHOT not in page_fetches(page)   # the page left the boot to the worker
        tools = block(page, "child_tools")
        tools.locator('button[data-action="run"]').click()
        expect(tools.locator('[data-role="output"]')).to_have_text("完成： 只读工具已选出\n")
        expect(tools).to_have_attribute("data-trace", "live")


def test_a_page_with_shipped_traces_leaves_the_big_downloads_to_the_worker(
        playwright_instance, server_url, site_kind):
    # its presets debug from the shipped traces: the page's main thread stays free for the
    # reader's first clicks, and the worker, started once the page is interactive, fetches
    # the snapshot and the wasm itself and still boots from the snapshot
    for page, requested in first_visit(playwright_instance, lesson_url(server_url, site_kind)):
        runtime = page.locator('[data-role="runtime"]')
        expect(runtime).to_have_attribute("data-boot", "snapshot")
        fetched = page_fetches(page)
        assert SNAPSHOT not in fetched and WASM not in fetched, fetched
        assert requested.count(SNAPSHOT) == 1 and WASM in requested
