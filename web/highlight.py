"""Server-side syntax highlighting, one HTML fragment per source line.

The code must be readable before any script runs, and each line's text content
must be exactly the line's text: tokens are split at newlines and escaped.
"""
from __future__ import annotations

from html import escape

from pygments import lex
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES, Token

_LEXER = PythonLexer(stripnl=False, ensurenl=False)


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
                text = escape(part, quote=False)
                lines[-1].append(f'<span class="{css}">{text}</span>' if css else text)
    expected = code.split("\n")
    html = ["".join(parts) for parts in lines][: len(expected)]
    html += [""] * (len(expected) - len(html))
    return html
