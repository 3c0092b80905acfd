"""A 390×844 phone: no horizontal page scroll, the code scrolls inside its box, panels
stacked, and every control reachable and at least 24 px."""
import pytest
from playwright.sync_api import expect

try:
    from .page_helpers import block, expect_paused_at, lesson_url, pause_at, press, run_to_end, wait_ready
except ImportError:
    from page_helpers import block, expect_paused_at, lesson_url, pause_at, press, run_to_end, wait_ready

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser_context, server_url, watch_page, request):
    page = browser_context.new_page()
    page.set_viewport_size(PHONE)
    watch = watch_page(page, server_url)
    yield page
    page.close()
    watch.check(request)


def page_width(page):
    return page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lesson_page_fits_a_phone(phone, server_url, site_kind, lang):
    phone.goto(lesson_url(server_url, site_kind, lang))
    b = block(phone, "run_subagent")
    wait_ready(b)
    scroll_width, client_width = page_width(phone)
    assert scroll_width <= client_width == PHONE["width"], (scroll_width, client_width)

    gutters = b.locator("button[data-gutter]")
    sizes = gutters.evaluate_all("(els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.width, r.height])")
    assert sizes and all(w >= 24 and h >= 24 for w, h in sizes), sizes

    code = b.locator(".code")
    overflow = code.evaluate("(e) => [e.scrollWidth, e.clientWidth, getComputedStyle(e).overflowX]")
    assert overflow[0] > overflow[1] and overflow[2] == "auto", overflow  # the long lines scroll in the box
    box = code.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    run_to_end(b)
    # views that load their stylesheet on first use (the conversation panel) are measured styled
    phone.wait_for_function("() => [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet)")
    panes = b.locator(".panes > .pane:visible")   # a pane shows when it has something to show
    boxes = [panes.nth(i).bounding_box() for i in range(panes.count())]
    assert len(boxes) >= 3
    assert all(abs(p["x"] - boxes[0]["x"]) < 1 for p in boxes), boxes  # one column
    assert all(boxes[i]["y"] + boxes[i]["height"] <= boxes[i + 1]["y"] + 1 for i in range(len(boxes) - 1))
    assert page_width(phone)[0] <= PHONE["width"]

    for selector in ("button", "select", "input", "summary", "a[href]"):
        controls = phone.locator(f"main {selector}:visible")
        rects = controls.evaluate_all(
            "(els) => els.map((e) => [e.outerHTML.slice(0, 90), e.getBoundingClientRect().toJSON()])")
        small = [(html, round(r["width"]), round(r["height"])) for html, r in rects
                 if r["width"] < 24 or r["height"] < 24]
        assert not small, small
        off = [html for html, r in rects if r["x"] < 0 or r["x"] + r["width"] > PHONE["width"]]
        assert not off, off  # reachable without scrolling the page sideways


def test_every_toolbar_control_works_on_a_phone(phone, server_url, site_kind):
    phone.goto(lesson_url(server_url, site_kind))
    b = block(phone, "run_subagent")
    wait_ready(b)
    gutter = b.locator('button[data-gutter="15"]')
    pause_at(b, 15)
    press(b, "step-over")
    expect_paused_at(b, 17)
    press(b, "step-back")
    expect(b.locator('[aria-current="step"]').first).not_to_have_attribute("data-line", "17")
    press(b, "step-into")
    expect(b).to_have_attribute("data-state", "paused")
    press(b, "step-out")
    expect(b).to_have_attribute("data-state", "paused")
    gutter.click()  # the lambda on line 15 would stop there again
    expect(gutter).to_have_attribute("aria-pressed", "false")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
    press(b, "reset")
    expect(b).to_have_attribute("data-state", "ready")
