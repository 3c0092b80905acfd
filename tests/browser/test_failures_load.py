"""Contained failures: a Pyodide that cannot load shows an error quickly, never hangs.

The wasm of the bundled Pyodide is replaced through `page.route` with a 404, the
right bytes served as text/plain, corrupt bytes, or no answer at all. The page under
test is the fixture lesson `fixture_lessons/robust` on a `loopstep serve` with a
short boot timeout, and for the last case, which waits for it, on one with a shorter
one still. The boot timeout reaches the page only through `serve`, and the page and
worker code under test are the same files in an export, whose host never answers the
routed requests: so these tests are not among the `hosting` ones (`make test` runs them
once, not again against each host). Routing a request also keeps Chromium's HTTP cache
out of the way.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from loopstep.web import assets

try:
    from .conftest import PageWatch, ServerProcess
except ImportError:
    from conftest import PageWatch, ServerProcess

LESSONS = Path(__file__).resolve().parent / "fixture_lessons"
WASM = f"**{assets.PYODIDE_URL}pyodide.asm.wasm"
BOOT_TIMEOUT_S = 12
# A detected failure must show well before the boot timeout would have fired.
FAST_MS = 8_000
# The case that waits for the timeout waits for this one: long enough to see the page load.
WAITED_TIMEOUT_S = 5


def boot_server(timeout_s):
    proc = ServerProcess(["--lessons", str(LESSONS), "--boot-timeout", str(timeout_s)])
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def load_server():
    yield from boot_server(BOOT_TIMEOUT_S)


@pytest.fixture(scope="module")
def short_timeout_server():
    yield from boot_server(WAITED_TIMEOUT_S)


def new_page(browser_context, server):
    page = browser_context.new_page()
    watch = PageWatch(page, server.url)
    yield page
    page.close()
    assert not watch.off_origin(), watch.off_origin()


@pytest.fixture
def fresh_page(browser_context, load_server):
    yield from new_page(browser_context, load_server)


@pytest.fixture
def short_timeout_page(browser_context, short_timeout_server):
    yield from new_page(browser_context, short_timeout_server)


def not_found(route):
    route.fulfill(status=404, content_type="text/plain", body="not found")


def as_text(route):
    response = route.fetch()
    headers = {k: v for k, v in response.headers.items()
               if k.lower() not in ("content-type", "content-encoding", "content-length")}
    route.fulfill(status=200, headers=headers, content_type="text/plain", body=response.body())


def corrupt(route):
    # the wasm magic and version, then bytes that are no valid section
    route.fulfill(status=200, content_type="application/wasm",
                  body=b"\0asm\x01\0\0\0" + bytes(range(256)) * 64)


def expect_runtime_failed(page, message, timeout_ms):
    """The runtime panel and every block in error saying why (`message`, its start),
    every control disabled."""
    runtime = page.locator('[data-role="runtime"]')
    expect(runtime).to_have_attribute("data-state", "error", timeout=timeout_ms)
    expect(runtime).to_contain_text(f"Python 运行时加载失败：{message}")
    blocks = page.locator("[data-loopstep-block]")
    assert blocks.count() >= 6
    for i in range(blocks.count()):
        b = blocks.nth(i)
        expect(b).to_have_attribute("data-state", "error")
        expect(b.locator('[data-role="status"]')).to_have_text(
            re.compile("^" + re.escape(f"Python 运行时加载失败：{message}")))
        for button in b.locator("button[data-action]").all():
            expect(button).to_be_disabled()


@pytest.mark.allow_console_errors
@pytest.mark.parametrize("handler, message", [
    (not_found, "pyodide.asm.wasm: HTTP 404"),
    (as_text, "pyodide.asm.wasm: served as text/plain, not application/wasm"),
    (corrupt, "pyodide.asm.wasm: WebAssembly."),
], ids=["missing", "wrong-mime", "corrupt"])
def test_a_wasm_that_cannot_load_fails_fast_with_a_visible_error(fresh_page, load_server,
                                                                  handler, message):
    fresh_page.route(WASM, handler)
    fresh_page.goto(load_server.url + "/lessons/robust")
    # The message names the cause; the boot timeout's would name BOOT_TIMEOUT_S instead.
    expect_runtime_failed(fresh_page, message, FAST_MS)


@pytest.mark.allow_console_errors
def test_a_wasm_that_never_arrives_fails_at_the_boot_timeout(short_timeout_page,
                                                              short_timeout_server):
    held = []
    short_timeout_page.route(WASM, lambda route: held.append(route))  # never answered
    short_timeout_page.goto(short_timeout_server.url + "/lessons/robust")
    expect(short_timeout_page.locator('[data-loopstep-block="robust/spin"]')).to_have_attribute(
        "data-state", "loading")
    expect_runtime_failed(short_timeout_page, f"{WAITED_TIMEOUT_S} s",
                          WAITED_TIMEOUT_S * 1000 + 10_000)
    assert held, "the wasm request was not held"
