"""``sort`` as GNU sort orders under ``LC_ALL=C``: byte order, ``-n -r -u -f -b -s -c
-t SEP -o FILE`` and keys ``-k F[.C][OPTS][,F[.C][OPTS]]`` (options ``n r f b h g``
per key; a key without its own takes the global ones), ties broken by the whole line."""

import functools
import re

from .options import Usage, inputs, join, lines, options

_KEY = re.compile(r"(\d+)(?:\.(\d+))?([bdfghinrMV]*)(?:,(\d+)(?:\.(\d+))?([bdfghinrMV]*))?$")


def _numeric(text):
    match = re.match(r"\s*(-?\d*\.?\d+)", text)
    return float(match.group(1)) if match else 0.0


class _Key:
    def __init__(self, spec, global_flags):
        found = _KEY.match(spec)
        if not found:
            raise Usage(2, f"sort: invalid number at field start: invalid count at start "
                           f"of '{spec}'\n")
        field, char, opts, end, end_char, end_opts = found.groups()
        if int(field) == 0:
            raise Usage(2, f"sort: field number is zero: invalid field specification "
                           f"'{spec}'\n")
        self.field, self.char = int(field), int(char or 1)
        self.end = int(end) if end else None
        self.end_char = int(end_char) if end_char else 0
        own = set(opts + (end_opts or ""))
        self.flags = own if own - {"b"} else own | (global_flags & set("nrfbhg"))

    def text(self, line, separator):
        fields = line.split(separator) if separator is not None else \
            re.findall(r"\s*\S+", line) or [""]
        starts, position = [], 0
        for part in fields:
            starts.append(position)
            position += len(part) + (1 if separator is not None else 0)
        if self.field > len(fields):
            return ""
        first = fields[self.field - 1]
        skip = len(first) - len(first.lstrip()) if "b" in self.flags else 0
        begin = starts[self.field - 1] + skip + self.char - 1
        if self.end is None or self.end > len(fields):
            finish = len(line)
        elif self.end_char:
            finish = starts[self.end - 1] + self.end_char
        else:
            finish = starts[self.end - 1] + len(fields[self.end - 1])
        return line[begin:max(begin, finish)]


def _compare(left, right, keys, separator, flags):
    for key in keys:
        a, b = (key.text(left, separator), key.text(right, separator)) if key.field else \
            (left, right)
        if key.flags & set("nhg"):
            a, b = _numeric(a), _numeric(b)
        else:
            if "b" in key.flags:
                a, b = a.lstrip(), b.lstrip()
            if "f" in key.flags:
                a, b = a.upper(), b.upper()
            a, b = a.encode(), b.encode()
        result = (a > b) - (a < b)
        if result:
            return -result if "r" in key.flags else result
    if flags & set("su"):
        return 0
    result = (left.encode() > right.encode()) - (left.encode() < right.encode())
    return -result if "r" in flags else result


def sort(shell, args, cwd, stdin):
    try:
        flags, values, names = options("sort", args, "nrufbhgVsc", valued="kto",
                                       longs={"--reverse": "r", "--unique": "u",
                                              "--numeric-sort": "n", "--check": "c"})
        keys = [_Key(spec, flags) for spec in values.get("k", [])]
    except Usage as usage:
        return usage.code, "", usage.message
    if not keys:
        whole = _Key("1", flags)
        whole.field = 0
        keys = [whole]
    found, err, _ = inputs(shell, names, cwd, stdin,
                           lambda n, r: f"sort: cannot read: {n}: {r}\n")
    if err:
        return 2, "", err
    rows = [row for _, text in found for row in lines(text)]
    separator = values.get("t", [None])[-1]
    order = functools.cmp_to_key(lambda a, b: _compare(a, b, keys, separator, flags))
    if "c" in flags:
        for number in range(1, len(rows)):
            if _compare(rows[number - 1], rows[number], keys, separator, flags) > 0:
                return 1, "", f"sort: {names[0] if names else '-'}:{number + 1}: disorder: " \
                              f"{rows[number]}\n"
        return 0, "", ""
    rows.sort(key=order)
    if "u" in flags:
        unique = []
        for row in rows:
            if not unique or _compare(unique[-1], row, keys, separator, flags | {"u"}):
                unique.append(row)
        rows = unique
    text = join(rows)
    if "o" in values:
        with open(shell.path(values["o"][-1], cwd), "w", encoding="utf-8") as handle:
            handle.write(text)
        return 0, "", ""
    return 0, text, ""
