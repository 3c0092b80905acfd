"""The page's script, its chunks, its sheet and the worker's script are named by their
content and cached for good where the host says so: `loopstep serve` and nginx with deploy/nginx/loopstep.conf
send them immutable, so a reader's next visit to a paused line fetches none of them again
(docs/performance.md, "Navigation to a paused line"). A static export on a plain file
server has no caching headers; there only the names are checked."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from playwright.sync_api import expect

from page_helpers import block, expect_paused_at, lesson_url

try:
    from .conftest import CHROMIUM_ARGS, chromium_path
except ImportError:
    from conftest import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.hosting   # caching headers: each host sends its own

LINK = "#b=run_subagent&s=normal&bp=15&step=6"   # Debug's path is loaded too
NAMED = re.compile(r"/static/js/bundle/(page|chunk|worker)-[A-Za-z0-9]+\.(js|css)$")


def bundle_files(page) -> dict[str, int]:
    """{path: transferSize} of the bundle's files this load fetched (0: from the cache)."""
    entries = page.evaluate("performance.getEntriesByType('resource')"
                            ".map((e) => [new URL(e.name).pathname, e.transferSize])")
    return {path: size for path, size in entries if "/static/js/bundle/" in path}


def test_the_bundle_is_cached_for_good_and_not_fetched_again(
        playwright_instance, server_url, site_kind, request):
    host = request.config.getoption("--site")
    browser = playwright_instance.chromium.launch(executable_path=chromium_path(),
                                                  args=CHROMIUM_ARGS, headless=True)
    try:
        page = browser.new_context().new_page()   # an empty cache
        headers = {}
        page.on("response", lambda r: "/static/js/bundle/" in r.url
                and headers.__setitem__(urlsplit(r.url).path, r.headers.get("cache-control", "")))
        runtime = page.locator('[data-role="runtime"]')
        page.goto(lesson_url(server_url, site_kind, hash=LINK))
        expect_paused_at(block(page, "run_subagent"), 15)
        expect(runtime).to_have_attribute("data-state", "ready", timeout=60_000)
        first = bundle_files(page)
        # the script, its sheet, Debug's path and the worker, each named by its content
        assert any(p.endswith(".css") for p in first) and len(first) >= 4, first
        assert any("/worker-" in p for p in first), first
        assert all(NAMED.search(path) for path in first), sorted(first)
        if host == "export":
            return   # Python's http.server sends no Cache-Control
        assert set(headers) >= set(first)
        for path in first:
            assert "immutable" in headers[path] and "max-age=31536000" in headers[path], (
                path, headers[path])
        page.reload()
        expect_paused_at(block(page, "run_subagent"), 15)
        expect(runtime).to_have_attribute("data-state", "ready", timeout=60_000)
        again = bundle_files(page)
        # what both loads used (a view loaded on first use may come later on either)
        common = set(first) & set(again)
        assert any(p.endswith(".css") for p in common) and any("/page-" in p for p in common)
        assert any("/worker-" in p for p in common), again
        assert all(again[path] == 0 for path in common), again   # all from the cache
    finally:
        browser.close()
