"""Server-side syntax highlighting, one HTML fragment per source line.

The code must be readable before any script runs, and each line's text content
must be exactly the line's text: tokens are split at newlines and escaped. Invisible
and bidirectional control characters are marked (``visible_html``) as the page's
``web/static/js/page/invisible.js`` marks them: the text stays exact, the display shows
a label in their place and they reorder nothing.
"""
from __future__ import annotations

import re
from html import escape

from pygments import lex
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES, Token

_LEXER = PythonLexer(stripnl=False, ensurenl=False)

# The characters marked: Unicode's Cc and Cf (as of Unicode 15) but \t and \n, and
# U+2028/9; a joiner inside an emoji sequence and a flag's tag characters are left alone.
# The same as page/invisible.js (tests/test_invisible.py).
CONTROLS = ("\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD"
            "\u070F\u0890-\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064"
            "\u2066-\u206F\uFEFF\uFFF9-\uFFFB\U000110BD\U000110CD\U00013430-\U0001343F"
            "\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0001\U000E0020-\U000E007F")
_PICTURE = "[\u2600-\u27BF\u2B00-\u2BFF\U0001F000-\U0001FAFF][\uFE0F\U0001F3FB-\U0001F3FF]?"
_PATTERN = re.compile(f"({_PICTURE}(?:\u200D{_PICTURE})+|\U0001F3F4[\U000E0020-\U000E007E]+"
                      f"\U000E007F)|[{CONTROLS}]")
_ANY = re.compile(f"[{CONTROLS}]")
# the names shown in a marker's title (the rest show their code point alone)
NAMES = {
    0x00AD: "SOFT HYPHEN", 0x061C: "ARABIC LETTER MARK", 0x180E: "MONGOLIAN VOWEL SEPARATOR",
    0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
    0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK", 0x2028: "LINE SEPARATOR",
    0x2029: "PARAGRAPH SEPARATOR", 0x202A: "LEFT-TO-RIGHT EMBEDDING",
    0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
    0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2060: "WORD JOINER",
    0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE",
    0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
    0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}
# past this many marks in one text, the rest show as their labels in plain text
MAX_MARKS = 2000


def label(char: str) -> str:
    """"U+202E" for a character."""
    return f"U+{ord(char):04X}"


def pieces(text: str, limit: int = MAX_MARKS) -> list:
    """The text in pieces: strings, and (char, label, title) for each character to mark
    (the first ``limit``; past them, one string with each character as "<U+202E>")."""
    if not _ANY.search(text):
        return [text]
    out, last, marks = [], 0, 0
    for match in _PATTERN.finditer(text):
        if match.group(1) is not None:
            continue   # an emoji sequence: left as it is
        if marks == limit:
            break
        if match.start() > last:
            out.append(text[last:match.start()])
        char = match.group()
        name = NAMES.get(ord(char))
        out.append((char, label(char), f"{label(char)} {name}" if name else label(char)))
        marks += 1
        last = match.end()
    rest = text[last:]
    if marks == limit:
        rest = _PATTERN.sub(lambda m: m.group(1) or f"<{label(m.group())}>", rest)
    if rest:
        out.append(rest)
    return out


def visible_plain(text: str) -> str:
    """``text`` with each invisible character as its label ("<U+202E>"), for where no
    element can mark it (a page's <title>)."""
    return "".join(piece if isinstance(piece, str) else f"<{piece[1]}>"
                   for piece in pieces(text, 0))


def visible_html(text: str) -> str:
    """``text`` as escaped HTML, each invisible character in a marker (page/invisible.js)."""
    html = []
    for piece in pieces(text):
        if isinstance(piece, str):
            html.append(escape(piece, quote=False))
        else:
            char, shown, title = piece
            # a carriage return as a reference: the HTML parser turns a raw one into "\n"
            raw = "&#13;" if char == "\r" else char
            html.append(f'<span class="invisible" data-label="{shown}" title="{title}">'
                        f'<span class="invisible-char">{raw}</span></span>')
    return "".join(html)


def _css_class(token_type) -> str:
    while token_type not in STANDARD_TYPES and token_type is not Token:
        token_type = token_type.parent
    return STANDARD_TYPES.get(token_type, "")


def highlight_lines(code: str) -> list[str]:
    """HTML for each line of `code` (no trailing newline kept), tokens as spans."""
    lines: list[list[str]] = [[]]
    for token_type, value in lex(code, _LEXER):
        css = _css_class(token_type)
        for i, part in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if part:
                text = visible_html(part)
                lines[-1].append(f'<span class="{css}">{text}</span>' if css else text)
    expected = code.split("\n")
    html = ["".join(parts) for parts in lines][: len(expected)]
    html += [""] * (len(expected) - len(html))
    return html
