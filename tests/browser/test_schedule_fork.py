"""A fork at a thread switch in real Chromium (contract, "Threads and tasks"; docs/using.md
"Threads"): on the s09-team lesson's `lost_message` preset, the reader moves the cursor to
switch point 10 (alice's last inbox check and the lead's message on the same virtual
second), presses that mark's fork button, chooses MainThread and runs the fork: the
comparison shows the run where alice reads the message, diverging where CPython's two runs
diverge, and the URL carries the schedule (`sched=`); a reload of that link runs and
compares it again without a click (a schedule is data, not code). A recording of the
lesson's team run (made against a loopback provider answering as the setup does) loaded
from a file replays its threads in the page: the threads pane, and each model call in the
conversation panel named by the thread that made it. Keyboard only."""
import json
import re

from playwright.sync_api import expect

try:
    from .page_helpers import (BOOT_TIMEOUT, choose_option, press, run_to_end, select_scenario,
                               shown_output, slide_to, wait_ready)
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, choose_option, press, run_to_end, select_scenario,
                              shown_output, slide_to, wait_ready)
from fake_provider import KEY, FakeProvider

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record
from loopstep.runtime.recording import format as recording_format
from loopstep.runtime.recording.live import Live

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


class _AsTheSetup:
    """The loopback provider's turns: each one the s09-team setup's scripted answer to the
    request it just received (its ``reply``, the preset ``team``)."""

    def __init__(self, fake):
        path = load_lessons()["s09-team"].files["s09-team/setup.py"]
        self.scope = {"scenario": "team"}
        exec(compile(open(path, encoding="utf-8").read(), path, "exec"), self.scope)
        self.fake = fake

    def __len__(self):
        return 1_000_000

    def __getitem__(self, _number):
        body = self.fake.requests[-1][2]
        said = self.scope["reply"](system=body.get("system") or "", messages=body["messages"])
        return [part if isinstance(part, str) else ("tool", part["name"], part["input"])
                for part in ([said] if isinstance(said, str) else said)]


def test_a_recording_of_the_team_replays_its_threads_from_a_file(page, server_url, tmp_path):
    with FakeProvider() as fake:
        fake.turns = _AsTheSetup(fake)
        live = Live("anthropic", KEY, ("s09-team", "team", "team"), fake.url)
        record("s09-team", "team", "team", live=live)
    recording = json.loads(recording_format.dumps(live.recording))
    replayed = record("s09-team", "team", "team", recording=recording)
    assert replayed["status"] == "finished" and replayed["replay"]["divergence"] is None
    names = [t["name"] for t in replayed["threads"]]
    ran = [s.get("thread", 0) for s in replayed["steps"]]
    callers = [names[ran[c["step"]]] for c in replayed["agent"]["calls"]]
    assert set(callers) == {"MainThread", "alice", "bob"}
    path = tmp_path / "team.recording.json"
    path.write_text(json.dumps(recording), "utf-8")

    page.goto(server_url + "/lessons/s09-team?lang=en")
    b = page.locator('[data-loopstep-block="s09-team/team"]')
    wait_ready(b)
    b.locator('input[type=file][data-role="recording-file"]').set_input_files(str(path))
    info = b.locator('[data-role="recording-info"]')
    expect(info).to_have_attribute("data-calls", str(len(recording["calls"])), timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-run-source", "recorded")
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(replayed["stdout"]))
    expect(b.locator('[data-role="threads"] [data-thread]')).to_have_count(len(names))
    for name in names:
        expect(b.locator(f'[data-role="threads"] [data-thread="{name}"]')).to_have_count(1)
    # each model call in the conversation panel, named by the thread that made it
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    conversation = b.locator('[data-role="conversation"][data-thread]')
    for k, caller in enumerate(callers, 1):
        press(b, "next-call")
        expect(b.locator('[data-role="status"]')).to_contain_text(f"model call {k} of {len(callers)}")
        expect(conversation).to_have_attribute("data-thread", caller)
