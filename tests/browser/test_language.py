"""The page's language and texts a newcomer met (issue 36): an English browser gets
English, an explicit choice wins and is remembered; Chinese text falls back through the
systems' CJK fonts; a lesson names its own diagram. Against the app (`loopstep serve`)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

try:
    from .conftest import CHROMIUM_ARGS, PageWatch, chromium_path
except ImportError:
    from conftest import CHROMIUM_ARGS, PageWatch, chromium_path


@pytest.fixture
def english_page(playwright_instance, server_url, request):
    """A page of a browser whose language is English (its Accept-Language: en-US)."""
    browser = playwright_instance.chromium.launch(executable_path=chromium_path(),
                                                  args=CHROMIUM_ARGS, headless=True)
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    watch = PageWatch(page, server_url)
    yield page
    watch.check(request)
    context.close()
    browser.close()


def test_an_english_browser_gets_english_and_an_explicit_choice_wins_and_is_remembered(
        english_page, server_url):
    page = english_page
    page.goto(server_url + "/lessons/s06")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switch = page.locator('[data-role="lang-switch"]')
    expect(switch).to_have_text("中文")
    switch.focus()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    # the choice is remembered: the same English browser gets Chinese from now on
    page.goto(server_url + "/lessons/s06")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    page.goto(server_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")


def test_a_chinese_browser_gets_chinese(page, server_url):
    page.goto(server_url + "/lessons/s06")   # the shared test browser's locale: zh-CN
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")


def test_chinese_text_falls_back_through_the_systems_cjk_fonts(page, server_url):
    page.goto(server_url + "/lessons/s06?lang=zh")
    for selector in ("body", ".stage-id"):   # the sans and the mono stacks
        family = page.locator(selector).first.evaluate("e => getComputedStyle(e).fontFamily")
        for face in ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei"):
            assert face in family, (selector, family)


def test_a_lesson_names_its_own_diagram_and_others_keep_the_default(page, server_url):
    page.goto(server_url + "/lessons/s01?lang=en")
    caption = page.locator('[data-role="diagram"] figcaption')
    expect(caption).to_have_text("How the loop stops")
    expect(page.locator('[data-role="diagram"]')).to_have_attribute("aria-label",
                                                                      "How the loop stops")
    page.goto(server_url + "/lessons/s01?lang=zh")
    expect(caption).to_have_text("循环怎样停下")
    page.goto(server_url + "/lessons/s06?lang=en")
    expect(caption).to_have_text("How delegation flows")


def test_one_message_is_singular_in_english(page, server_url):
    """Issue 36: "1 messages" read wrong; the first model call of run_subagent sends one."""
    try:
        from .page_helpers import block, expect_paused_at, open_lesson, press, toggle_breakpoint
    except ImportError:
        from page_helpers import block, expect_paused_at, open_lesson, press, toggle_breakpoint
    open_lesson(page, server_url, lang="en")
    b = block(page, "run_subagent")
    toggle_breakpoint(b, 15)
    press(b, "debug")
    expect_paused_at(b, 15)
    press(b, "step-into")   # into the lambda: the first model call has been made
    head = b.locator('[data-role="conversation"] .call-head')
    expect(head).to_have_text("Model call 1 of 3, 1 message sent")
