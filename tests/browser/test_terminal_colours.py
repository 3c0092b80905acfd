"""Terminal colours in the output: lcc-s06 prints `\\033[35m[Subagent started]\\033[0m`."""
import re

from playwright.sync_api import expect

from loopstep.runtime.recorder import record

try:
    from .page_helpers import BOOT_TIMEOUT, run_to_end, shown_output
except ImportError:
    from page_helpers import BOOT_TIMEOUT, run_to_end, shown_output


def test_sgr_colours_render_as_styled_text(page, server_url, site_kind):
    page.goto(server_url + "/lessons/lcc-s06" + ("/" if site_kind == "export" else ""))
    b = page.locator('[data-loopstep-block="lcc-s06/run_subagent"]')
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    run_to_end(b)
    output = b.locator('[data-role="output"]')
    started = output.locator("span.ansi", has_text="[Subagent started]")
    expect(started).to_have_count(1)
    expect(started).to_have_text("[Subagent started]")
    expect(started).to_have_class(re.compile(r"\bansi-fg-5\b"))
    colour = started.evaluate("e => getComputedStyle(e).color")
    plain = output.evaluate("e => getComputedStyle(e).color")
    assert colour != plain, (colour, plain)
    # the tool lines are bright black (90), the rest plain text nodes
    expect(output.locator("span.ansi-fg-8").first).to_contain_text("[sub] read_file")
    text = output.text_content()
    assert "\x1b" not in text and "[35m" not in text
    printed = record("lcc-s06", "run_subagent", b.get_attribute("data-scenario"))["stdout"]
    assert "\033[35m[Subagent started]\033[0m" in printed  # what a terminal gets
    assert text == shown_output(printed)
