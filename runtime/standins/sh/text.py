"""Commands that filter text: ``head``, ``tail``, ``wc``, ``uniq``, ``cut``,
``tr``, ``nl``, ``seq``, with GNU's formats (``LC_ALL=C``: byte order)."""

import re

from .options import Usage, inputs, join, lines, options, guarded


def _count_args(args):
    """``-5`` → ``-n5`` as head and tail read it (not the value of ``-n``/``-c``)."""
    out = []
    for arg in args:
        value = out and out[-1] in ("-n", "-c")
        out.append(f"-n{arg[1:]}" if re.fullmatch(r"-\d+", arg) and not value else arg)
    return out


def _open_error(command):
    return lambda n, r: f"{command}: cannot open '{n}' for reading: {r}\n"


def _headed(command, args, shell, cwd, stdin, take):
    flags, values, names = options(command, _count_args(args), "qv", valued="nc")
    found, err, code = inputs(shell, names, cwd, stdin, _open_error(command))
    out = []
    for index, (name, text) in enumerate(found):
        if (len(names) > 1 and "q" not in flags) or "v" in flags:
            shown = "standard input" if name == "-" else name
            out.append(("\n" if index else "") + f"==> {shown} <==\n")
        if "c" in values:
            out.append(take(text, values["c"][-1], True))
        else:
            out.append(take(text, values.get("n", ["10"])[-1], False))
    return code, "".join(out), err


def _number(command, value, chars=False):
    if not re.fullmatch(r"[+-]?\d+", value):
        what = "bytes" if chars else "lines"
        raise Usage(1, f"{command}: invalid number of {what}: '{value}'\n")
    return int(value.lstrip("+-"))


@guarded
def head(shell, args, cwd, stdin):
    def take(text, value, chars):
        count = _number("head", value, chars)
        items = text if chars else text.splitlines(True)
        items = items[:-count] if value.startswith("-") and count else \
            (items if value.startswith("-") else items[:count])
        return "".join(items)
    return _headed("head", args, shell, cwd, stdin, take)


@guarded
def tail(shell, args, cwd, stdin):
    def take(text, value, chars):
        count = _number("tail", value, chars)
        items = text if chars else text.splitlines(True)
        if value.startswith("+"):
            return "".join(items[max(count - 1, 0):])
        return "".join(items[-count:]) if count else ""
    return _headed("tail", [a for a in args if a != "-f"], shell, cwd, stdin, take)


@guarded
def wc(shell, args, cwd, stdin):
    flags, _, names = options("wc", args, "lwcm", longs={"--lines": "l", "--words": "w",
                                                        "--bytes": "c", "--chars": "m"})
    found, err, code = inputs(shell, names, cwd, stdin, lambda n, r: f"wc: {n}: {r}\n")
    shown = [k for k in "lwmc" if k in flags] or ["l", "w", "c"]
    rows = []
    for name, text in found:
        size = len(text.encode("utf-8"))   # LC_ALL=C: a character is a byte
        counts = {"l": text.count("\n"), "w": len(text.split()), "c": size, "m": size}
        rows.append(([counts[k] for k in shown], "" if name == "-" and not names else name))
    if len(names) > 1:
        rows.append(([sum(r[0][i] for r in rows) for i in range(len(shown))], "total"))
    if len(shown) == 1 and len(found) == 1 and not err:
        width = 1
    elif any(name == "-" for name, _ in found):
        width = 7
    else:
        width = len(str(sum(len(t.encode("utf-8")) for _, t in found)))
    out = "".join(" ".join(f"{n:>{width}}" for n in numbers) + (f" {name}" if name else "")
                  + "\n" for numbers, name in rows)
    return code, out, err


@guarded
def uniq(shell, args, cwd, stdin):
    flags, _, names = options("uniq", args, "cdui")
    found, err, code = inputs(shell, names[:1], cwd, stdin, lambda n, r: f"uniq: {n}: {r}\n")
    if err:
        return 1, "", err
    groups = []
    for row in lines(found[0][1]):
        same = groups and (groups[-1][0].lower() == row.lower() if "i" in flags
                           else groups[-1][0] == row)
        if same:
            groups[-1][1] += 1
        else:
            groups.append([row, 1])
    if "d" in flags:
        groups = [g for g in groups if g[1] > 1]
    if "u" in flags:
        groups = [g for g in groups if g[1] == 1]
    return 0, join(f"{n:>7} {row}" if "c" in flags else row for row, n in groups), ""


def _ranges(spec, command):
    chosen = []
    for part in spec.split(","):
        start, dash, end = part.partition("-")
        if not (start or end) or not (start + end).isdigit():
            raise Usage(1, f"{command}: invalid field value '{part}'\n"
                           f"Try '{command} --help' for more information.\n")
        if "0" in (start, end) or (start + end).strip("0") == "":
            raise Usage(1, f"{command}: fields are numbered from 1\n"
                           f"Try '{command} --help' for more information.\n")
        low = int(start) if start else 1
        high = int(end) if end else (None if dash else low)
        chosen.append((low, high))
    return lambda n: any(low <= n and (high is None or n <= high) for low, high in chosen)


@guarded
def cut(shell, args, cwd, stdin):
    flags, values, names = options("cut", args, "s", valued="dfcb",
                                   longs={"--complement": "v", "--delimiter=": "d",
                                          "--fields=": "f", "--only-delimited": "s"})
    if not values.keys() & set("fcb"):
        raise Usage(1, "cut: you must specify a list of bytes, characters, or fields\n"
                       "Try 'cut --help' for more information.\n")
    found, err, code = inputs(shell, names, cwd, stdin, lambda n, r: f"cut: {n}: {r}\n")
    out = []
    for _, text in found:
        for row in lines(text):
            if "f" in values:
                pick, sep = _ranges(values["f"][-1], "cut"), values.get("d", ["\t"])[-1]
                if "v" in flags:
                    pick = (lambda chosen: lambda n: not chosen(n))(pick)
                if sep not in row:
                    if "s" not in flags:
                        out.append(row)
                    continue
                parts = row.split(sep)
                out.append(sep.join(p for i, p in enumerate(parts, 1) if pick(i)))
            elif "c" in values or "b" in values:
                pick = _ranges((values.get("c") or values["b"])[-1], "cut")
                if "v" in flags:
                    pick = (lambda chosen: lambda n: not chosen(n))(pick)
                data = row.encode("utf-8")   # -c counts bytes, as GNU cut does
                out.append(bytes(b for i, b in enumerate(data, 1) if pick(i)).decode(
                    "utf-8", errors="replace"))
            else:
                return 1, "", ("cut: you must specify a list of bytes, characters, or fields\n"
                               "Try 'cut --help' for more information.\n")
    return code, join(out), err


_CLASSES = {"[:lower:]": "abcdefghijklmnopqrstuvwxyz", "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "[:digit:]": "0123456789", "[:space:]": " \t\n\r\f\v", "[:blank:]": " \t",
            "[:punct:]": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}
_CLASSES["[:alpha:]"] = _CLASSES["[:lower:]"] + _CLASSES["[:upper:]"]
_CLASSES["[:alnum:]"] = _CLASSES["[:alpha:]"] + _CLASSES["[:digit:]"]


def _set(text):
    out, i = "", 0
    text = text.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
    while i < len(text):
        cls = next((c for c in _CLASSES if text.startswith(c, i)), None)
        if cls:
            out += _CLASSES[cls]
            i += len(cls)
        elif i + 2 < len(text) and text[i + 1] == "-":
            out += "".join(chr(c) for c in range(ord(text[i]), ord(text[i + 2]) + 1))
            i += 3
        else:
            out += text[i]
            i += 1
    return out


@guarded
def tr(shell, args, cwd, stdin):
    flags, _, sets = options("tr", args, "dscC")
    if not sets:
        raise Usage(1, "tr: missing operand\nTry 'tr --help' for more information.\n")
    if len(sets) == 1 and not flags & set("ds"):
        raise Usage(1, f"tr: missing operand after '{sets[0]}'\nTwo strings must be given "
                       "when translating.\nTry 'tr --help' for more information.\n")
    first = _set(sets[0])
    if flags & set("cC"):
        first = "".join(chr(c) for c in range(256) if chr(c) not in first)
    text = stdin
    if "d" in flags:
        text = "".join(ch for ch in text if ch not in first)
        squeeze = _set(sets[1]) if len(sets) > 1 else ""
    elif len(sets) > 1:
        second = _set(sets[1])
        second = (second + second[-1:] * len(first))[:len(first)]
        text = text.translate(str.maketrans(first, second))
        squeeze = second
    else:
        squeeze = first
    if "s" in flags:
        text = re.sub("([" + re.escape(squeeze) + "])\\1+", r"\1", text) if squeeze else text
    return 0, text, ""


@guarded
def nl(shell, args, cwd, stdin):
    _, values, names = options("nl", args, "", valued="bwsv")
    found, err, code = inputs(shell, names, cwd, stdin, lambda n, r: f"nl: {n}: {r}\n")
    every = values.get("b", ["t"])[-1] == "a"
    width, sep = int(values.get("w", ["6"])[-1]), values.get("s", ["\t"])[-1]
    out, number = [], 1
    for _, text in found:
        for row in lines(text):
            if row or every:
                out.append(f"{number:>{width}}{sep}{row}")
                number += 1
            else:
                out.append(" " * (width + len(sep)))
    return code, "".join(f"{r}\n" for r in out), err


@guarded
def seq(shell, args, cwd, stdin):
    numbers = [a for a in args if re.fullmatch(r"-?\d+(\.\d+)?", a)]
    flags, values, rest = options("seq", [a for a in args if a not in numbers], "w",
                                  valued="s")
    numbers += rest
    if not numbers:
        raise Usage(1, "seq: missing operand\nTry 'seq --help' for more information.\n")
    try:
        parsed = [float(n) if "." in n else int(n) for n in numbers]
    except ValueError:
        bad = next(n for n in numbers if not re.fullmatch(r"-?\d+(\.\d+)?", n))
        return 1, "", f"seq: invalid floating point argument: '{bad}'\n" \
                      "Try 'seq --help' for more information.\n"
    first, step, last = (1, 1, parsed[0]) if len(parsed) == 1 else \
        (parsed[0], 1, parsed[1]) if len(parsed) == 2 else tuple(parsed[:3])
    out, value = [], first
    while (step > 0 and value <= last) or (step < 0 and value >= last):
        out.append(str(value))
        value += step
    if "w" in flags:
        width = max((len(o) for o in out), default=0)
        out = [o.zfill(width) for o in out]
    return 0, values.get("s", ["\n"])[-1].join(out) + ("\n" if out else ""), ""
