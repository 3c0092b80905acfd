"""Message origins in real Chromium: a message's origin button and a tool_result part's
move the cursor to the step that produced them; the note of a sent message changed after
the call (removed, replaced, edited — not the messages appended) says which and how, and
reaches that step (s06 run_subagent, the multitool and compacting fixture lessons)."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import PageWatch, site_of
    from .page_helpers import (BOOT_TIMEOUT, block, current_lines, open_lesson, run_to_end,
                               wait_ready)
except ImportError:
    from conftest import PageWatch, site_of
    from page_helpers import (BOOT_TIMEOUT, block, current_lines, open_lesson, run_to_end,
                              wait_ready)

FIXTURES = Path(__file__).resolve().parent / "fixture_lessons"


def marks(b, kind):
    return b.locator(f'[data-role="timeline-marks"] [data-mark="{kind}"]')


def mark_steps(b, kind, count):
    expect(marks(b, kind)).to_have_count(count)
    return [int(s) for s in marks(b, kind).evaluate_all("ms => ms.map(m => m.dataset.step)")]


def timeline(b):
    return b.locator('input[data-role="timeline"]')


def conversation(b):
    return b.locator('[data-role="conversation"]')


def at_call(b, number, total):
    """Run to the end, then the model mark `number` (1-based): the cursor at that call."""
    wait_ready(b)
    run_to_end(b)
    marks(b, "model").nth(number - 1).click()
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {number} / {total} ")


def activate(page, button):
    """Reach the button with the keyboard focus and press Enter."""
    button.focus()
    expect(button).to_be_focused()
    page.keyboard.press("Enter")


def test_s06_third_call_origins_of_the_42_result_and_the_answer_before_it(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    at_call(b, 3, 3)
    tools = mark_steps(b, "tool", 2)
    models = mark_steps(b, "model", 3)
    result = conversation(b).locator('[data-message] [data-part][data-kind="tool_result"]').nth(1)
    expect(result.locator("pre")).to_have_text("42")
    origin = result.locator('button[data-action="part-origin"]')
    expect(origin).to_have_attribute("aria-label", "工具执行：跳到产生 read_file 的结果（child_1）的那次工具执行")
    activate(page, origin)
    expect(timeline(b)).to_have_value(str(tools[1]))
    expect(marks(b, "tool").nth(1)).to_have_attribute("data-step", str(tools[1]))

    marks(b, "model").nth(2).click()
    expect(timeline(b)).to_have_value(str(models[2]))
    message = result.locator("xpath=ancestor::*[@data-message]")
    index = int(message.get_attribute("data-message"))
    before = conversation(b).locator(f'[data-message="{index - 1}"]')
    expect(before).to_have_attribute("data-author", "assistant")
    before.locator('button[data-action="message-origin"]').click()
    expect(timeline(b)).to_have_value(str(models[1]))
    expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 3 ")


@pytest.fixture(scope="module")
def fixture_site(request):
    proc = site_of(request.config.getoption("--site"), FIXTURES)
    yield proc
    proc.stop()


@pytest.fixture
def fixture_page(browser_context, fixture_site, request):
    page = browser_context.new_page()
    watch = PageWatch(page, fixture_site.url)
    yield page
    page.close()
    watch.check(request)


def open_fixture(page, site, site_kind, lesson):
    page.goto(f"{site.url}/lessons/{lesson}" + ("/" if site_kind == "export" else ""))


def test_each_tool_result_of_one_turn_goes_to_its_own_tool_run(fixture_page, fixture_site, site_kind):
    page = fixture_page
    open_fixture(page, fixture_site, site_kind, "multitool")
    b = page.locator('[data-loopstep-block="multitool/agent_loop"]')
    at_call(b, 2, 2)
    tools = mark_steps(b, "tool", 3)
    assert len(set(tools)) == 3
    results = conversation(b).locator('[data-message] [data-part][data-kind="tool_result"]')
    expect(results).to_have_count(3)
    expect(results.locator("pre")).to_have_text(["alpha", "beta", "5"])
    for n, step in enumerate(tools):
        marks(b, "model").nth(1).click()
        expect(b.locator('[data-role="status"]')).to_contain_text("第 2 / 2 ")
        activate(page, results.nth(n).locator('button[data-action="part-origin"]'))
        expect(timeline(b)).to_have_value(str(step))
        expect(current_lines(b).first).to_have_attribute("data-line", "11")   # output = run_tool(block)
    # the first user message: the statement that built the list
    marks(b, "model").nth(0).click()
    activate(page, conversation(b).locator('[data-message="0"] button[data-action="message-origin"]'))
    expect(current_lines(b).first).to_have_attribute("data-line", "2")


def test_the_note_shows_only_where_a_sent_message_changed_and_says_how(fixture_page, fixture_site, site_kind):
    page = fixture_page
    # a loop that only appends after each call: no note at any call
    open_fixture(page, fixture_site, site_kind, "multitool")
    b = page.locator('[data-loopstep-block="multitool/agent_loop"]')
    at_call(b, 1, 2)
    for number in (1, 2):
        marks(b, "model").nth(number - 1).click()
        expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {number} / 2 ")
        expect(conversation(b)).to_be_visible()
        expect(conversation(b).locator('[data-role="changed-after-send"]')).to_be_hidden()

    # a loop that compacts its history: each call's note names the message and the change
    open_fixture(page, fixture_site, site_kind, "compacting")
    b = page.locator('[data-loopstep-block="compacting/agent_loop"]')
    at_call(b, 1, 5)
    note = conversation(b).locator('[data-role="changed-after-send"]')
    expect(note).to_be_hidden()      # one message sent; the loop only appended after it
    for number, kind, text, line in ((2, "edited", "第 3 条消息的内容", "17"),
                                     (3, "replaced", "第 4 条消息", "19"),
                                     (4, "removed", "第 6 条消息", "21")):
        marks(b, "model").nth(number - 1).click()
        expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {number} / 5 ")
        call = int(timeline(b).input_value())
        expect(note).to_be_visible()
        expect(note).to_have_attribute("data-kind", kind)
        step = int(note.get_attribute("data-step"))
        assert step > call
        expect(note).to_contain_text(text)
        expect(note).to_contain_text(f"第 {step + 1} 步")
        expect(note).to_contain_text({"edited": "改动", "replaced": "换成", "removed": "删除"}[kind])
        activate(page, note)
        expect(timeline(b)).to_have_value(str(step))
        expect(current_lines(b).first).to_have_attribute("data-line", line)
    marks(b, "model").nth(4).click()
    expect(b.locator('[data-role="status"]')).to_contain_text("第 5 / 5 ")
    expect(note).to_be_hidden()


def test_each_origin_button_names_its_message_or_tool_result(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    at_call(b, 3, 3)
    messages = conversation(b).locator("[data-message]")
    count = messages.count()
    assert count >= 5
    labels = conversation(b).locator('button[data-action="message-origin"]').evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))")
    authors = ["用户" if a == "user" else "模型" for a in
               messages.evaluate_all("ms => ms.map(m => m.dataset.author)")]
    assert labels == [f"来源：跳到第 {n} 条消息（{author}）的来源步骤"
                      for n, author in enumerate(authors, 1)]
    parts = conversation(b).locator('button[data-action="part-origin"]').evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert parts == [f"工具执行：跳到产生 read_file 的结果（child_{k}）的那次工具执行" for k in (0, 1)]
    # an earlier call shows fewer messages: the labels follow the call shown
    marks(b, "model").nth(0).click()
    expect(messages).to_have_count(1)
    expect(messages.locator('button[data-action="message-origin"]')).to_have_attribute(
        "aria-label", "来源：跳到第 1 条消息（用户）的来源步骤")
