"""A threaded agent in real Chromium (tests/threads_lesson.py: a command run in a
background thread), on the page's default boot (its memory snapshot, made with stack
switching on: scripts/build_boot.mjs): the worker finds the run wanting threads and records
it again so that its stacks can suspend (runtime/world/stacks.py); the block prints what
CPython prints and says which thread ran the cursor's step (`data-thread`). In a browser
without stack switching (JSPI deleted from the worker's scope before Pyodide loads) the
block is not run: `[data-role="schedule-unsupported"]` says why. The replay of a team's
recording that ended with a teammate's call in flight (tests/test_in_flight.py) counts the
calls answered and lists that one under the conversation panel. Runs against its own
`loopstep serve --lessons DIR`."""
import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import (expect_paused_at, press, select_scenario, toggle_breakpoint,
                               wait_ready)
except ImportError:
    from conftest import served, watched_page
    from page_helpers import (expect_paused_at, press, select_scenario, toggle_breakpoint,
                              wait_ready)
import test_in_flight as in_flight
import threads_lesson

from loopstep.runtime.recorder import record

BACKGROUND_LINE = 14  # notifications.put(…), in the thread named "background"
# what a browser without JSPI lacks, taken from the worker's own scope before it runs
NO_JSPI = b"delete WebAssembly.Suspending; delete WebAssembly.Suspender; delete WebAssembly.promising;\n"


@pytest.fixture(scope="module")
def threads_server(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    threads_lesson.write_agent(lessons)
    in_flight.write(lessons, preset=True)
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


def test_a_call_in_flight_when_the_recording_ended_is_listed_apart(
        browser_context, threads_server, request):
    server, lessons = threads_server
    cpython = record("team", "agent_loop", "recorded", roots=[lessons])
    calls = cpython["agent"]["calls"]
    [flying] = cpython["agent"]["in_flight"]
    shown = sum(c["step"] <= flying["step"] for c in calls)   # the call shown there
    with watched_page(browser_context, server.url, "/lessons/team?lang=en", request) as page:
        b = page.locator('[data-loopstep-block="team/agent_loop"]')
        wait_ready(b)
        select_scenario(b, "recorded")
        press(b, "debug")
        expect(b).to_have_attribute("data-state", "paused", timeout=60_000)
        info = b.locator('[data-role="recording-info"]')
        expect(info).to_have_attribute("data-in-flight", "1")
        expect(info).to_contain_text(cpython["replay"]["note"])
        press(b, "next-call")   # the conversation pane shows from the first call on
        expect(b.locator('[data-role="status"]')).to_contain_text(f"model call 1 of {len(calls)}")
        box = b.locator('[data-role="in-flight"]')
        expect(box).to_be_visible()
        expect(box).to_have_attribute("data-count", "1")
        expect(box).to_contain_text("In flight when the run ended")
        item = box.locator(f'li[data-thread="{flying["thread"]}"]')
        expect(item).to_have_attribute("data-step", str(flying["step"]))
        item.locator("button").focus()
        page.keyboard.press("Enter")
        expect(b).to_have_attribute("data-drawn", str(flying["step"]))
        expect(b.locator('[data-role="status"]')).to_contain_text(
            f"model call {shown} of {len(calls)}")
