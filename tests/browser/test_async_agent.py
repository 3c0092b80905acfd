"""An async agent in real Chromium (tests/async_lesson.py): `asyncio.run` runs in the
page's Python; a breakpoint on an await in a task pauses there, the stack pane showing the
task and the task awaiting it; the conversation panel and the timeline marks show the
awaited model calls; the threads pane lists the run's tasks with their states, the block
and the switch marks name the task of a step (contract, "Threads and tasks"); step over
the await stays in that task (the other tool's task runs meanwhile); a breakpoint after
`await asyncio.gather(…)` pauses in the loop with both results. Runs against its own
`loopstep serve --lessons DIR`."""
import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import (expect_paused_at, gutter, press, toggle_breakpoint, value,
                               wait_ready)
except ImportError:
    from conftest import served, watched_page
    from page_helpers import (expect_paused_at, gutter, press, toggle_breakpoint, value,
                              wait_ready)
from async_lesson import line_of, make_lesson

AWAIT_TOOL = line_of("output = await handler(**block.input)")
AFTER_TOOL = line_of('return {"type": "tool_result", "tool_use_id": block.id, "content": output}')
AFTER_GATHER = line_of('messages.append({"role": "user", "content": list(results)})')


@pytest.fixture(scope="module")
def async_server(tmp_path_factory):
    with served(make_lesson(tmp_path_factory.mktemp("lessons"))) as proc:
        yield proc


def frames(b, selector):
    return b.locator(f'[data-role="stack"] {selector}').evaluate_all(
        "els => els.map(e => e.dataset.frame)")


def test_an_async_agent_pauses_in_its_tasks_and_shows_its_model_calls(
        browser_context, async_server, request):
    with watched_page(browser_context, async_server.url, "/lessons/aagent?lang=en",
                      request) as page:
        b = page.locator('[data-loopstep-block="aagent/tools"]')
        wait_ready(b)
        toggle_breakpoint(b, AWAIT_TOOL)
        toggle_breakpoint(b, AFTER_GATHER)
        press(b, "debug")   # the first tool's task, at its await
        expect_paused_at(b, AWAIT_TOOL)
        expect(value(b, "block")).to_contain_text("name='read_file'")
        assert frames(b, "[data-frame]:not([data-hidden])") == ["agent_loop", "run_tool"]
        tasks = b.locator('[data-role="stack"] [data-task="true"]')
        expect(tasks).to_have_count(2)
        assert frames(b, '[data-task="true"]') == ["Task-1", "Task-2"]
        expect(tasks.first).to_contain_text("asyncio task")
        expect(b.locator('[data-role="timeline-marks"] [data-mark="model"]')).to_have_count(2)
        panel = b.locator('[data-role="conversation"]')
        expect(panel).to_be_visible()
        expect(panel.locator("[data-message]")).to_have_count(1)
        tool_uses = panel.locator('[data-role="response"] [data-part][data-kind="tool_use"]')
        expect(tool_uses).to_have_count(2)
        expect(tool_uses.first).to_have_attribute("data-tool", "read_file")
        # the tasks as threads: the one of the cursor's step running, the loop's thread and
        # the gathering task blocked, the other tool's task waiting for its turn
        expect(b).to_have_attribute("data-thread", "Task-2")
        pane = b.locator('[data-role="threads"]')
        expect(pane.locator("[data-thread]")).to_have_count(4)
        assert pane.locator("[data-thread]").evaluate_all(
            "els => els.map(e => [e.dataset.thread, e.dataset.state])") == [
            ["MainThread", "blocked"], ["Task-1", "blocked"], ["Task-2", "running"],
            ["Task-3", "runnable"]]
        expect(pane.locator('[data-thread="Task-2"]')).to_have_attribute("aria-current", "true")
        expect(pane.locator('[data-thread="Task-1"]')).to_contain_text("gather")
        expect(pane.locator('[data-thread="Task-3"]')).to_contain_text("asyncio task")
        switches = b.locator('[data-role="timeline-marks"] [data-mark="switch"]')
        assert switches.evaluate_all("ms => ms.map(m => m.dataset.thread)") == [
            "Task-2", "Task-3", "Task-2", "Task-1"]
        expect(switches.locator('[data-action="fork"]')).to_have_count(0)   # no scheduler choice
        expect(panel).to_have_attribute("data-thread", "Task-1")   # its model call's task
        assert panel.get_attribute("data-agent") is None   # a task's loop: no peer agent

        gutter(b, AWAIT_TOOL).focus()   # the breakpoint off, from the keyboard
        page.keyboard.press("Enter")
        expect(gutter(b, AWAIT_TOOL)).to_have_attribute("aria-pressed", "false")
        press(b, "step-over")   # over the await: the same task, once its tool returned
        expect_paused_at(b, AFTER_TOOL)
        expect(value(b, "output")).to_have_text("'contents of notes.txt'")
        assert frames(b, '[data-task="true"]') == ["Task-1", "Task-2"]
        expect(b).to_have_attribute("data-thread", "Task-2")
        expect(pane.locator('[data-thread="Task-3"]')).to_have_attribute("data-state", "finished")

        press(b, "continue")   # both tools done: the loop goes on after its gather
        expect_paused_at(b, AFTER_GATHER)
        expect(value(b, "results")).to_contain_text("contents of notes.txt")
        assert frames(b, "[data-frame]:not([data-hidden])") == ["agent_loop"]
        assert frames(b, '[data-task="true"]') == ["Task-1"]
        expect(b).to_have_attribute("data-thread", "Task-1")
        press(b, "next-call")
        expect(panel.locator("[data-message]")).to_have_count(3)
        expect(panel.locator('[data-part][data-kind="tool_result"]').first) \
            .to_contain_text("contents of notes.txt")
