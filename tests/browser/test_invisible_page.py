"""Trojan Source (issue 43): bidirectional and invisible control characters in a lesson's
code, its output, its title and the conversation show as visible markers and reorder
nothing, while a code line's text stays the line's text exactly.

The lesson is `fixture_lessons/trojan` (U+202E and U+2066/U+2069 in a comment and in a
string that the block prints and sends to the model) on its own `loopstep serve`."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, run_to_end, wait_ready
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, run_to_end, wait_ready

LESSONS = Path(__file__).resolve().parent / "fixture_lessons"
SOURCE = (LESSONS / "trojan" / "code.py").read_text("utf-8").splitlines()
NOTE = "abc\u202edef \u2066ghi\u2069"
# The left edges of the characters of `word` (found in a text node of `root`), in order:
# reordered text would put them right to left.
LEFT_EDGES = """(root, word) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    return [...word].map((_, k) => {
      const range = document.createRange();
      range.setStart(node, at + k);
      range.setEnd(node, at + k + 1);
      return range.getBoundingClientRect().left;
    });
  }
  return null;
}"""


@pytest.fixture(scope="module")
def trojan_server():
    with served(LESSONS) as proc:
        yield proc


@pytest.fixture
def trojan(browser_context, trojan_server, request):
    with watched_page(browser_context, trojan_server.url, "/lessons/trojan", request) as page:
        yield page


def left_edges(locator, word):
    return locator.evaluate(LEFT_EDGES, word)


def expect_shown_in_order(locator, words):
    """Each of `words` reads left to right, and each after the one before it."""
    last = None
    for word in words:
        edges = left_edges(locator, word)
        assert edges is not None, word
        assert edges == sorted(edges) and len(set(edges)) == len(edges), (word, edges)
        if last is not None:
            assert edges[0] > last, (word, edges, last)
        last = edges[-1]


def expect_marked(locator, labels):
    """`locator` shows a visible marker for each of `labels`, in order; the characters
    themselves take no room."""
    markers = locator.locator(".invisible")
    expect(markers).to_have_count(len(labels))
    for k, label in enumerate(labels):
        marker = markers.nth(k)
        expect(marker).to_have_attribute("data-label", label)
        expect(marker).to_have_attribute("title", f"{label} " + {
            "U+202E": "RIGHT-TO-LEFT OVERRIDE", "U+2066": "LEFT-TO-RIGHT ISOLATE",
            "U+2069": "POP DIRECTIONAL ISOLATE"}[label])
        assert marker.evaluate("e => getComputedStyle(e, '::before').content") == f'"<{label}>"'
        assert marker.bounding_box()["width"] > 10
        expect(marker.locator(".invisible-char")).to_be_hidden()


def test_the_code_lines_show_the_controls_and_keep_their_exact_text(trojan):
    b = trojan.locator('[data-loopstep-block="trojan/check"]')
    comment, string = b.locator('[data-line="2"]'), b.locator('[data-line="3"]')
    expect(comment).to_have_text(SOURCE[1])
    expect(string).to_have_text(SOURCE[2])
    assert string.evaluate("e => e.textContent") == SOURCE[2]   # the line's text, exactly
    expect_marked(comment, ["U+2066", "U+2069", "U+202E"])
    expect_marked(string, ["U+202E", "U+2066", "U+2069"])
    expect_shown_in_order(string, ["note", "abc", "def", "ghi"])
    expect_shown_in_order(comment, ["only", "admins", "xyz"])
    # the title: marked in the page, labelled in the tab
    expect_marked(trojan.locator("h1"), ["U+202E"])
    assert trojan.title().startswith("隐形字符 <U+202E>abc")


def test_the_output_and_the_conversation_show_the_controls(trojan):
    b = trojan.locator('[data-loopstep-block="trojan/check"]')
    wait_ready(b)
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    output = b.locator('[data-role="output"]')
    expect(output).to_have_text(NOTE + "\n")
    expect_marked(output, ["U+202E", "U+2066", "U+2069"])
    expect_shown_in_order(output, ["abc", "def", "ghi"])
    sent = b.locator('[data-role="conversation"] [data-message]').first
    expect(sent).to_contain_text(NOTE)
    expect_marked(sent.locator("p.part-text"), ["U+202E", "U+2066", "U+2069"])
    expect_shown_in_order(sent.locator("p.part-text"), ["abc", "def", "ghi"])
