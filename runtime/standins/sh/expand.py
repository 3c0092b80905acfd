"""Words into fields, as bash expands them: quotes, ``$NAME``/``${NAME}`` (with
``:-``, ``:=``, ``#``), ``$?``, ``$#``, ``$((…))``, ``$(…)`` and backquotes, field
splitting of unquoted expansions, and globs (``*``, ``?``, ``[…]``) matched against
the run's folder (a glob that matches nothing stays as written, as in bash).

``state``: the running shell (run.py): ``vars``, ``status``, ``cwd``, ``shell`` and
``substitute(line)`` (the stdout of a command substitution).
"""

import fnmatch
import os
import re

from . import arith

_GLOB = "*?["


class _Field:
    """One field being built: its text and its glob pattern (quoted characters escaped)."""

    def __init__(self):
        self.text, self.pattern, self.glob, self.started = "", "", False, False

    def add(self, text, quoted):
        self.started = True
        self.text += text
        if quoted:
            self.pattern += "".join(f"[{c}]" if c in _GLOB else c for c in text)
        else:
            self.pattern += text
            self.glob = self.glob or any(c in _GLOB for c in text)


def fields(word, state, glob=True):
    """The fields of one word (its braces ``{a,b}``, ``{1..5}`` expanded first)."""
    return [f for each in braces(word) for f in _fields(each, state, glob)]


def braces(word):
    """The words of a brace expansion, or [word]: the first unquoted ``{…}`` holding a
    ``,`` or ``X..Y`` (not ``${…}``), recursively."""
    depth, start, quote, i = 0, None, None, 0
    while i < len(word):
        char = word[i]
        if quote:
            quote = None if char == quote else quote
        elif char == "\\":
            i += 1
        elif char in "'\"":
            quote = char
        elif char == "{" and (i == 0 or word[i - 1] != "$"):
            if depth == 0:
                start = i
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                options = _alternatives(word[start + 1:i])
                if options is not None:
                    head, tail = word[:start], word[i + 1:]
                    return [w for o in options for w in braces(head + o + tail)]
        i += 1
    return [word]


def _alternatives(body):
    found = re.fullmatch(r"(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?", body)
    if found:
        low, high, by = found.groups()
        by = abs(int(by or 1)) or 1
        if low.lstrip("-").isdigit() and high.lstrip("-").isdigit():
            step = by if int(high) >= int(low) else -by
            width = max(len(low), len(high)) if re.match(r"-?0\d", low + " " + high) or \
                re.match(r"-?0\d", high) else 0
            return [str(n).zfill(width) for n in range(int(low), int(high) + (step > 0 or -1),
                                                       step)]
        if not (low.lstrip("-").isdigit() or high.lstrip("-").isdigit()):
            step = by if high >= low else -by
            return [chr(c) for c in range(ord(low), ord(high) + (step > 0 or -1), step)]
        return None
    parts, depth, current = [], 0, ""
    for char in body:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        current += char
    parts.append(current)
    return parts if len(parts) > 1 else None


def _fields(word, state, glob):
    done, current = [], _Field()
    for text, quoted, split in _pieces(word, state):
        if isinstance(split, tuple):   # "$@": one field per argument
            for index, arg in enumerate(split):
                if index:
                    done.append(current)
                    current = _Field()
                current.add(arg, True)
            continue
        if not split:
            current.add(text, quoted)
            continue
        parts = text.split()
        if text[:1].isspace() and current.started:
            done.append(current)
            current = _Field()
        for index, part in enumerate(parts):
            if index:
                done.append(current)
                current = _Field()
            current.add(part, False)
        if text[-1:].isspace() and parts:
            done.append(current)
            current = _Field()
    if current.started:
        done.append(current)
    out = []
    for field in done:
        matches = _glob(field.pattern, state) if glob and field.glob else []
        out.extend(matches or [field.text])
    return out


def one(word, state):
    """A word expanded to one text (assignments, redirection targets): no splitting."""
    return "".join(text for text, _, _ in _pieces(word, state))


def pattern(word, state):
    """A word as a glob pattern (``case``): its quoted characters match themselves."""
    field = _Field()
    for text, quoted, _ in _pieces(word, state):
        field.add(text, quoted)
    return field.pattern


def _pieces(word, state):
    """[(text, quoted, split)] of a word: ``split`` for unquoted expansions."""
    out, i = [], 0
    literal = ""
    while i < len(word):
        char = word[i]
        if char == "\\":
            literal += word[i + 1:i + 2]
            i += 2
        elif char == "'":
            end = word.index("'", i + 1)
            out += [(literal, False, False), (word[i + 1:end], True, False)]
            literal, i = "", end + 1
        elif char == '"' and word.startswith(('"$@"', '"${@}"'), i):
            out += [(literal, False, False), (" ".join(state.args), True, tuple(state.args))]
            literal, i = "", word.index('"', i + 1) + 1
        elif char == '"':
            out.append((literal, False, False))
            literal = ""
            text, i = _double(word, i + 1, state)
            out.append((text, True, False))
        elif char in "$`":
            value, end = _dollar(word, i, state)
            if end == i:
                literal += char
                i += 1
                continue
            out += [(literal, False, False), (value, False, True)]
            literal, i = "", end
        elif char == "~" and i == 0 and word[1:2] in ("", "/"):
            literal += state.vars.get("HOME", "~")
            i += 1
        else:
            literal += char
            i += 1
    out.append((literal, False, False))
    return [piece for piece in out if piece[0] or piece[1] or isinstance(piece[2], tuple)]


def document(body, state):
    """A here-document's text with ``$…`` and backquotes expanded (its delimiter unquoted)."""
    return _double(body + "\0", 0, state, "\0", '$`\\\n')[0]


def _double(word, i, state, stop='"', escapable='$`"\\\n'):
    """(text, index after the closing quote) of a double-quoted part from ``word[i]``."""
    text = ""
    while word[i] != stop:
        char = word[i]
        if char == "\\" and word[i + 1] in escapable:
            text += word[i + 1]
            i += 2
        elif char in "$`":
            value, end = _dollar(word, i, state)
            if end == i:
                text += char
                i += 1
            else:
                text, i = text + value, end
        else:
            text += char
            i += 1
    return text, i + 1


def _dollar(word, i, state):
    """(value, end) of the expansion at ``word[i]``; end == i when it is a plain ``$``."""
    if word[i] == "`":
        end = word.index("`", i + 1)
        return state.substitute(word[i + 1:end].replace("\\`", "`")), end + 1
    rest = word[i + 1:]
    if rest.startswith("(("):
        end = _matching(word, i + 1)
        return str(arith.evaluate(document(word[i + 3:end - 2], state), state)), end
    if rest.startswith("("):
        end = _matching(word, i + 1)
        return state.substitute(word[i + 2:end - 1]), end
    if rest.startswith("{"):
        end = word.index("}", i)
        return _braced(word[i + 2:end], state), end + 1
    if rest[:1] and (rest[0] in "?#$!@*-" or rest[0].isdigit()):
        return _special(rest[0], state), i + 2
    name = ""
    for char in rest:
        if not (char.isalnum() or char == "_"):
            break
        name += char
    if not name:
        return "", i
    return _lookup(name, state), i + 1 + len(name)


def _lookup(name, state, default=""):
    """A variable's value (``$1``… from the arguments); ``set -u`` fails on an unset one."""
    if name.isdigit():
        index = int(name)
        return (state.args[index - 1] if 0 < index <= len(state.args) else default) \
            if index else _special("0", state)
    if name in state.vars:
        return state.vars[name]
    if getattr(state, "nounset", False) and default == "":
        from .builtins import Unbound
        raise Unbound(name)
    return default


def _matching(word, start):
    depth = 0
    for index in range(start, len(word)):
        if word[index] == "(":
            depth += 1
        elif word[index] == ")":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(word)


def _special(char, state):
    if char == "?":
        return str(state.status)
    if char == "#":
        return str(len(state.args))
    if char in "@*":
        return " ".join(state.args)
    if char == "$":
        return "1000"
    if char == "0":
        return getattr(state, "zero", "bash")
    if char.isdigit():
        index = int(char)
        return state.args[index - 1] if index <= len(state.args) else ""
    return ""


_TRIM = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)(%%|%|##|#|//|/|\^\^|,,|:(?=[\d ]))(.*)",
                   re.DOTALL)


def _trimmed(inner, state):
    """``${NAME%PAT}``, ``%%``, ``#``, ``##``, ``/PAT/TEXT``, ``//``, ``^^``, ``,,`` and
    ``${NAME:OFFSET[:LENGTH]}``; None for other forms."""
    found = _TRIM.fullmatch(inner)
    if not found:
        return None
    name, operator, rest = found.groups()
    value = state.vars.get(name, "")
    if operator in ("^^", ",,"):
        return value.upper() if operator == "^^" else value.lower()
    if operator == ":":
        start, _, length = rest.partition(":")
        begin = int(start.strip() or 0)
        begin = max(len(value) + begin, 0) if begin < 0 else begin
        return value[begin:] if not length else value[begin:begin + int(length)]
    if operator in ("/", "//"):
        pattern, _, replacement = rest.partition("/")
        return _replace(value, pattern, one(replacement, state), operator == "//")
    pattern = one(rest, state)
    cuts = range(len(value) + 1)
    if operator.startswith("#"):
        ends = cuts if operator == "#" else reversed(cuts)
        end = next((e for e in ends if fnmatch.fnmatchcase(value[:e], pattern)), None)
        return value if end is None else value[end:]
    starts = reversed(cuts) if operator == "%" else cuts
    start = next((b for b in starts if fnmatch.fnmatchcase(value[b:], pattern)), None)
    return value if start is None else value[:start]


def _replace(value, pattern, replacement, every):
    out, i = "", 0
    while i < len(value):
        end = next((e for e in range(len(value), i, -1)
                    if fnmatch.fnmatchcase(value[i:e], pattern)), None)
        if end is None:
            out += value[i]
            i += 1
            continue
        out += replacement
        i = end
        if not every:
            return out + value[i:]
    return out


def _braced(inner, state):
    if inner.startswith("#"):
        return str(len(state.vars.get(inner[1:], "")))
    trimmed = _trimmed(inner, state)
    if trimmed is not None:
        return trimmed
    for operator in (":-", ":=", ":+", "-", "="):
        name, found, default = inner.partition(operator)
        if found and name.replace("_", "a").isalnum():
            value = _lookup(name, state, None)
            empty = value is None or (":" in operator and value == "")
            if operator.endswith("+"):
                return "" if empty else one(default, state)
            if empty:
                value = one(default, state)
                if operator.endswith("="):
                    state.vars[name] = value
            return value
    if inner in ("?", "#", "@", "*"):
        return _special(inner, state)
    return _lookup(inner, state)


def _glob(pattern, state):
    """Sorted paths matching ``pattern`` from the current directory, inside the folder."""
    absolute = pattern.startswith("/")
    parts = [p for p in pattern.split("/") if p]
    found = ["/" if absolute else ""]
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        following = []
        for prefix in found:
            base = state.shell.path(prefix or ".", state.cwd)
            if base is None or not os.path.isdir(base):
                continue
            if not any(c in _GLOB for c in part):
                name = fnmatch_unescape(part)
                if os.path.lexists(os.path.join(base, name)):
                    following.append(prefix + ("/" if prefix and prefix != "/" else "") + name)
                continue
            for entry in sorted(os.listdir(base)):
                if entry.startswith(".") and not part.startswith("."):
                    continue
                if fnmatch.fnmatchcase(entry, part) and ((last and not pattern.endswith("/"))
                                                        or os.path.isdir(os.path.join(base, entry))):
                    join = "/" if prefix and prefix != "/" else ""
                    following.append(prefix + join + entry)
        found = following
    if pattern.endswith("/"):
        found = [f + "/" for f in found]
    return sorted(found)


def fnmatch_unescape(part):
    """A pattern part without glob characters: ``[*]`` written for a quoted ``*`` → ``*``."""
    out, i = "", 0
    while i < len(part):
        if part[i] == "[" and i + 2 < len(part) and part[i + 2] == "]":
            out += part[i + 1]
            i += 3
        else:
            out += part[i]
            i += 1
    return out
