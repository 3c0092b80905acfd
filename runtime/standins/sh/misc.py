"""``echo``, ``printf``, ``true``, ``false``, ``xargs``, ``diff``, ``tee``, ``paste``,
``timeout``, ``realpath`` and the checksums (``md5sum``, ``sha1sum``, ``sha256sum``)."""

import difflib
import hashlib
import os
import re

from ...world import schedule, timeouts
from .options import Usage, options, read


def echo(shell, args, cwd, stdin):
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = "e" in args[0] or (escapes and "E" not in args[0])
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stop = _escapes(text)
        if stop:
            return 0, text, ""
    return 0, text + ("\n" if newline else ""), ""


def _escapes(text):
    """(text, stopped) with backslash escapes of echo -e/printf applied (``\\c`` stops)."""
    out, i = "", 0
    table = {"n": "\n", "t": "\t", "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
             "v": "\v", "e": "\x1b", '"': '"'}
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "c":
                return out, True
            if nxt in table:
                out += table[nxt]
                i += 2
                continue
            match = re.match(r"0?([0-7]{1,3})", text[i + 1:])
            if match:
                out += chr(int(match.group(1), 8))
                i += 1 + len(match.group())
                continue
        out += text[i]
        i += 1
    return out, False


_SPEC = re.compile(r"%([-+ #0]*\d*(?:\.\d+)?)([diouxXeEfgGcsb%])")


def printf(shell, args, cwd, stdin):
    if not args:
        return 1, "", "bash: printf: usage: printf [-v var] format [arguments]\n"
    template, values = _escapes(args[0])[0], args[1:]
    out, err = [], []
    while True:
        used = [0]
        out.append(_SPEC.sub(lambda m, u=used, v=values: _convert(m, u, v, err), template))
        values = values[used[0]:]
        if not values or not used[0]:
            break
    return int(bool(err)), "".join(out), "".join(err)


def _convert(match, used, values, err):
    """One ``%…`` of printf's format with the next argument."""
    spec, kind = match.group(1), match.group(2)
    if kind == "%":
        return "%"
    value = values[used[0]] if used[0] < len(values) else ""
    used[0] += 1
    if kind in "diouxX":
        try:
            number = int(value, 0) if value else 0
        except ValueError:
            err.append(f"bash: line 1: printf: {value}: invalid number\n")
            number = 0
        return ("%" + spec + kind.replace("u", "d").replace("i", "d")) % number
    if kind in "feEgG":
        try:
            number = float(value) if value else 0.0
        except ValueError:
            err.append(f"bash: line 1: printf: {value}: invalid number\n")
            number = 0.0
        return ("%" + spec + kind) % number
    if kind == "b":
        return ("%" + spec + "s") % _escapes(value)[0]
    if kind == "c":
        return value[:1]
    return ("%" + spec + "s") % value


def true(shell, args, cwd, stdin):
    return 0, "", ""


def false(shell, args, cwd, stdin):
    return 1, "", ""


def xargs(shell, args, cwd, stdin):
    try:
        flags, values, command = options("xargs", _xargs_options(args), "0rt", valued="nIL")
    except Usage as usage:
        return 1, "", usage.message
    command = command or ["echo"]
    items = stdin.split("\0") if "0" in flags else re.findall(r"'[^']*'|\"[^\"]*\"|\S+",
                                                                stdin)
    items = [i[1:-1] if i[:1] in "'\"" and i[-1:] == i[:1] and len(i) > 1 else i
             for i in items if i != ""]
    if not items and ("r" in flags or "I" in values):
        return 0, "", ""
    if "I" in values:
        marker = values["I"][-1]
        items = [line for line in stdin.split("\n") if line.strip()]
        batches = [[part.replace(marker, item) for part in command] for item in items]
    else:
        size = int(values["n"][-1]) if "n" in values else (int(values["L"][-1])
                                                          if "L" in values else len(items) or 1)
        batches = [command + items[i:i + size] for i in range(0, max(len(items), 1), size)]
    out, err, code = [], [], 0
    for argv in batches:
        status, data, error = shell.run_argv(argv, cwd, "")
        out.append(data)
        err.append(error)
        if status == 127:
            return 127, "".join(out), f"xargs: {argv[0]}: No such file or directory\n"
        if status:
            code = 123
    return code, "".join(out), "".join(err)


def _xargs_options(args):
    """xargs' options end at the command's name."""
    out = []
    items = list(args)
    while items and items[0].startswith("-"):
        item = items.pop(0)
        out.append(item)
        if item in ("-n", "-I", "-L") and items:
            out.append(items.pop(0))
    return out + ["--"] + items


def diff(shell, args, cwd, stdin):
    try:
        flags, _, names = options("diff", args, "uqrNbwiB", valued="U")
    except Usage as usage:
        return 2, "", usage.message
    if len(names) != 2:
        return 2, "", ("diff: missing operand after '" + (names[0] if names else "diff")
                       + "'\ndiff: Try 'diff --help' for more information.\n")
    folders = [shell.path(n, cwd) for n in names]
    if "r" in flags and all(f is not None and os.path.isdir(f) for f in folders):
        return _trees(shell, names, cwd, flags)
    return _files(shell, names, cwd, flags, stdin)


def _trees(shell, names, cwd, flags):
    """``diff -r``: each name in either folder, compared (``Only in …`` for one side)."""
    left, right = (sorted(os.listdir(shell.path(n, cwd))) for n in names)
    out, code = [], 0
    for entry in sorted(set(left) | set(right)):
        if entry not in right or entry not in left:
            out.append(f"Only in {names[0] if entry in left else names[1]}: {entry}\n")
            code = 1
            continue
        pair = [f"{n}/{entry}" for n in names]
        if os.path.isdir(shell.path(pair[0], cwd)):
            status, text, _ = _trees(shell, pair, cwd, flags)
        else:
            status, text, _ = _files(shell, pair, cwd, flags, "")
            if status and "q" not in flags:
                text = f"diff -r {pair[0]} {pair[1]}\n" + text
        code = max(code, status)
        out.append(text)
    return code, "".join(out), ""


def _files(shell, names, cwd, flags, stdin):
    texts, errors = [], []
    for name in names:
        try:
            texts.append(stdin if name == "-" else read(shell, name, cwd))
        except OSError as error:
            errors.append((not isinstance(error, FileNotFoundError),
                           f"diff: {name}: {error.args[-1]}\n"))
    if errors:
        return 2, "", min(errors)[1]
    a, b = texts[0].splitlines(True), texts[1].splitlines(True)
    if a == b:
        return 0, "", ""
    if "q" in flags:
        return 1, f"Files {names[0]} and {names[1]} differ\n", ""
    if "u" in flags or "U" in flags:
        lines = list(difflib.unified_diff(a, b, names[0], names[1], lineterm="\n"))
        return 1, "".join(_newline(line) for line in lines), ""
    return 1, _normal(a, b), ""


def _newline(line):
    return line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _normal(a, b):
    out = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        left = f"{i1 + 1}" if i2 - i1 <= 1 else f"{i1 + 1},{i2}"
        right = f"{j1 + 1}" if j2 - j1 <= 1 else f"{j1 + 1},{j2}"
        if tag == "delete":
            out.append(f"{left}d{j1}\n")
        elif tag == "insert":
            out.append(f"{i1}a{right}\n")
        else:
            out.append(f"{left}c{right}\n")
        out.extend("< " + _newline(line) for line in a[i1:i2])
        if tag == "replace":
            out.append("---\n")
        out.extend("> " + _newline(line) for line in b[j1:j2])
    return "".join(out)


def tee(shell, args, cwd, stdin):
    try:
        flags, _, names = options("tee", args, "ai")
    except Usage as usage:
        return 1, "", usage.message
    err = []
    for name in names:
        full = shell.path(name, cwd)
        if full is None or not os.path.isdir(os.path.dirname(full)):
            err.append(f"tee: {name}: No such file or directory\n")
            continue
        with open(full, "a" if "a" in flags else "w", encoding="utf-8", newline="") as handle:
            handle.write(stdin)
    return int(bool(err)), stdin, "".join(err)


def paste(shell, args, cwd, stdin):
    try:
        flags, values, names = options("paste", args, "s", valued="d")
    except Usage as usage:
        return 1, "", usage.message
    texts = []
    for name in names or ["-"]:
        try:
            texts.append(stdin if name == "-" else read(shell, name, cwd))
        except OSError as error:
            return 1, "", f"paste: {name}: {error.args[-1]}\n"
    separators = (values.get("d", ["\t"])[-1].replace("\\n", "\n").replace("\\t", "\t")
                  or "")
    columns = [t.split("\n")[:-1] if t.endswith("\n") else t.split("\n") if t else []
               for t in texts]

    def joined(cells):
        out = ""
        for index, cell in enumerate(cells):
            out += (separators[(index - 1) % len(separators)] if index and separators
                    else "") + cell
        return out

    if "s" in flags:
        return 0, "".join(joined(c) + "\n" for c in columns), ""
    rows = max((len(c) for c in columns), default=0)
    return 0, "".join(joined([c[i] if i < len(c) else "" for c in columns]) + "\n"
                      for i in range(rows)), ""


def timeout(shell, args, cwd, stdin):
    """``timeout [-s SIG] [-k D] DURATION COMMAND …``: the command; a ``sleep`` in it that
    would outlast DURATION spends what is left and ends it with status 124."""
    items = list(args)
    while items and items[0].startswith("-"):
        flag = items.pop(0)
        if flag in ("-s", "-k", "--signal", "--kill-after") and items:
            items.pop(0)
    if len(items) < 2:
        return 125, "", "timeout: missing operand\nTry 'timeout --help' for more information.\n"
    duration = re.fullmatch(r"(\d+\.?\d*|\.\d+)([smhd]?)", items[0])
    if duration is None:
        return 125, "", (f"timeout: invalid time interval '{items[0]}'\n"
                         "Try 'timeout --help' for more information.\n")
    seconds = float(duration[1]) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[duration[2]]
    try:
        with schedule.command(seconds or None):   # 0: no limit, as GNU's
            return shell.run_argv(items[1:], cwd, stdin)
    except timeouts.TimedOut:
        return 124, "", ""


def realpath(shell, args, cwd, stdin):
    out, err = [], []
    for name in [a for a in args if not a.startswith("-")]:
        full = shell.path(name, cwd)
        if full is None or not os.path.exists(full):
            err.append(f"realpath: {name}: No such file or directory\n")
        else:
            out.append(full + "\n")
    return int(bool(err)), "".join(out), "".join(err)


def checksum(algorithm):
    def command(shell, args, cwd, stdin):
        out, err = [], []
        for name in [a for a in args if not a.startswith("-")] or ["-"]:
            try:
                text = stdin if name == "-" else read(shell, name, cwd)
            except OSError as error:
                err.append(f"{algorithm}sum: {name}: {error.args[-1]}\n")
                continue
            digest = hashlib.new(algorithm, text.encode("utf-8")).hexdigest()
            out.append(f"{digest}  {name}\n")
        return int(bool(err)), "".join(out), "".join(err)
    return command
