"""A fork at a thread switch in real Chromium (contract, "Threads and tasks"; docs/using.md
"Threads"): on the s09-team lesson's `lost_message` preset, the reader moves the cursor to
switch point 10 (alice's last inbox check and the lead's message on the same virtual
second), presses that mark's fork button, chooses MainThread and runs the fork: the
comparison shows the run where alice reads the message, diverging where CPython's two runs
diverge, and the URL carries the schedule (`sched=`); a reload of that link runs and
compares it again without a click (a schedule is data, not code). Keyboard only."""
import re

from playwright.sync_api import expect

try:
    from .page_helpers import BOOT_TIMEOUT, choose_option, press, select_scenario, slide_to, wait_ready
except ImportError:
    from page_helpers import BOOT_TIMEOUT, choose_option, press, select_scenario, slide_to, wait_ready

from loopstep.runtime.recorder import record

SCHEDULE = "switch:10=MainThread"


def common_prefix(a: dict, b: dict) -> int:
    key = lambda s: (s["depth"], s["line"], s["event"])  # noqa: E731
    k = 0
    while k < len(a["steps"]) and k < len(b["steps"]) and key(a["steps"][k]) == key(b["steps"][k]):
        k += 1
    return k


def test_a_fork_at_a_switch_mark_runs_another_thread_first_and_travels_in_the_url(
        page, server_url, site_kind):
    lost = record("s09-team", "team", "lost_message")
    fixed = record("s09-team", "team", "lost_message", schedule=SCHEDULE)
    assert fixed["stdout"] != lost["stdout"]
    step, _, runnable = lost["schedule"]["points"][9]
    names = [t["name"] for t in lost["threads"]]
    assert "MainThread" in [names[i] for i in runnable]
    k = common_prefix(lost, fixed)

    page.goto(server_url + ("/lessons/s09-team/en/" if site_kind == "export" else "/lessons/s09-team?lang=en"))
    b = page.locator('[data-loopstep-block="s09-team/team"]')
    wait_ready(b)
    select_scenario(b, "lost_message")
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    schedule = b.locator('[data-role="threads"] ~ [data-role="schedule"]')
    expect(schedule).to_have_text("Schedule: default (first come, first served)")
    slide_to(b.locator('input[data-role="timeline"]'), step)
    fork = b.locator('[data-mark="switch"] button[data-action="fork"][data-call="switch:10"]')
    expect(fork).to_have_attribute("tabindex", "0")   # the cursor's switch: in the keyboard's way
    fork.focus()
    page.keyboard.press("Enter")
    editor = b.locator('[data-role="fork-editor"]')
    thread = editor.locator('select[data-role="fork-thread"]')
    expect(thread).to_be_focused()
    assert thread.locator("option").evaluate_all("os => os.map(o => o.value)") == [
        names[i] for i in runnable]
    choose_option(thread, "MainThread")
    press(editor, "run-fork")
    comparison = b.locator('[data-role="comparison"]')

    def check_comparison():
        expect(comparison.locator(".comparison-title")).to_contain_text(f"Fork {SCHEDULE}",
                                                                          timeout=BOOT_TIMEOUT)
        expect(comparison).to_have_attribute("data-state", "ready")
        marker = comparison.locator('[data-role="divergence"]')
        expect(marker).to_have_attribute("data-step-a", str(k))
        expect(marker).to_have_attribute("data-step-b", str(k))
        expect(b.locator('[data-role="fork-error"]')).to_be_hidden()

    check_comparison()
    expect(page).to_have_url(re.compile(r"[#&]sched=switch%3A10%3DMainThread(&|$)"), timeout=BOOT_TIMEOUT)

    # the link restores it: run and compared at once, the thread it chose shown
    page.reload()
    expect(editor).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(editor.locator('select[data-role="fork-thread"]')).to_have_value("MainThread")
    expect(b.locator('[data-role="link-code"]')).to_have_count(0)   # not code: nothing to confirm
    check_comparison()
