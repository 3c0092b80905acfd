"""POSIX regular expressions (basic: grep, sed; extended: ``-E``) as Python ``re``
patterns: ``\\(…\\)``, ``\\{…\\}``, ``\\|``, ``\\+``, ``\\?`` in basic ones, bracket
classes such as ``[[:digit:]]``, ``\\<``/``\\>`` word edges."""

import re

_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z",
            "lower": "a-z", "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct":
            "!-/:-@\\[-`{-~", "xdigit": "0-9A-Fa-f", "word": "a-zA-Z0-9_"}


def translate(pattern, extended=False):
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "[":
            end, body = _bracket(pattern, i)
            out.append(body)
            i = end
            continue
        if char == "\\" and i + 1 < len(pattern):
            following = pattern[i + 1]
            i += 2
            if following in "<>":
                out.append(r"\b")
            elif not extended and following in "(){}|+?":
                out.append(following)
            elif following in "wWsSbB" or following.isdigit():
                out.append("\\" + following)
            else:
                out.append(re.escape(following))
            continue
        if not extended and char in "(){}|+?":
            out.append("\\" + char)
        elif char == "*" and (not out or out[-1] in ("^", "(", "|")) and not extended:
            out.append(r"\*")
        elif extended and char == "{" and not re.match(r"\{\d*(,\d*)?\}", pattern[i:]):
            out.append(r"\{")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _bracket(pattern, start):
    """(index after the bracket expression, its Python text)."""
    i = start + 1
    body = "["
    if i < len(pattern) and pattern[i] == "^":
        body += "^"
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        body += "\\]"
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        match = re.match(r"\[:(\w+):\]", pattern[i:])
        if match:
            body += _CLASSES.get(match.group(1), "")
            i += len(match.group())
            continue
        char = pattern[i]
        body += "\\" + char if char in "\\[" else char
        i += 1
    if i >= len(pattern):
        return len(pattern), re.escape(pattern[start:])
    return i + 1, body + "]"


def compile_(pattern, extended=False, ignore_case=False):
    return re.compile(translate(pattern, extended), re.IGNORECASE if ignore_case else 0)
