"""Invisible and bidirectional control characters shown visibly (the Trojan Source
defence): the server's HTML (web/highlight.py) and the page (page/invisible.js) mark the
same characters the same way, tests/fixtures/invisible_text.json; a code line's text is
still the line's text exactly."""
import json
import shutil
import subprocess
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest

from loopstep.web import highlight

ROOT = Path(__file__).resolve().parent.parent
CASES = json.loads((ROOT / "tests" / "fixtures" / "invisible_text.json").read_text("utf-8"))


def node(script):
    assert shutil.which("node"), "node is required to check the page's invisible characters"
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_server_marks_the_specified_characters(case):
    limit = case.get("limit", highlight.MAX_MARKS)
    got = [p if isinstance(p, str) else list(p) for p in highlight.pieces(case["text"], limit)]
    assert got == case["pieces"]


def test_the_marked_characters_are_unicodes_controls_and_formats_but_tab_and_newline():
    for code in range(0x110000):
        char = chr(code)
        expected = (unicodedata.category(char) in ("Cc", "Cf") or code in (0x2028, 0x2029)) \
            and char not in "\t\n"
        if unicodedata.unidata_version < "15" and 0x13439 <= code <= 0x1343F:
            expected = True   # format controls of Unicode 15 (an older Python names them not)
        assert bool(highlight._ANY.match(char)) == expected, hex(code)


def test_the_page_and_the_server_mark_the_same_characters_and_name_them_alike():
    page = node('import { pieces, NAMES } from "./web/static/js/page/invisible.js";'
                'const marked = [];'
                'for (let c = 0; c <= 0x10FFFF; c++) {'
                '  if (c >= 0xD800 && c <= 0xDFFF) continue;'
                '  if (typeof pieces(String.fromCodePoint(c))[0] !== "string") marked.push(c);'
                '}'
                'console.log(JSON.stringify({marked, names: NAMES}))')
    server = [code for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF
              and highlight._ANY.match(chr(code))]
    assert page["marked"] == server
    assert {int(k): v for k, v in page["names"].items()} == highlight.NAMES
    for code, name in highlight.NAMES.items():
        assert unicodedata.name(chr(code)) == name


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []

    def handle_data(self, data):
        self.text.append(data)


def test_a_highlighted_line_keeps_its_exact_text_and_marks_its_controls():
    source = 'print("abc\u202edef")  # \u2066note\u2069\u200b\nx = 1'
    lines = highlight.highlight_lines(source)
    for line, html in zip(source.split("\n"), lines):
        parsed = _Text()
        parsed.feed(html)
        assert "".join(parsed.text) == line
    assert lines[0].count('class="invisible"') == 4 and 'data-label="U+202E"' in lines[0]
    assert 'title="U+2066 LEFT-TO-RIGHT ISOLATE"' in lines[0]
    assert lines[1] == highlight.highlight_lines("x = 1")[0]


def test_a_carriage_return_survives_the_html_parser():
    parsed = _Text()
    parsed.feed(highlight.visible_html("a\rb"))
    assert "".join(parsed.text) == "a\rb" and "\r" not in highlight.visible_html("a\rb")


def test_plain_text_shows_labels():
    assert highlight.visible_plain("a\u202eb \U0001F468\u200d\U0001F4BB") == \
        "a<U+202E>b \U0001F468\u200d\U0001F4BB"
