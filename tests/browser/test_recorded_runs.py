"""Recorded runs in the page (the contract's "Recorded runs"), on the fixture lesson
`fixture_lessons/recorded`, whose preset "real" answers its model calls from
`recorded/real.json`: where a run's answers came from, the recording's details, thinking
and raw parts, a divergence, loading a file (good, bad, for another block) and
downloading the shown run's recording, which loads back and replays the same output.
Outputs are compared with the same runs recorded in CPython."""
import copy
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from loopstep.runtime.recorder import record
from loopstep.web import page_data
from loopstep.runtime.recording import format as recording_format

try:
    from .conftest import served, watched_page
    from .page_helpers import (BOOT_TIMEOUT, current_lines, expect_paused_at, press,
                               run_to_end, select_scenario, shown_output, toggle_breakpoint,
                               wait_ready)
except ImportError:
    from conftest import served, watched_page
    from page_helpers import (BOOT_TIMEOUT, current_lines, expect_paused_at, press,
                              run_to_end, select_scenario, shown_output, toggle_breakpoint,
                              wait_ready)

FIXTURES = Path(__file__).resolve().parent / "fixture_lessons"
RECORDING = json.loads((FIXTURES / "recorded" / "real.json").read_text("utf-8"))
BLOCK = '[data-loopstep-block="recorded/agent_loop"]'


def cpython(recording=None, scenario="real"):
    return record("recorded", "agent_loop", scenario, roots=[str(FIXTURES)], recording=recording)


@pytest.fixture(scope="module")
def recorded_server():
    with served(FIXTURES) as proc:
        yield proc


@pytest.fixture
def recorded_page(browser_context, recorded_server, request):
    with watched_page(browser_context, recorded_server.url, "/lessons/recorded", request) as page:
        yield page


def output(b):
    return b.locator('[data-role="output"]')


def load(b, path):
    b.locator('input[type=file][data-role="recording-file"]').set_input_files(str(path))


def write(tmp_path, name, recording):
    path = tmp_path / name
    path.write_text(json.dumps(recording) if not isinstance(recording, str) else recording, "utf-8")
    return path


def test_a_recorded_preset_shows_its_source_details_and_thinking(recorded_page):
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    run_to_end(b)
    expected = cpython()
    assert expected["status"] == "finished"
    expect(b).to_have_attribute("data-state", "finished")
    expect(output(b)).to_have_text(shown_output(expected["stdout"]))
    expect(b).to_have_attribute("data-run-source", "recorded")
    expect(b).to_have_attribute("data-trace", "live")
    info = b.locator('[data-role="recording-info"]')
    expect(info).to_be_visible()
    expect(info).to_have_attribute("data-calls", "2")
    expect(info).to_contain_text("anthropic")
    expect(info).to_contain_text("claude-test-2025")
    expect(b.locator('[data-role="replay-divergence"]')).to_be_hidden()
    # back at the first call: its thinking, collapsed; then the second: redacted and raw
    press(b, "prev-call")
    press(b, "prev-call")
    press(b, "step-over")   # the call returned: its response is shown
    panel = b.locator('[data-role="conversation"]')
    thinking = panel.locator('[data-role="response"] [data-part][data-kind="thinking"]')
    expect(thinking).to_have_count(1)
    expect(thinking).not_to_have_attribute("open", re.compile(".*"))
    expect(thinking).not_to_have_attribute("data-redacted", "true")
    expect(thinking.locator("pre")).to_be_hidden()
    thinking.locator("summary").click()
    expect(thinking.locator("pre")).to_have_text(
        "The user asks about todo.txt: read it with read_note.")
    press(b, "next-call")
    press(b, "step-over")
    response = panel.locator('[data-role="response"]')
    expect(response.locator('[data-part][data-kind="thinking"]')).to_have_attribute(
        "data-redacted", "true")
    expect(response.locator('[data-part][data-kind="raw"]')).to_contain_text(
        "ServerToolUseBlock(id='srvtoolu_1'")
    # a scripted preset: the setup answers, no recording details
    select_scenario(b, "scripted")
    run_to_end(b)
    expect(b).to_have_attribute("data-run-source", "scripted")
    expect(b.locator('[data-role="recording-info"]')).to_be_hidden()
    expect(b.locator('button[data-action="download-recording"]')).to_be_hidden()
    expect(output(b)).to_have_text(shown_output(cpython(scenario="scripted")["stdout"]))


def test_breakpoints_stepping_back_and_a_permalink_on_a_recorded_preset(recorded_page):
    page = recorded_page
    b = page.locator(BLOCK)
    wait_ready(b)
    toggle_breakpoint(b, 5)
    press(b, "debug")
    expect_paused_at(b, 5)
    press(b, "continue")
    expect_paused_at(b, 5)   # the second model call answered from the recording
    press(b, "step-back")
    assert current_lines(b) != [5]
    press(b, "continue")
    expect_paused_at(b, 5)
    second = [i for i, step in enumerate(cpython()["steps"]) if step["line"] == 5][1]
    expect(page).to_have_url(re.compile(rf"s=real&bp=5&step={second}$"))
    link = page.url
    again = page.context.new_page()
    try:
        again.goto(link)
        restored = again.locator(BLOCK)
        expect(restored).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
        expect_paused_at(restored, 5)
        expect(restored).to_have_attribute("data-run-source", "recorded")
        expect(restored.locator('[data-role="conversation"] [data-role="response"]')).to_contain_text(
            "todo.txt holds two items")
    finally:
        again.close()


def test_an_edited_system_prompt_diverges_at_call_1_on_system(recorded_page, tmp_path):
    edited = copy.deepcopy(RECORDING)
    edited["calls"][0]["request"]["system"] = "You are a careful agent."
    expected = cpython(edited)
    assert expected["status"] == "error"
    assert expected["message"] == "divergence at model call 1: system"
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    # the reader about to choose a file: the guest runtime that replays it boots meanwhile
    guest = recorded_page.locator('iframe[data-role="guest-runtime"]')
    expect(guest).to_have_count(0)
    b.locator('input[type=file][data-role="recording-file"]').focus()
    expect(guest).to_have_count(1)
    load(b, write(tmp_path, "edited.json", edited))
    divergence = b.locator('[data-role="replay-divergence"]')
    expect(divergence).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(divergence).to_have_attribute("data-call", "1")
    expect(divergence).to_have_attribute("data-path", "system")
    expect(divergence.locator('[data-value="recorded"] pre')).to_have_text('"You are a careful agent."')
    expect(divergence.locator('[data-value="sent"] pre')).to_have_text(
        '"You are a coding agent. Answer briefly."')
    expect(b).to_have_attribute("data-run-source", "recorded")
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "error")
    expect(b.locator('[data-role="status"]')).to_contain_text("divergence at model call 1: system")


CANNOT_ANSWER = [
    ("notes.txt", "hello", "notes.txt: $: not JSON"),
    ("slow.json", {**RECORDING, "calls": [{**RECORDING["calls"][0], "seconds": "slow"}]},
     "slow.json: $.calls[0].seconds: must be number"),
    ("other.json", {**RECORDING, "made_for": {"lesson": "recorded", "block": "read_note",
                                              "preset": None}},
     "made for recorded/read_note, not for recorded/agent_loop"),
]


def test_a_file_that_cannot_answer_says_why_and_leaves_the_block(recorded_page, tmp_path):
    """Each file loaded in turn into the block: each says why, and the block keeps its run."""
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "scripted")
    run_to_end(b)
    shown = output(b).text_content()
    error = b.locator('[data-role="recording-error"]')
    for name, content, reason in CANNOT_ANSWER:
        load(b, write(tmp_path, name, content))
        expect(error).to_contain_text(reason, timeout=BOOT_TIMEOUT)
        expect(error).to_be_visible()
        expect(b).to_have_attribute("data-state", "finished")
        expect(b).to_have_attribute("data-scenario", "scripted")
        expect(b).to_have_attribute("data-run-source", "scripted")
        assert output(b).text_content() == shown, name


def test_a_recording_nested_100000_deep_is_refused_where_it_passes_the_cap(recorded_page,
                                                                          tmp_path):
    """A file nested 100,000 deep would overflow the worker's stack when parsed: it is
    refused first, naming the JSON path, and the runtime goes on running the block."""
    text = json.dumps(RECORDING)
    at = text.index('"content": [', text.index('"response"')) + len('"content": [')
    deep = text[:at] + "[" * 100_000 + "]" * 100_000 + ", " + text[at:]
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "scripted")
    run_to_end(b)
    shown = output(b).text_content()
    load(b, write(tmp_path, "deep.json", deep))
    error = b.locator('[data-role="recording-error"]')
    expect(error).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(error).to_have_text(re.compile(
        r"^deep\.json: nested too deeply at \$\.calls\[0\]\.response\.content\[0\](\[0\])+ "
        r"\(more than 64 levels of arrays and objects\)$"))
    expect(b).to_have_attribute("data-state", "finished")
    expect(b).to_have_attribute("data-run-source", "scripted")
    assert output(b).text_content() == shown
    press(b, "reset")
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    assert output(b).text_content() == shown


def test_download_then_load_replays_the_same_output(recorded_page, tmp_path):
    page = recorded_page
    b = page.locator(BLOCK)
    wait_ready(b)
    run_to_end(b)
    first = output(b).text_content()
    with page.expect_download() as saving:
        b.locator('button[data-action="download-recording"]').click()
    saved = tmp_path / saving.value.suggested_filename
    saving.value.save_as(saved)
    assert saved.suffix == ".json"
    assert json.loads(saved.read_text("utf-8")) == RECORDING
    select_scenario(b, "scripted")
    run_to_end(b)
    expect(b).to_have_attribute("data-run-source", "scripted")
    load(b, saved)
    expect(b).to_have_attribute("data-scenario", "real", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-run-source", "recorded", timeout=BOOT_TIMEOUT)
    run_to_end(b)
    expect(output(b)).to_have_text(first)
    expect(b.locator('[data-role="recording-error"]')).to_be_hidden()
    # the loaded file is what a second download saves
    with page.expect_download() as again:
        b.locator('button[data-action="download-recording"]').click()
    assert again.value.suggested_filename == saved.name


def test_an_imported_recordings_tool_outputs_answer_the_handler(recorded_page):
    """imported.json came from another tool: its tool outputs (not the stand-in notes)
    answer read_note, marked as the recording's; the second one its source cut."""
    expected = cpython(scenario="imported")
    assert expected["status"] == "finished" and expected["replay"]["tool_outputs"] == 2
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "imported")
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(output(b)).to_have_text(shown_output(expected["stdout"]))
    expect(output(b)).to_contain_text("buy oat milk")
    info = b.locator('[data-role="recording-info"]')
    expect(info).to_have_attribute("data-imported-from", "learn-claude-code")
    results = b.locator('[data-role="conversation"] [data-part][data-kind="tool_result"]')
    expect(results).to_have_count(2)
    expect(results.nth(0)).to_have_attribute("data-recorded", "true")
    expect(results.nth(0)).not_to_have_attribute("data-cut", "true")
    expect(results.nth(0).locator("pre")).to_have_text("buy oat milk\nfix the login bug\n")
    expect(results.nth(1)).to_have_attribute("data-recorded", "true")
    expect(results.nth(1)).to_have_attribute("data-cut", "true")
    expect(results.nth(1)).to_have_attribute("data-length", "7200")
    # the scripted preset runs the handler itself: nothing is the recording's
    select_scenario(b, "scripted")
    run_to_end(b)
    expect(b.locator('[data-role="conversation"] [data-part][data-recorded]')).to_have_count(0)


def test_a_version_3_file_replays_as_the_version_1_file_does(recorded_page, tmp_path):
    """The fixture's run written as version 3 (each message stored once: what `loopstep
    import recording` makes of it): the page's Python reads it whole and replays it."""
    text = recording_format.dumps(recording_format.check(copy.deepcopy(RECORDING)))
    document = json.loads(text)
    assert document["version"] == 3 and document["calls"][1]["continues"]["call"] == 1
    expected = cpython()
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "scripted")
    run_to_end(b)
    load(b, write(tmp_path, "compact.json", text))
    expect(b).to_have_attribute("data-scenario", "real", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-run-source", "recorded", timeout=BOOT_TIMEOUT)
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(output(b)).to_have_text(shown_output(expected["stdout"]))
    expect(b.locator('[data-role="recording-info"]')).to_have_attribute("data-calls", "2")
    expect(b.locator('[data-role="recording-error"]')).to_be_hidden()
    # a version 3 file whose reference leads nowhere is refused with its JSON path
    document["calls"][1]["continues"]["call"] = 2
    load(b, write(tmp_path, "broken.json", json.dumps(document)))
    error = b.locator('[data-role="recording-error"]')
    expect(error).to_contain_text("broken.json: $.calls[1].continues.call: must be an earlier "
                                  "call (1 to 1)", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-run-source", "recorded")


ZH = page_data.messages()["zh"]
WATCH_PROGRESS = """(block) => {
  const node = block.querySelector('[data-role="recording-progress"]');
  const seen = (window.loopstepProgressSeen = []);
  new MutationObserver(() => seen.push({ hidden: node.hidden, phase: node.dataset.phase ?? null,
    bytes: node.dataset.bytes ?? null, total: node.dataset.total ?? null,
    calls: node.dataset.calls ?? null })).observe(node, { attributes: true });
  new MutationObserver(() => seen.push({ run: block.dataset.runSource ?? null }))
    .observe(block, { attributes: true, attributeFilter: ["data-run-source"] });
}"""


def test_a_large_file_shows_its_progress_and_a_cancelled_load_loses_nothing(recorded_page,
                                                                          tmp_path):
    """A 3 MB file (the fixture's run, padded): its load shows the bytes read, then the calls
    checked, gone once the run shows. Cancelled while the guest runtime checks it (its first
    guest run: the runtime boots meanwhile), the block keeps its run and says so; loaded
    again, it replays."""
    text = json.dumps(RECORDING, indent=1)
    path = write(tmp_path, "large.json", text + " " * (3_000_000 - len(text)))
    size = path.stat().st_size
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "scripted")
    run_to_end(b)
    shown = output(b).text_content()
    progress = b.locator('[data-role="recording-progress"]')
    expect(progress).to_be_hidden()
    load(b, path)
    expect(progress).to_be_visible()
    expect(progress.get_by_role("progressbar", name=ZH["recording_progress"])).to_be_visible()
    progress.locator('button[data-action="cancel-recording"]').press("Enter")
    error = b.locator('[data-role="recording-error"]')
    expect(error).to_have_attribute("data-kind", "cancelled")
    expect(error).to_have_text(ZH["recording_cancelled"].replace("{name}", "large.json"))
    expect(progress).to_be_hidden()
    expect(b.locator('input[type=file][data-role="recording-file"]')).to_be_focused()
    expect(b).to_have_attribute("data-state", "finished")
    expect(b).to_have_attribute("data-scenario", "scripted")
    expect(b).to_have_attribute("data-run-source", "scripted")
    assert output(b).text_content() == shown
    # loaded again: read to its end, its calls counted, then the run
    b.evaluate(WATCH_PROGRESS)
    load(b, path)
    expect(b).to_have_attribute("data-run-source", "recorded", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-scenario", "real")
    expect(progress).to_be_hidden()
    expect(error).to_be_hidden()
    seen = recorded_page.evaluate("window.loopstepProgressSeen")
    shown_at = next(i for i, s in enumerate(seen) if s.get("run") == "recorded")
    before = [s for s in seen[:shown_at] if "bytes" in s]
    assert {s["total"] for s in before} == {str(size)}
    read = [int(s["bytes"]) for s in before]
    assert read == sorted(read) and read[-1] == size and any(0 < n < size for n in read)
    assert [s["calls"] for s in before if s["phase"] == "checking"][-1] == "2"
    assert not any(s.get("hidden") is False for s in seen[shown_at:] if "bytes" in s)
    run_to_end(b)
    expect(output(b)).to_have_text(shown_output(cpython()["stdout"]))
