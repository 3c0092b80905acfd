"""A threaded agent in real Chromium (tests/threads_lesson.py: a command run in a
background thread), on the page's default boot (its memory snapshot, made with stack
switching on: scripts/build_boot.mjs): the worker finds the run wanting threads and records
it again so that its stacks can suspend (runtime/world/stacks.py); the block prints what
CPython prints and says which thread ran the cursor's step (`data-thread`). In a browser
without stack switching (JSPI deleted from the worker's scope before Pyodide loads) the
block is not run: `[data-role="schedule-unsupported"]` says why. Runs against its own
`loopstep serve --lessons DIR`."""
import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import expect_paused_at, press, toggle_breakpoint, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import expect_paused_at, press, toggle_breakpoint, wait_ready
import threads_lesson

from loopstep.runtime.recorder import record

BACKGROUND_LINE = 14  # notifications.put(…), in the thread named "background"
# what a browser without JSPI lacks, taken from the worker's own scope before it runs
NO_JSPI = b"delete WebAssembly.Suspending; delete WebAssembly.Suspender; delete WebAssembly.promising;\n"


@pytest.fixture(scope="module")
def threads_server(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    threads_lesson.write_agent(lessons)
    with served(lessons) as proc:
        yield proc, lessons


def test_a_threaded_run_steps_on_the_default_boot(browser_context, threads_server, request):
    server, lessons = threads_server
    cpython = record("bgagent", "all", "normal", roots=[lessons])
    with watched_page(browser_context, server.url, "/lessons/bgagent?lang=en",
                      request) as page:
        b = page.locator('[data-loopstep-block="bgagent/all"]')
        wait_ready(b)
        expect(page.locator("[data-boot]").first).to_have_attribute("data-boot", "snapshot")
        press(b, "run")
        expect(b.locator('[data-role="output"]')).to_have_text(cpython["stdout"].strip(),
                                                               timeout=60_000)
        expect(b.locator('[data-role="status"]')).to_have_text("Finished")
        expect(b).not_to_have_attribute("data-thread", "MainThread")  # no cursor step
        press(b, "debug")
        expect(b).to_have_attribute("data-state", "paused")
        expect(b).to_have_attribute("data-thread", "MainThread")
        toggle_breakpoint(b, BACKGROUND_LINE)
        press(b, "continue")
        expect_paused_at(b, BACKGROUND_LINE)
        expect(b).to_have_attribute("data-thread", "background")
        expect(b.locator('[data-role="schedule-unsupported"]')).to_have_count(0)


def test_without_stack_switching_the_block_says_so_instead_of_running(
        browser_context, threads_server, request):
    server, _lessons = threads_server
    with watched_page(browser_context, server.url, None, request) as page:
        def without_jspi(route):
            response = route.fetch()
            route.fulfill(response=response, body=NO_JSPI + response.body())
        page.route("**/js/bundle/worker-*.js", without_jspi)
        page.goto(server.url + "/lessons/bgagent?lang=en")
        b = page.locator('[data-loopstep-block="bgagent/all"]')
        wait_ready(b)
        press(b, "run")
        note = b.locator('[data-role="schedule-unsupported"]')
        expect(note).to_contain_text("JSPI", timeout=60_000)
        expect(b).to_have_attribute("data-state", "error")
        expect(b.locator('[data-role="status"]')).to_contain_text("cannot suspend Python stacks")
        expect(b.locator('[data-role="output"]')).to_have_text("")
        # the runtime is still there for the next run
        expect(b.locator('button[data-action="run"]')).to_be_enabled()
