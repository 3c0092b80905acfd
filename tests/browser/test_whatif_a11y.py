"""axe-core audit at zero of the what-if views: the setup editor with an error marked and
two runs side by side with both cursors, in both colour schemes (the rest of the page
is audited by test_accessibility.py)."""
from playwright.sync_api import expect

from axe_audit import assert_no_violations_in_schemes
from page_helpers import (BOOT_TIMEOUT, block, choose_option, lesson_url, press,
                          replace_in_editor, wait_ready)

WHATIF = '[data-loopstep-block="s06/run_subagent"] .whatif'
COMPARISON = '[data-loopstep-block="s06/run_subagent"] [data-role="comparison"]'


def test_editor_and_comparison_pass_the_audit(page, server_url, site_kind):
    page.goto(lesson_url(server_url, site_kind, lang="en"))
    b = block(page, "run_subagent")
    wait_ready(b)
    press(b, "edit-setup")
    text_box = b.locator('[data-role="setup-text"]')
    expect(text_box).to_be_visible()
    replace_in_editor(b, "index<2:", "index<2")
    press(b, "run-custom")
    expect(b.locator('[data-role="setup-error"]')).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(b.locator(".cm-lintRange-error")).to_be_visible()
    assert_no_violations_in_schemes(page, "setup editor with an error", within=WHATIF)
    press(b, "reset")
    choose_option(b.locator('select[data-role="compare"]'), "limit")
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison.locator('[data-role="divergence"]')).to_be_visible(timeout=BOOT_TIMEOUT)
    comparison.locator('[data-role="divergence"]').click()
    expect(comparison.locator('button[data-side="b"][aria-current="true"]')).to_be_visible()
    assert_no_violations_in_schemes(page, "two runs side by side", within=COMPARISON)
