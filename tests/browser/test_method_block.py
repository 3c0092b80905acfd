"""A block of a method (`symbol = "Board.claim"`, tests/method_lesson.py) in real Chromium:
the method's lines show as in the file, their numbers and indentation kept; a breakpoint
set from the keyboard on a line of the method pauses there, the variables pane showing
`self` and the method's locals, the stack the method alone (its caller is not shown).
Runs against its own `loopstep serve --lessons DIR`."""
import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, expect_paused_at, gutter, press, value, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, expect_paused_at, gutter, press, value, wait_ready
from method_lesson import LINES, line_of, make_lesson

CLAIM = list(range(11, 18))   # Board.claim's lines in the file
# the left edge of each line's first character that is not a space
FIRST_INK = """els => els.map(el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.search(/\\S/);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect().left;
  }
  return null;
})"""


@pytest.fixture(scope="module")
def board_server(tmp_path_factory):
    with served(make_lesson(tmp_path_factory.mktemp("lessons"))) as proc:
        yield proc


def test_a_method_block_shows_its_lines_and_pauses_in_the_method(browser_context, board_server,
                                                                  request):
    with watched_page(browser_context, board_server.url, "/lessons/board", request) as page:
        claim = page.locator('[data-loopstep-block="board/Board.claim"]')
        lines = claim.locator("[data-line]")
        expect(lines).to_have_count(len(CLAIM))
        assert lines.evaluate_all("els => els.map(e => Number(e.dataset.line))") == CLAIM
        assert lines.evaluate_all("els => els.map(e => e.textContent)") == LINES[10:17]
        assert claim.locator("button[data-gutter]").evaluate_all(
            "els => els.map(e => e.textContent.trim())") == [str(n) for n in CLAIM]
        # the indentation shows: the body starts right of the def, a nested line further
        ink = lines.evaluate_all(FIRST_INK)
        assert ink[0] < ink[1] < ink[2] < ink[3], ink
        wait_ready(claim)

        line = line_of('note = f"{who} took {task}"')
        gutter(claim, line).focus()
        page.keyboard.press("Enter")
        expect(gutter(claim, line)).to_have_attribute("aria-pressed", "true")
        press(claim, "debug")
        expect_paused_at(claim, line)
        expect(value(claim, "self")).to_contain_text("Board")
        expect(value(claim, "who")).to_have_text("'ann'")
        expect(value(claim, "task")).to_have_text("'plan'")
        expect(claim.locator('[data-role="variables"] [data-var]')).to_have_count(3)
        shown = claim.locator('[data-role="stack"] [data-frame]:not([data-hidden="true"])')
        expect(shown).to_have_count(1)
        expect(shown).to_have_attribute("data-frame", "claim")
        expect(page.locator('[data-stage="take"]')).to_have_attribute("aria-current", "true")

        press(claim, "step-over")
        expect_paused_at(claim, line + 1)
        expect(value(claim, "note")).to_have_text("'ann took plan'")
        press(claim, "continue")   # the loop's next call of the method
        expect_paused_at(claim, line)
        expect(value(claim, "who")).to_have_text("'bo'", timeout=BOOT_TIMEOUT)
        expect(value(claim, "task")).to_have_text("'build'")
