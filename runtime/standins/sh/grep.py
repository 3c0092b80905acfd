"""``grep`` (and ``egrep``/``fgrep``): basic, ``-E`` extended or ``-F`` fixed patterns,
``-i -v -w -x -n -c -l -L -o -q -s -h -H -r/-R -e -m -A -B -C --include --exclude
--exclude-dir``, with GNU's output and exit status (0 a line selected, 1 none, 2 an
error)."""

import fnmatch
import os
import re

from . import regex
from .options import Usage, lines, options

_LONGS = {"--include=": "include", "--exclude=": "exclude", "--exclude-dir=": "exclude-dir",
          "--recursive": "r", "--ignore-case": "i", "--line-number": "n", "--count": "c",
          "--files-with-matches": "l", "--invert-match": "v", "--extended-regexp": "E",
          "--fixed-strings": "F", "--word-regexp": "w", "--only-matching": "o",
          "--quiet": "q", "--no-filename": "h", "--with-filename": "H", "--color=": "color"}


def grep(shell, args, cwd, stdin, mode=""):
    try:
        flags, values, rest = options("grep", args, "EFGivwxnclLoqshHrRPIaz",
                                      valued="emABCf", longs=_LONGS)
    except Usage as usage:
        return 2, "", usage.message
    flags |= set(mode)
    patterns = values.get("e", [])
    if not patterns:
        if not rest:
            return 2, "", ("Usage: grep [OPTION]... PATTERNS [FILE]...\n"
                           "Try 'grep --help' for more information.\n")
        patterns = [rest.pop(0)]
    patterns = [p for pattern in patterns for p in pattern.split("\n")]
    matcher = _matcher(patterns, flags)
    recursive = bool(flags & set("rR"))
    files, err = _files(shell, rest, cwd, recursive, values)
    named = len(rest) > 1 or recursive
    if "H" in flags:
        named = True
    if "h" in flags:
        named = False
    limit = int(values["m"][-1]) if "m" in values else None
    out, selected, error = [], False, bool(err)
    for name, shown in files:
        if name == "-":
            text = stdin
        else:
            full = shell.path(name, cwd)
            if full is None or not os.path.exists(full):
                if "s" not in flags:
                    err.append(f"grep: {shown}: No such file or directory\n")
                error = True
                continue
            if os.path.isdir(full):
                if "s" not in flags:
                    err.append(f"grep: {shown}: Is a directory\n")
                continue
            with open(full, encoding="utf-8", errors="replace", newline="") as handle:
                text = handle.read()
        label = "(standard input)" if name == "-" else shown
        hits = _hits(lines(text), matcher, flags, limit)
        selected = selected or bool(hits)
        out.extend(_show(hits, lines(text), label, named, flags, values, matcher))
        if "q" in flags and selected:
            return 0, "", ""
    code = 0 if selected else 1
    if error and not ("q" in flags and selected):
        code = 2
    return code, "" if "q" in flags else "".join(out), "".join(err)


def _matcher(patterns, flags):
    if "F" in flags:
        body = "|".join(re.escape(p) for p in patterns)
    elif "P" in flags:   # Perl's syntax is close to Python's
        body = "|".join(f"(?:{p})" for p in patterns)
    else:
        body = "|".join(f"(?:{regex.translate(p, 'E' in flags)})" for p in patterns)
    if "w" in flags:
        body = rf"(?<![\w])(?:{body})(?![\w])"
    if "x" in flags:
        body = rf"^(?:{body})$"
    return re.compile(body, re.IGNORECASE if "i" in flags else 0)


def _hits(rows, matcher, flags, limit):
    hits = []
    for number, row in enumerate(rows, 1):
        if bool(matcher.search(row)) != ("v" in flags):
            hits.append(number)
            if limit is not None and len(hits) >= limit:
                break
    return hits


def _show(hits, rows, label, named, flags, values, matcher):
    if "l" in flags:
        return [f"{label}\n"] if hits else []
    if "L" in flags:
        return [] if hits else [f"{label}\n"]
    lead = f"{label}:" if named else ""
    if "c" in flags:
        return [f"{lead}{len(hits)}\n"]
    after = int((values.get("A") or values.get("C") or ["0"])[-1])
    before = int((values.get("B") or values.get("C") or ["0"])[-1])
    shown, out, last = set(hits), [], None
    wanted = sorted({n for hit in hits for n in range(max(1, hit - before),
                                                        min(len(rows), hit + after) + 1)})
    for number in wanted:
        if last is not None and number > last + 1 and (before or after):
            out.append("--\n")
        last = number
        mark = ":" if number in shown else "-"
        number_text = f"{number}{mark}" if "n" in flags else ""
        prefix = (f"{label}{mark}" if named else "") + number_text
        row = rows[number - 1]
        if "o" in flags and "v" not in flags:
            out.extend(f"{prefix}{m.group()}\n" for m in matcher.finditer(row) if m.group())
        else:
            out.append(f"{prefix}{row}\n")
    return out


def _files(shell, names, cwd, recursive, values):
    """([(name, shown)], errors) of the operands, directories walked with -r."""
    if not names:
        if not recursive:
            return [("-", "-")], []
        return [(n, n) for n in _walk(shell, ".", cwd, values, strip=True)], []
    found = []
    for name in names:
        full = shell.path(name, cwd) if name != "-" else None
        if recursive and full is not None and os.path.isdir(full):
            found.extend((n, n) for n in _walk(shell, name, cwd, values))
        elif _included(name, values, top=True):
            found.append((name, name))
    return found, []


def _included(name, values, top=False):
    base = os.path.basename(name)
    include, exclude = values.get("include", []), values.get("exclude", [])
    if include and not any(fnmatch.fnmatchcase(base, p) for p in include):
        return False
    return not any(fnmatch.fnmatchcase(base, p) for p in exclude)


def _walk(shell, name, cwd, values, strip=False):
    full = shell.path(name, cwd)
    skip = values.get("exclude-dir", [])
    out = []
    for entry in sorted(os.listdir(full), key=str.encode):
        shown = entry if strip else (name.rstrip("/") + "/" + entry if name != "/" else "/" + entry)
        path = os.path.join(full, entry)
        if os.path.isdir(path):
            if not any(fnmatch.fnmatchcase(entry, p) for p in skip):
                out.extend(_walk(shell, shown, cwd, values))
        elif _included(entry, values):
            out.append(shown)
    return out
