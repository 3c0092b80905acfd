"""The threads pane in real Chromium (contract, "Threads and tasks"; docs/using.md
"Threads"), on tests/threads_lesson.py's agent whose command runs in a background thread:
a thread event breakpoint stops at the thread's start; the pane lists each thread with its
state at the cursor, the running one current; choosing another thread from the keyboard
shows its stack and locals at the cursor; the timeline marks each switch; step over stays
in the cursor's thread; the conversation names the thread of its call. Keyboard only, one
page, booted without the memory snapshot (the stock boot, whose Python can suspend stacks
whatever the boot set): the pane does not depend on how the page booted. Runs against its
own `loopstep serve --lessons DIR`."""
import re

import pytest
from playwright.sync_api import expect

try:
    from .axe_audit import assert_no_violations
    from .conftest import served, watched_page
    from .page_helpers import choose_option, press, wait_ready
except ImportError:
    from axe_audit import assert_no_violations
    from conftest import served, watched_page
    from page_helpers import choose_option, press, wait_ready
import threads_lesson

from loopstep.runtime.recorder import record
from loopstep.web import assets


# A second block beside the background agent's: a lead whose teammate runs its own loop in
# a thread, a peer agent (its model calls answered by the same stand-in).
TEAM_SOURCE = '''

def teammate(name, task, results):
    messages = [{"role": "user", "content": f"teammate {name}: {task}"}]
    response = client.messages.create(model="claude-sonnet-4-5", max_tokens=100, messages=messages)
    results.append(response.content[0].text)


def lead(task):
    results = []
    alice = threading.Thread(target=teammate, args=("alice", task, results), name="alice")
    alice.start()
    response = client.messages.create(model="claude-sonnet-4-5", max_tokens=100,
                                      messages=[{"role": "user", "content": task}])
    alice.join()
    return [response.content[0].text, *results]
'''
TEAM_REPLY = '''

background_reply = reply


def reply(messages, **request):
    first = messages[0]["content"]
    if first.startswith("teammate "):
        return first.split(":")[0][len("teammate "):] + " done"
    if first == TEAM_TASK:
        return "lead done"
    return background_reply(messages, **request)


TEAM_TASK = "Split the work."
'''
TEAM_BLOCK = '''
[[blocks]]
id = "team"
symbols = ["lead", "teammate"]
source = "bgagent/agent.py"
entry = "print(lead(TEAM_TASK))"
'''


def write_lesson(lessons):
    """tests/threads_lesson.py's background agent with the team's block beside it."""
    threads_lesson.write_agent(lessons)
    folder = lessons / "bgagent"
    for name, more in (("agent.py", TEAM_SOURCE), ("setup.py", TEAM_REPLY), ("lesson.toml", TEAM_BLOCK)):
        (folder / name).write_text((folder / name).read_text("utf-8") + more, "utf-8")


@pytest.fixture(scope="module")
def threads_server(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    write_lesson(lessons)
    with served(lessons) as proc:
        yield proc, lessons


def test_the_threads_pane_shows_each_thread_and_steps_in_one(
        browser_context, threads_server, request):
    server, lessons = threads_server
    cpython = record("bgagent", "all", "normal", roots=[lessons])
    ran = [s.get("thread", 0) for s in cpython["steps"]]
    switches = [n for n in range(1, len(ran)) if ran[n] != ran[n - 1]]
    start = ran.index(1) + 1   # the background thread's first line (its first step is a call)
    after = next(n for n in range(start + 1, len(ran))
                 if ran[n] == 1 and cpython["steps"][n]["event"] != "call")
    assert any(ran[start:after]) and not all(ran[start:after])   # main's steps come between
    with watched_page(browser_context, server.url, None, request) as page:
        page.route(f"**/{assets.BOOT_DIR.name}/**", lambda route: route.fulfill(
            status=200, body=b"not a zip", content_type="application/zip"))
        page.goto(server.url + "/lessons/bgagent?lang=en")
        b = page.locator('[data-loopstep-block="bgagent/all"]')
        wait_ready(b)
        form = b.locator('form[data-role="event-breakpoint"]')
        choose_option(form.locator('select[name="kind"]'), "thread-start")
        form.locator('input[name="value"]').focus()
        page.keyboard.type("background")
        page.keyboard.press("Enter")
        expect(b.locator('[data-event-bp="thread-start:background"]')).to_be_visible()
        press(b, "debug")
        expect(b).to_have_attribute("data-drawn", str(start), timeout=60_000)
        expect(b).to_have_attribute("data-thread", "background")
        expect(b.locator('[data-role="status"]')).to_contain_text("thread background")
        expect(b.locator('[data-role="threads"] [data-thread]')).to_have_count(2)
        main = b.locator('[data-role="threads"] [data-thread="MainThread"]')
        worker = b.locator('[data-role="threads"] [data-thread="background"]')
        expect(worker).to_have_attribute("data-state", "running")
        expect(worker).to_have_attribute("aria-current", "true")
        expect(main).to_have_attribute("data-state", "sleeping")   # in its model call
        expect(main).not_to_have_attribute("aria-current", "true")
        marks = b.locator('[data-role="timeline-marks"]')
        expect(marks).to_have_count(1)   # one group: the agent's marks and the switches
        switch = marks.locator('[data-mark="switch"]')
        expect(switch).to_have_count(len(switches))
        assert switch.evaluate_all("ms => ms.map(m => Number(m.dataset.step))") == switches
        expect(switch.first).to_have_attribute("data-thread", "background")
        conversation = b.locator('[data-role="conversation"]')
        expect(conversation).to_have_attribute("data-thread", "MainThread")
        expect(conversation).not_to_have_attribute("data-agent", re.compile(".*"))
        # the main thread's stack and locals at the cursor: those of its last step before it
        stack = b.locator('[data-role="stack"]')
        expect(stack.locator('[data-frame="background"]')).to_have_count(1)
        main.focus()
        page.keyboard.press("Enter")
        expect(main).to_have_attribute("aria-pressed", "true")
        expect(main).to_be_focused()   # the pane keeps its buttons: the reader's place stays
        expect(stack.locator('[data-frame="agent_loop"]')).to_have_count(1)
        expect(stack.locator('[data-frame="background"]')).to_have_count(0)
        expect(b.locator('[data-role="variables"] [data-var="messages"]')).to_have_count(1)
        expect(b.locator('[data-role="thread-shown"]')).to_contain_text("MainThread")
        assert_no_violations(page, "the threads pane", within='[data-loopstep-block="bgagent/all"]')
        # step over stays in the background thread: the main thread's steps pass as one move
        press(b, "step-over")
        expect(b).to_have_attribute("data-drawn", str(after))
        expect(b).to_have_attribute("data-thread", "background")
        expect(worker).to_have_attribute("aria-pressed", "true")
        expect(stack.locator('[data-frame="background"]')).to_have_count(1)
        # a teammate's model call is its peer agent's conversation, not a subagent's
        team = page.locator('[data-loopstep-block="bgagent/team"]')
        form = team.locator('form[data-role="event-breakpoint"]')
        wait_ready(team)
        choose_option(form.locator('select[name="kind"]'), "model")
        form.locator('input[name="value"]').focus()
        page.keyboard.type("2")
        page.keyboard.press("Enter")
        expect(team.locator('[data-role="event-breakpoints"] [data-event-bp="model:2"]')) \
            .to_have_count(1)
        press(team, "debug")
        expect(team).to_have_attribute("data-state", "paused", timeout=60_000)
        conversation = team.locator('[data-role="conversation"]')
        expect(conversation).to_have_attribute("data-agent", "alice")
        expect(conversation).to_have_attribute("data-thread", "alice")
        expect(conversation).to_have_attribute("data-depth", "0")
        expect(conversation.locator('[data-role="breadcrumb"]')).to_contain_text("alice (peer agent)")
        expect(team).to_have_attribute("data-thread", "alice")
        press(team, "prev-call")
        expect(conversation).to_have_attribute("data-thread", "MainThread")
        expect(conversation).not_to_have_attribute("data-agent", re.compile(".*"))
