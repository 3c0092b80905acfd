"""A threaded agent in real Chromium (tests/threads_lesson.py: a command run in a
background thread): the worker finds the run wanting threads and records it again so that
its stacks can suspend (runtime/world/stacks.py); where the page's Python still cannot
(its memory snapshot was made without stack switching), the run does not end green with
the program's own `except Exception` hiding it — the block's status says the run stopped
with `ThreadsUnavailable` and why, and the output shows it. Runs against its own
`loopstep serve --lessons DIR`. Booted without the snapshot (the stock boot, as when the
fast boot set is broken), the page's Python can suspend: the threads run there and the
block prints what CPython prints."""
import re

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import press, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import press, wait_ready
import threads_lesson

from loopstep.runtime.recorder import record
from loopstep.web import assets


@pytest.fixture(scope="module")
def threads_server(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    threads_lesson.write_agent(lessons)
    with served(lessons) as proc:
        yield proc, lessons


def test_a_run_that_starts_a_thread_runs_it_or_says_why_not(
        browser_context, threads_server, request):
    server, lessons = threads_server
    cpython = record("bgagent", "all", "normal", roots=[lessons])
    with watched_page(browser_context, server.url, "/lessons/bgagent?lang=en",
                      request) as page:
        b = page.locator('[data-loopstep-block="bgagent/all"]')
        wait_ready(b)
        press(b, "run")
        output = b.locator('[data-role="output"]')
        ran = cpython["stdout"].strip()
        said = "threading.ThreadsUnavailable: this Python cannot start a thread"
        expect(output).to_contain_text(re.compile(f"{re.escape(ran)}|{re.escape(said)}"),
                                       timeout=60_000)
        status = b.locator('[data-role="status"]')
        if said in output.inner_text():
            expect(status).to_contain_text("ThreadsUnavailable")
            expect(status).to_contain_text("stack switching")
        else:
            expect(status).not_to_contain_text("Error")


def test_without_the_boot_snapshot_the_page_runs_the_threads(
        browser_context, threads_server, request):
    server, lessons = threads_server
    cpython = record("bgagent", "all", "normal", roots=[lessons])
    with watched_page(browser_context, server.url, None, request) as page:
        page.route(f"**/{assets.BOOT_DIR.name}/**", lambda route: route.fulfill(
            status=200, body=b"not a zip", content_type="application/zip"))
        page.goto(server.url + "/lessons/bgagent?lang=en")
        b = page.locator('[data-loopstep-block="bgagent/all"]')
        wait_ready(b)
        expect(page.locator("[data-boot]").first).to_have_attribute("data-boot", "stock")
        press(b, "run")
        expect(b.locator('[data-role="output"]')).to_have_text(cpython["stdout"].strip(),
                                                               timeout=60_000)
        expect(b.locator('[data-role="status"]')).to_have_text("Finished")
