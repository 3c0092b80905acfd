"""A long run streams (docs/recordings.md, "A long run streams"): a loaded recording file's
run longer than the page's first steps shows them while the rest is replayed, then the
whole run takes their place. On the fixture lesson `recorded` (its "real" run: 20 steps,
2 model calls) served with `--first-steps 8`, so that its first 8 steps (1 call) come
first. What the reader does while the first steps show is done in the page at the moment
they show (a MutationObserver on the block's attributes), before the whole run can arrive:
the whole run's trace is handed over only after the first steps were shown."""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from loopstep.runtime.recorder import record
from loopstep.web import page_data

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, run_to_end, select_scenario, shown_output, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, run_to_end, select_scenario, shown_output, wait_ready

FIXTURES = Path(__file__).resolve().parent / "fixture_lessons"
REAL = FIXTURES / "recorded" / "real.json"
BLOCK = '[data-loopstep-block="recorded/agent_loop"]'
FIRST = 8
ZH = page_data.messages()["zh"]

# Notes the block's attributes (and its status, its progress, its current line) at each
# change; `act`: the button pressed once the first steps show, and what the block said then.
WATCH = """([selector, act]) => {
  const root = document.querySelector(selector);
  const progress = root.querySelector('[data-role="recording-progress"]');
  const seen = (window.loopstepStream = []);
  const note = (what) => seen.push({ what, streaming: root.dataset.streaming ?? null,
    state: root.dataset.state, drawn: root.dataset.drawn ?? null,
    phase: progress.dataset.phase ?? null, made: progress.dataset.made ?? null,
    status: root.querySelector('[data-role="status"]').textContent,
    line: root.querySelector('[data-line][aria-current="step"]')?.dataset.line ?? null });
  let acted = false;
  new MutationObserver(() => {
    note("change");
    if (act && !acted && root.dataset.streaming) {
      acted = true;
      root.querySelector(`button[data-action="${act}"]`).click();
      note(act);
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-streaming", "data-state", "data-drawn"] });
}"""


@pytest.fixture(scope="module")
def streaming_server():
    with served(FIXTURES, "--first-steps", str(FIRST)) as proc:
        yield proc


@pytest.fixture
def page(browser_context, streaming_server, request):
    with watched_page(browser_context, streaming_server.url, "/lessons/recorded", request) as page:
        yield page


def whole_run():
    trace = record("recorded", "agent_loop", "real", roots=[str(FIXTURES)])
    assert trace["status"] == "finished" and len(trace["steps"]) > FIRST
    return trace


def first_line(trace):
    """The line Debug pauses at first: the first line event's (the block's own numbers)."""
    return next(s["line"] for s in trace["steps"] if s["event"] == "line")


def load(page, act=None):
    b = page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "scripted")
    page.evaluate(WATCH, [BLOCK, act])
    b.locator('input[type=file][data-role="recording-file"]').set_input_files(str(REAL))
    return b


def seen(page):
    return page.evaluate("window.loopstepStream")


def streamed(notes):
    return [n for n in notes if n["streaming"] is not None]


def test_the_first_steps_show_while_the_rest_is_replayed_then_the_whole_run(page):
    expected = whole_run()
    b = load(page)
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-drawn", "end")
    expect(b).not_to_have_attribute("data-streaming", re.compile(".*"))
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(expected["stdout"]))
    expect(b.locator('[data-role="recording-progress"]')).to_be_hidden()
    info = b.locator('[data-role="recording-info"]')
    expect(info).to_have_attribute("data-calls", "2")
    notes = seen(page)
    first = streamed(notes)
    assert first, notes   # the first steps were shown before the whole run
    assert {n["streaming"] for n in first} == {str(FIRST)}
    shown = first[-1]   # paused where a load pauses among them (no breakpoint: the first line)
    assert shown["state"] == "paused" and shown["line"] == str(first_line(expected))
    assert shown["phase"] == "streaming" and shown["made"] == "1"
    assert shown["status"].endswith(ZH["status_streaming"].format(steps=FIRST))
    assert all(n["drawn"] in (None, "1") for n in first)
    # then the whole run, shown where a load shows it (no breakpoint: its end)
    after = notes[notes.index(first[-1]) + 1:]
    assert after and after[-1]["state"] == "finished" and after[-1]["drawn"] == "end"


def test_a_step_among_the_first_steps_stays_where_it_is_when_the_whole_run_arrives(page):
    b = load(page, "step-over")
    expect(b).to_have_attribute("data-run-source", "recorded", timeout=BOOT_TIMEOUT)
    expect(b).not_to_have_attribute("data-streaming", re.compile(".*"))
    notes = seen(page)
    [stepped] = [n for n in notes if n["what"] == "step-over"]
    assert stepped["streaming"] == str(FIRST) and stepped["state"] == "paused"
    assert stepped["line"] not in (None, str(first_line(whole_run())))   # it moved
    expect(b).to_have_attribute("data-state", "paused")
    expect(b).to_have_attribute("data-drawn", re.compile(r"^\d+$"))
    expect(b.locator('[data-line][aria-current="step"]').first).to_have_attribute("data-line", stepped["line"])
    paused = stepped["status"].split(ZH["status_streaming"].format(steps=FIRST))[0]
    expect(b.locator('[data-role="status"]')).to_have_text(re.compile("^" + re.escape(paused)))
    expect(b.locator('[data-role="status"]')).not_to_contain_text(ZH["status_streaming"][:6])
    # the whole run is the one shown: Continue goes on past the first steps, to its end
    b.locator('button[data-action="continue"]').press("Enter")
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(whole_run()["stdout"]))


def test_continue_past_the_first_steps_waits_for_the_whole_run(page):
    b = load(page, "continue")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-drawn", "end")
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(whole_run()["stdout"]))
    [pressed] = [n for n in seen(page) if n["what"] == "continue"]
    assert pressed["state"] == "running" and pressed["status"] == ZH["status_waiting"]


def test_cancel_while_the_first_steps_show_drops_them(page):
    b = load(page, "cancel-recording")
    error = b.locator('[data-role="recording-error"]')
    expect(error).to_have_attribute("data-kind", "cancelled", timeout=BOOT_TIMEOUT)
    expect(b).not_to_have_attribute("data-streaming", re.compile(".*"))
    expect(b).to_have_attribute("data-state", "ready")
    expect(b).to_have_attribute("data-scenario", "scripted")
    expect(b.locator('[data-role="recording-progress"]')).to_be_hidden()
    notes = seen(page)
    [pressed] = [n for n in notes if n["what"] == "cancel-recording"]
    assert pressed["streaming"] == str(FIRST)
    after = notes[notes.index(pressed) + 1:]
    assert after and all(n["streaming"] is None for n in after) and after[-1]["state"] == "ready"
    # the block answers as before: its scripted run
    run_to_end(b)
    expect(b).to_have_attribute("data-run-source", "scripted")
