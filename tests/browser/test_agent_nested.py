"""Agent views of nested agent loops in real Chromium: the subagent's conversation
starts with only its task, one level deeper, and the parent gets back one tool_result;
markup in messages stays text."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, press, run_to_end, select_scenario, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, press, run_to_end, select_scenario, wait_ready

FIXTURES = Path(__file__).resolve().parent / "fixture_lessons"


def lesson_url(server_url, site_kind, lesson_id):
    return f"{server_url}/lessons/{lesson_id}" + ("/" if site_kind == "export" else "")


def first_calls(page, b):
    """Walk every model call from the first: [(depth, levels, texts of the messages sent,
    their authors)] at each call, and the texts of the response after it returned."""
    seen = []
    wait_ready(b)
    run_to_end(b)
    first = b.locator('[data-role="timeline-marks"] [data-mark="model"]').first
    first.click()
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="status"]')).to_contain_text("第 1 / ")
    panel = b.locator('[data-role="conversation"]')
    while True:
        expect(panel).to_be_visible()
        seen.append(panel.evaluate("""p => ({
            depth: Number(p.dataset.depth),
            levels: p.querySelectorAll('[data-role="breadcrumb"] li').length,
            step: Number(p.closest('[data-loopstep-block]').querySelector('input[data-role="timeline"]').value),
            messages: [...p.querySelectorAll('[data-message]')].map(m => ({
                author: m.dataset.author, isNew: m.dataset.new === 'true',
                parts: [...m.querySelectorAll('[data-part]')].map(x => ({
                    kind: x.dataset.kind, text: x.querySelector('p:last-child, pre')?.textContent,
                    id: x.dataset.toolId ?? null}))}))})"""))
        nxt = b.locator('button[data-action="next-call"]')
        if nxt.is_disabled():
            return seen
        nxt.click()
        expect(b.locator('[data-role="status"]')).to_contain_text(f"第 {len(seen) + 1} / ")


def test_lcc_s06_agent_loop_subagent_starts_fresh_and_parent_gets_its_text(page, server_url, site_kind):
    page.goto(lesson_url(server_url, site_kind, "lcc-s06"))
    b = page.locator('[data-loopstep-block="lcc-s06/agent_loop"]')
    calls = first_calls(page, b)
    assert [c["depth"] for c in calls] == [0, 1, 1, 0]
    assert [c["levels"] for c in calls] == [1, 2, 2, 1]
    child = calls[1]["messages"]
    assert len(child) == 1 and child[0]["author"] == "user"
    assert child[0]["parts"][0]["text"] == "读取 requirements.txt，找出这个项目使用的测试框架，返回名称和版本。"
    got_back = calls[3]["messages"][-1]
    assert got_back["author"] == "user" and got_back["isNew"]
    assert [p["kind"] for p in got_back["parts"]] == ["tool_result"]
    assert got_back["parts"][0]["text"] == "测试框架是 pytest（requirements.txt 要求 pytest>=8.0）。"
    assert got_back["parts"][0]["id"] == "toolu_001"
    # the child's answer is the parent's tool result: the panel showed it as the child's response
    press(b, "prev-call")
    press(b, "step-over")
    response = b.locator('[data-role="conversation"] [data-role="response"]')
    expect(response).to_have_attribute("data-stop-reason", "end_turn")


def test_s06_recursive_depth2_three_levels_each_starting_with_its_task(page, server_url, site_kind):
    page.goto(lesson_url(server_url, site_kind, "s06-recursive"))
    b = page.locator('[data-loopstep-block="s06-recursive/run_subagent"]')
    wait_ready(b)
    select_scenario(b, "depth2")
    calls = first_calls(page, b)
    firsts = {}
    for c in calls:
        firsts.setdefault(c["depth"], c)
    assert sorted(firsts) == [0, 1, 2]
    tasks = ["整理这个项目的测试约定，必要时派子任务。",
             "查清这个项目用什么测试框架，必要时派子任务。",
             "读取 requirements.txt，返回测试框架的名称和版本。"]
    for depth, task in enumerate(tasks):
        sent = firsts[depth]["messages"]
        assert [(m["author"], m["parts"][0]["text"]) for m in sent] == [("user", task)]
        assert firsts[depth]["levels"] == depth + 1


@pytest.fixture(scope="module")
def fixture_server():
    with served(FIXTURES) as proc:
        yield proc


@pytest.fixture
def fixture_page(browser_context, fixture_server, request):
    """A page of the fixture lessons' server, watched for errors and off-origin requests."""
    with watched_page(browser_context, fixture_server.url, "/lessons/agent_markup",
                      request) as page:
        yield page


def last_call(page, symbol):
    """The block `symbol` of the fixture lesson, run to its end, back at its last model call."""
    b = page.locator(f'[data-loopstep-block="agent_markup/{symbol}"]')
    wait_ready(b)
    run_to_end(b)
    press(b, "prev-call")
    return b


def test_markup_in_messages_stays_text(fixture_page):
    page = fixture_page
    b = last_call(page, "chat")
    panel = b.locator('[data-role="conversation"]')
    markup = '<img src=x onerror="document.body.dataset.pwned=1"><b>bold</b>'
    expect(panel.locator('[data-message="1"] [data-part][data-kind="text"]')).to_have_text(markup)
    use = panel.locator('[data-part][data-kind="tool_use"]')
    expect(use).to_have_attribute("data-tool", "<script>")
    expect(use).to_contain_text(markup.replace('"', '\\"'))
    expect(panel.locator('[data-part][data-kind="tool_result"]')).to_have_attribute("data-error", "true")
    expect(panel.locator('[data-message="0"]')).to_contain_text("<i>question</i>")
    assert panel.locator("img, b, i, script").count() == 0
    assert page.evaluate("document.body.dataset.pwned") is None
    expect(b.locator('[data-role="timeline-marks"] [data-mark="tool"]')).to_have_attribute(
        "data-tool", "<script>")


def test_long_histories_fold_to_the_last_turns_and_unfold(fixture_page):
    b = last_call(fixture_page, "long_chat")
    panel = b.locator('[data-role="conversation"]')
    shown = panel.locator("[data-message]:visible")
    expect(panel.locator("[data-message]")).to_have_count(17)
    expect(shown).to_have_count(7)                       # the task and the last six
    expect(shown.first).to_contain_text("first question")
    expect(shown.last).to_contain_text("more 7")
    unfold = panel.locator('[data-role="unfold"]')
    expect(unfold).to_have_text("显示前面 10 条消息")
    unfold.click()
    expect(shown).to_have_count(17)
    expect(unfold).to_be_hidden()
    press(b, "prev-call")                                # unfolded stays unfolded
    expect(panel.locator("[data-message]:visible")).to_have_count(15)
