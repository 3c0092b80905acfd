"""A course-style compaction agent (tests/course/c06-compact: a whole agent file whose
auto-compaction names its transcript `transcript_{int(time.time())}.jsonl` under the run's
folder) in real Chromium, recorded live by the page's Python: paused where the history is
compacted, stepped over it and on to the end from the keyboard, it prints exactly what
CPython prints, the transcript's name and path included. Runs against its own
`loopstep serve --lessons tests/course`."""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import (expect_paused_at, gutter, press, press_and_draw, shown_output,
                               wait_ready)
except ImportError:
    from conftest import served, watched_page
    from page_helpers import (expect_paused_at, gutter, press, press_and_draw, shown_output,
                              wait_ready)

from loopstep.runtime.recorder import record

COURSE = Path(__file__).resolve().parent.parent / "course"
LESSON, BLOCK, PRESET = "c06-compact", "agent_loop", "auto"
COMPACT_LINE = 8     # agent_loop's `messages[:] = auto_compact(messages)`
MAX_STEPS = 400      # step-over presses before the test gives up on reaching the end


@pytest.fixture(scope="module")
def course_server():
    with served(COURSE) as proc:
        yield proc


def test_stepping_the_compaction_agent_to_the_end_prints_what_cpython_prints(
        browser_context, course_server, request):
    expected = record(LESSON, BLOCK, PRESET, roots=[COURSE])
    assert expected["status"] == "finished"
    saved = "[transcript saved: /tmp/loopstep-run/.transcripts/transcript_1767258000.jsonl]"
    assert saved in expected["stdout"]
    with watched_page(browser_context, course_server.url, f"/lessons/{LESSON}?trace=live",
                      request) as page:
        b = page.locator(f'[data-loopstep-block="{LESSON}/{BLOCK}"]')
        wait_ready(b)
        expect(b).to_have_attribute("data-scenario", PRESET)
        expect(b.locator(f'[data-line="{COMPACT_LINE}"]')).to_have_text(
            "            messages[:] = auto_compact(messages)")
        gutter(b, COMPACT_LINE).focus()
        page.keyboard.press("Enter")
        expect(gutter(b, COMPACT_LINE)).to_have_attribute("aria-pressed", "true")
        press(b, "debug")
        expect_paused_at(b, COMPACT_LINE)
        expect(b).to_have_attribute("data-trace", "live")
        output = b.locator('[data-role="output"]')
        expect(output).to_contain_text("[auto compact: ~")
        expect(output).not_to_contain_text("transcript saved")

        press_and_draw(b, "step-over")
        expect(output).to_contain_text(saved)
        steps = 1
        while press_and_draw(b, "step-over") != "end":
            steps += 1
            assert steps < MAX_STEPS, "the run did not end"
        expect(b).to_have_attribute("data-state", re.compile(r"^finished$"))
        expect(output).to_have_text(shown_output(expected["stdout"]))
