"""The block's layout, measured in real Chromium at 1280×800, 1440×900 and a 390 px phone,
light and dark (a screenshot of each under the test's tmp_path): the English toolbar on
one line; the code beside the variables from 1100 px, stacked below; the variables wide,
long values folded to one line with a disclosure; History inside its pane; a whole file's
own names shown and the setup's folded away; no empty pane before a run."""
import re

import pytest
from playwright.sync_api import expect

try:
    from .page_helpers import BOOT_TIMEOUT, gutter, press, toggle_breakpoint, value
except ImportError:
    from page_helpers import BOOT_TIMEOUT, gutter, press, toggle_breakpoint, value

WIDE = [{"width": 1280, "height": 800}, {"width": 1440, "height": 900}]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def sized(browser_context, server_url, watch_page, request):
    """A new page of the given size and colour scheme: (page, size, scheme)."""
    size, scheme = request.param
    page = browser_context.new_page()
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    watch = watch_page(page, server_url)
    yield page, size, scheme
    page.close()
    watch.check(request)


def box(locator):
    """The element's box, once it is shown (a view a lazily loaded chunk draws again may
    replace it a moment after the step)."""
    expect(locator).to_be_visible()
    b = locator.bounding_box()
    assert b is not None, locator
    return b


def side_by_side(a, b):
    """Boxes `a` left of `b`: they overlap vertically, not horizontally."""
    return (a["x"] + a["width"] <= b["x"] + 1
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def whole_block(page, server_url, site_kind):
    url = server_url + ("/lessons/agent-whole/en/" if site_kind == "export" else "/lessons/agent-whole?lang=en")
    page.goto(url)
    b = page.locator('[data-loopstep-block="agent-whole/whole"]')
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    return b


def toolbar_rows(b):
    """[top, bottom] of each visible control of the toolbar."""
    return b.locator(".toolbar > *:visible").evaluate_all(
        "(els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.top, r.bottom])")


@pytest.mark.parametrize("sized", [(s, c) for s in WIDE for c in ("light", "dark")], indirect=True,
                         ids=lambda p: f"{p[0]['width']}-{p[1]}")
def test_a_wide_page_shows_the_code_beside_its_variables(sized, server_url, site_kind, tmp_path):
    page, size, scheme = sized
    b = whole_block(page, server_url, site_kind)
    # before any run: no pane of the run, no empty stack, log or conversation
    for pane in (".variables-pane", ".stack-pane", ".output-pane", ".log-pane"):
        expect(b.locator(pane)).to_be_hidden()
    expect(b.locator('[data-role="output-hint"]')).to_be_visible()
    page.screenshot(path=tmp_path / f"before-{size['width']}-{scheme}.png")

    toggle_breakpoint(b, 73)           # TOOLS = [ : the module's frame, SYSTEM bound
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-line="73"]')).to_have_attribute("aria-current", "step")
    own = b.locator('[data-role="variables"] > [data-var="SYSTEM"]')
    expect(own).to_be_visible()                         # the lesson's own name, shown
    folded = b.locator('[data-role="setup-names"]')
    expect(folded.locator('[data-var="scenario"]')).to_be_hidden()   # the setup's, folded away
    summary = folded.locator(":scope > summary")
    expect(summary).to_have_text(re.compile(r"The setup's names \(\d+\)"))
    summary.focus()
    page.keyboard.press("Enter")
    expect(folded.locator('[data-var="scenario"]')).to_be_visible()

    # a long value: one line, opened from its summary with the keyboard
    line = own.locator("summary.var-line")
    assert box(line)["height"] <= 30, box(line)
    full = own.locator(".var-full")
    expect(full).to_be_hidden()
    line.focus()
    page.keyboard.press("Enter")
    expect(full).to_be_visible()
    expect(full).to_have_text(value(b, "SYSTEM").first.text_content())
    expect(full).to_contain_text("Use the task tool for focused exploration.")

    # History stays inside the variables pane, its buttons too
    own.locator('button[data-action="history"]').click()
    expect(b.locator('[data-role="history"]')).to_be_visible()
    pane = box(b.locator(".variables-pane"))
    buttons = b.locator(".variables-pane button:visible").evaluate_all(
        "(els) => els.map((e) => [e.textContent, e.getBoundingClientRect().toJSON()])")
    out = [t for t, r in buttons if r["x"] < pane["x"] - 1 or r["x"] + r["width"] > pane["x"] + pane["width"] + 1]
    assert buttons and not out, out
    page.screenshot(path=tmp_path / f"history-{size['width']}-{scheme}.png", full_page=True)

    toggle_breakpoint(b, 130)          # messages.append(...) after the first model call
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-line="130"]')).to_have_attribute("aria-current", "step")
    rows = toolbar_rows(b)             # the agent's buttons included: all cross one line
    assert len(rows) >= 11 and max(t for t, _ in rows) < min(b for _, b in rows), rows

    code, variables = box(b.locator(".code")), box(b.locator(".variables-pane"))
    assert side_by_side(code, variables), (code, variables)
    assert variables["width"] >= 400, variables
    # the cursor's line and the top of its locals fit in one screen
    current = box(b.locator('[data-line][aria-current="step"]').first)
    assert current["y"] + current["height"] - variables["y"] <= size["height"], (current, variables)
    # the conversation: its pane shows now that a call was made
    expect(b.locator('[data-role="conversation"]')).to_be_visible()
    page.screenshot(path=tmp_path / f"paused-{size['width']}-{scheme}.png")


@pytest.mark.parametrize("sized", [(PHONE, c) for c in ("light", "dark")], indirect=True,
                         ids=lambda p: f"phone-{p[1]}")
def test_a_phone_stacks_the_code_above_the_variables(sized, server_url, site_kind, tmp_path):
    page, size, scheme = sized
    b = whole_block(page, server_url, site_kind)
    for pane in (".variables-pane", ".stack-pane", ".output-pane"):
        expect(b.locator(pane)).to_be_hidden()
    gutter(b, 26).scroll_into_view_if_needed()
    toggle_breakpoint(b, 26)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    code, variables = box(b.locator(".code")), box(b.locator(".variables-pane"))
    assert variables["y"] >= code["y"] + code["height"], (code, variables)
    assert variables["x"] >= 0 and variables["x"] + variables["width"] <= size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=tmp_path / f"phone-{scheme}.png", full_page=True)
