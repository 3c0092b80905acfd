"""Commands that reorder or reshape lines: ``tac``, ``rev``, ``comm``, ``fold`` and
``column`` (``-t``, ``-s``), with GNU's (util-linux's for ``rev`` and ``column``)
formats and messages."""

from .options import Usage, inputs, join, lines, options, guarded


def _rows(text):
    """The lines of a text with their newlines (only ``\n`` ends a line)."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _texts(command, shell, names, cwd, stdin, error=None):
    return inputs(shell, names, cwd, stdin, error or (
        lambda n, r: f"{command}: {n}: {r}\n"))


@guarded
def tac(shell, args, cwd, stdin):
    _, _, names = options("tac", args, "")
    found, err, code = _texts("tac", shell, names, cwd, stdin,
                              lambda n, r: f"tac: failed to open '{n}' for reading: {r}\n")
    out = []
    for _, text in found:
        out.extend(reversed(_rows(text)))
    return code, "".join(out), err


@guarded
def rev(shell, args, cwd, stdin):
    _, _, names = options("rev", args, "")
    found, err, code = _texts("rev", shell, names, cwd, stdin,
                              lambda n, r: f"rev: cannot open {n}: {r}\n")
    out = []
    for _, text in found:
        for row in _rows(text):
            body = row.rstrip("\n")
            out.append(body[::-1] + row[len(body):])
    return code, "".join(out), err


@guarded
def comm(shell, args, cwd, stdin):
    flags, _, names = options("comm", args, "123")
    if len(names) != 2:
        missing = "missing operand" if len(names) < 2 else f"extra operand '{names[2]}'"
        after = f" after '{names[-1]}'" if len(names) == 1 else ""
        raise Usage(1, f"comm: {missing}{after}\nTry 'comm --help' for more information.\n")
    found, err, code = _texts("comm", shell, names, cwd, stdin)
    if code:
        return code, "", err
    left, right = lines(found[0][1]), lines(found[1][1])
    columns = [c for c in "123" if c not in flags]
    indent = {c: "\t" * len(columns[:columns.index(c)]) for c in columns}
    out, i, j = [], 0, 0
    while i < len(left) or j < len(right):
        if j >= len(right) or (i < len(left) and left[i].encode() < right[j].encode()):
            column, text, i = "1", left[i], i + 1
        elif i >= len(left) or right[j].encode() < left[i].encode():
            column, text, j = "2", right[j], j + 1
        else:
            column, text, i, j = "3", left[i], i + 1, j + 1
        if column in indent:
            out.append(indent[column] + text)
    return 0, join(out), ""


@guarded
def fold(shell, args, cwd, stdin):
    flags, values, names = options("fold", args, "bs", valued="w",
                                   longs={"--width=": "w", "--spaces": "s", "--bytes": "b"})
    width = values.get("w", ["80"])[-1]
    if not width.isdigit() or int(width) < 1:
        raise Usage(1, f"fold: invalid number of columns: '{width}'\n")
    width = int(width)
    found, err, code = _texts("fold", shell, names, cwd, stdin)
    out = []
    for _, text in found:
        for row in _rows(text):
            body, end = row.rstrip("\n"), row[len(row.rstrip("\n")):]
            while len(body) > width:
                cut = width
                if "s" in flags:
                    space = body.rfind(" ", 0, width)
                    cut = space + 1 if space >= 0 else width
                out.append(body[:cut] + "\n")
                body = body[cut:]
            out.append(body + end)
    return code, "".join(out), err


@guarded
def column(shell, args, cwd, stdin):
    flags, values, names = options("column", args, "t", valued="so")
    found, err, code = _texts("column", shell, names, cwd, stdin,
                              lambda n, r: f"column: cannot open {n}: {r}\n")
    rows = [row for _, text in found for row in lines(text) if row.strip()]
    if "t" not in flags:
        return code, join(rows), err
    separators = values.get("s", [" \t"])[-1]
    split = []
    for row in rows:
        cells, cell = [], ""
        for char in row:
            if char in separators:
                cells.append(cell)
                cell = ""
            else:
                cell += char
        cells.append(cell)
        if "s" not in values:
            cells = [c for c in cells if c]
        split.append(cells)
    widths = {}
    for cells in split:
        for index, cell in enumerate(cells):
            widths[index] = max(widths.get(index, 0), len(cell))
    gap = values.get("o", ["  "])[-1]
    out = [gap.join(c.ljust(widths[i]) if i < len(cells) - 1 else c
                    for i, c in enumerate(cells)) for cells in split]
    return code, join(out), err
