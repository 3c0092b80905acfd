"""The lesson page's critical path stays small: the scripts fetched before "ready".

Every script the page and its worker fetch before the runtime is ready delays that moment
(docs/performance.md, "Critical path budget"). New views load on first use (dynamic
import), so they add nothing here; this test fails when the path grows past the budget.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

try:
    from .conftest import CHROMIUM_ARGS, chromium_path
    from .page_helpers import lesson_url
except ImportError:
    from conftest import CHROMIUM_ARGS, chromium_path
    from page_helpers import lesson_url

pytestmark = pytest.mark.hosting   # what the page fetches before it is ready: paths, preloads, caching

# Bytes (decoded) of the lesson page's own scripts fetched before the runtime is ready:
# the page's module graph and the worker's (since, one file each: the page's bundle). Pyodide's own files are the runtime,
# measured by bench/run.py, not counted here. 114,472 B on 2026-12-02 17:25, with the
# value, what-if and conversation views landed (docs/performance.md). A page with shipped
# traces debugs before its runtime is ready and so preloads Debug's path (trace.js,
# trace-cache.js, replay.js: 16,957 B) and boots the runtime after it: 143,268 B on
# 2026-12-03. Since, the page's modules are one minified file (scripts/build_page.py), its
# views loaded on first use included but not evaluated before then.
CRITICAL_SCRIPT_BUDGET = 150_000
RUNTIME_FILES = ("/vendor/pyodide-", "/vendor/loopstep-boot-")


def is_own_script(url: str) -> bool:
    path = urlsplit(url).path
    return path.endswith((".js", ".mjs")) and not any(part in path for part in RUNTIME_FILES)


def scripts_before_ready(playwright_instance, url: str) -> dict[str, int]:
    """Load `url` in a fresh browser (empty cache); {path: decoded bytes} of the own
    scripts requested until the runtime panel shows "ready"."""
    browser = playwright_instance.chromium.launch(executable_path=chromium_path(),
                                                  args=CHROMIUM_ARGS, headless=True)
    try:
        page = browser.new_page()
        requested = []
        page.on("request", lambda r: is_own_script(r.url) and requested.append(r))
        page.goto(url)
        runtime = page.locator('[data-role="runtime"]')
        expect(runtime).to_have_attribute("data-state", "ready", timeout=120_000)
        before_ready = list(requested)
        sizes = {}
        for request in before_ready:
            response = request.response()
            assert response is not None and response.ok, request.url
            sizes[urlsplit(request.url).path] = len(response.body())
        return sizes
    finally:
        browser.close()


def test_scripts_before_ready_fit_the_budget(playwright_instance, server_url, site_kind):
    sizes = scripts_before_ready(playwright_instance, lesson_url(server_url, site_kind))
    # the page's bundle is page-<digest>.js, the worker's worker-<digest>.js (scripts/build_page.py)
    names = {re.sub(r"-[a-zA-Z0-9]{8}\.js$", ".js", path.rsplit("/", 1)[-1]) for path in sizes}
    # the measurement sees the page's graph and the worker's (it would pass empty otherwise)
    assert {"page.js", "worker.js"} <= names, sorted(names)
    total = sum(sizes.values())
    listing = "\n".join(f"  {n:>7} B  {p}" for p, n in sorted(sizes.items(), key=lambda x: -x[1]))
    assert total <= CRITICAL_SCRIPT_BUDGET, (
        f"the lesson page fetches {total:,} B of scripts before its runtime is ready, over "
        f"the budget of {CRITICAL_SCRIPT_BUDGET:,} B: load new views on first use "
        f"(dynamic import()), docs/performance.md\n{listing}")
