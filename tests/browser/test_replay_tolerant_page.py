"""A recording file replayed in the page on a lesson in learn-claude-code's style (a
`TOOL_HANDLERS` table of `lambda **kw:` entries, tests/lcc_agents.py): a tool call the
recording holds otherwise stops at the tool call with its recorded execution beside it,
`button[data-action="replay-tolerant"]` records the run again going on past differences and
marks each call that differs, recorded tool outputs are marked as such, and a command that
ran in the stand-in world is marked as the stand-in's (the contract's "Recorded runs",
docs/recordings.md). Each run is compared with the same one recorded in CPython."""
import json
import re

import pytest
from playwright.sync_api import expect

from lcc_agents import captured, imported, write_lesson
from loopstep.runtime.recorder import record

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, press, run_to_end, shown_output, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, press, run_to_end, shown_output, wait_ready

LESSON = "course_tools"
BLOCK = f'[data-loopstep-block="{LESSON}/agent_loop"]'
EDITED_SYSTEM = "You are a careful agent at /home/ann/proj."


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    root = tmp_path_factory.mktemp("tolerant_page")
    write_lesson(root, LESSON, like="kwargs_lambdas")
    return root


@pytest.fixture(scope="module")
def tolerant_server(lessons):
    with served(lessons) as proc:
        yield proc


@pytest.fixture
def page(browser_context, tolerant_server, request):
    with watched_page(browser_context, tolerant_server.url, f"/lessons/{LESSON}?lang=en",
                      request) as page:
        yield page


def recording(ls_input=None, system=None, ls_executed=True):
    """The captured run, imported: its ``ls -la`` recorded with another input, its system
    prompt another, its ``ls`` execution left out."""
    trace = captured(ls_input=ls_input)
    for cycle in trace["cycles"]:
        cycle["request"]["system"] = system or cycle["request"]["system"]
    if not ls_executed:
        del trace["cycles"][0]["tool_executions"]
    return imported(trace)


def cpython(lessons, answers, tolerant=False):
    return record(LESSON, "agent_loop", "normal", roots=[lessons], recording=answers,
                  tolerant=tolerant)


def load(b, tmp_path, answers):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(answers), "utf-8")
    b.locator('input[type=file][data-role="recording-file"]').set_input_files(str(path))


def results(b):
    return b.locator('[data-role="conversation"] [data-part][data-kind="tool_result"]')


def test_a_tool_call_not_in_the_recording_stops_there_beside_the_recorded_one(
        page, lessons, tmp_path):
    answers = recording(ls_input={"command": "ls"})
    expected = cpython(lessons, answers)
    assert expected["message"] == ('tool call not in the recording at model call 1: '
                                   'bash({"command": "ls -la"})')
    b = page.locator(BLOCK)
    wait_ready(b)
    load(b, tmp_path, answers)
    divergence = b.locator('[data-role="replay-divergence"]')
    expect(divergence).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(divergence).to_have_attribute("data-call", "1")
    expect(divergence).to_have_attribute("data-path", "tool:bash")
    expect(divergence.locator(".divergence-head")).to_have_text(expected["message"])
    recorded = expected["replay"]["divergence"]["recorded"]
    assert recorded.startswith('bash({"command": "ls"}) → "total 16')
    expect(divergence.locator('[data-value="recorded"]')).to_contain_text("recorded execution")
    expect(divergence.locator('[data-value="recorded"] pre')).to_have_text(recorded)
    expect(divergence.locator('[data-value="sent"] pre')).to_have_text('bash({"command": "ls -la"})')
    expect(divergence.locator('button[data-action="replay-tolerant"]')).to_have_text(
        "Go on past differences")
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "error")
    expect(b).not_to_have_attribute("data-replay", "tolerant")


def test_going_on_past_differences_reaches_the_end_with_each_difference_marked(
        page, lessons, tmp_path):
    answers = recording(ls_input={"command": "ls"}, system=EDITED_SYSTEM)
    assert cpython(lessons, answers)["message"] == "divergence at model call 1: system"
    expected = cpython(lessons, answers, tolerant=True)
    assert expected["status"] == "finished" and expected["replay"]["differs"] == 3
    b = page.locator(BLOCK)
    wait_ready(b)
    load(b, tmp_path, answers)
    divergence = b.locator('[data-role="replay-divergence"]')
    expect(divergence).to_have_attribute("data-path", "system", timeout=BOOT_TIMEOUT)
    press(b, "replay-tolerant")   # from the keyboard
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-replay", "tolerant")
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(expected["stdout"]))
    expect(divergence).to_be_hidden()
    info = b.locator('[data-role="recording-info"]')
    expect(info).to_have_attribute("data-differs", "4")   # three model calls, one tool call
    expect(info).to_contain_text("4 calls differ from the recording")
    expect(info).to_be_focused()
    marks = b.locator('[data-role="timeline-marks"]')
    expect(marks.locator('[data-mark="model"][data-differs="system"]')).to_have_count(3)
    expect(marks.locator('[data-mark="tool"][data-differs="tool:bash"]')).to_have_count(1)
    expect(marks.locator('[data-mark="tool"][data-differs]')).to_have_count(1)
    response = b.locator('[data-role="conversation"] [data-role="response"]')
    expect(response).to_have_attribute("data-differs", "system")
    expect(response).to_contain_text("differs from the recording: system")
    bash, read = results(b).nth(0), results(b).nth(1)
    expect(bash).to_have_attribute("data-differs", "tool:bash")
    expect(bash).to_have_attribute("data-recorded", "true")
    expect(read).not_to_have_attribute("data-differs", re.compile(".*"))
    expect(read).to_have_attribute("data-recorded", "true")


def test_recorded_tool_outputs_are_marked_and_nothing_differs(page, lessons, tmp_path):
    expected = cpython(lessons, recording())
    assert expected["status"] == "finished" and expected["replay"]["tool_outputs"] == 2
    b = page.locator(BLOCK)
    wait_ready(b)
    load(b, tmp_path, recording())
    expect(b).to_have_attribute("data-run-source", "recorded", timeout=BOOT_TIMEOUT)
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(expected["stdout"]))
    expect(results(b)).to_have_count(2)
    for k in range(2):
        expect(results(b).nth(k)).to_have_attribute("data-recorded", "true")
    expect(results(b).nth(0).locator("pre")).to_contain_text("drwxr-xr-x 2 ann ann")
    expect(b.locator("[data-differs], [data-stand-in]")).to_have_count(0)
    expect(b).not_to_have_attribute("data-replay", "tolerant")
    expect(b.locator('button[data-action="replay-tolerant"]')).to_have_count(0)


def test_a_command_run_in_the_stand_in_world_is_marked_as_its_output(page, lessons, tmp_path):
    answers = recording(ls_executed=False)
    expected = cpython(lessons, answers, tolerant=True)
    bash = expected["agent"]["tools"][0]
    assert bash["stand_in"] is True and not bash["recorded"]
    assert [call.get("differs") for call in expected["agent"]["calls"]][0] is None
    b = page.locator(BLOCK)
    wait_ready(b)
    load(b, tmp_path, answers)
    divergence = b.locator('[data-role="replay-divergence"]')
    expect(divergence).to_have_attribute("data-call", "2", timeout=BOOT_TIMEOUT)
    press(b, "replay-tolerant")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="recording-info"]')).to_have_attribute("data-differs", "2")
    stand_in, read = results(b).nth(0), results(b).nth(1)
    expect(stand_in).to_have_attribute("data-stand-in", "true")
    expect(stand_in).to_contain_text("stand-in's output")
    expect(stand_in).not_to_have_attribute("data-recorded", "true")
    expect(read).to_have_attribute("data-recorded", "true")
    expect(read).not_to_have_attribute("data-stand-in", re.compile(".*"))
