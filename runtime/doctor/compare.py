"""The first difference of two traces of one block, described for a reader: the step, its
line and function, and what differs there — a variable's two values, the output's two
lines, or the path the run took — and whether the two are the same items in another order
(built from a set?)."""

import re

from ..cli import render

# what a run's end holds beside its steps, compared after them
_ENDS = (("status", "how the run ended"), ("message", "the run's message"),
         ("result", "the result"), ("error", "the error"))


def _lines(text):
    return text.splitlines()


def same_items(a, b):
    """Whether two texts are the same items in another order: the same lines, or the same
    comma-separated items of one bracketed value."""
    if a == b:
        return False
    if sorted(_lines(a)) == sorted(_lines(b)) and len(_lines(a)) > 1:
        return True
    found_a, found_b = _items(a), _items(b)
    return None not in (found_a, found_b) and found_a != found_b and \
        sorted(found_a) == sorted(found_b)


def _items(text):
    match = re.fullmatch(r"\s*(.*?)([\[{(])(.*)([\]})])\s*", text, re.S)
    if not match:
        return None
    return [item.strip() for item in match.group(3).split(",")]


def _output_line(stdout, upto):
    """The output line that holds character ``upto`` - 1 (the last written)."""
    start = stdout.rfind("\n", 0, max(upto - 1, 0)) + 1
    end = stdout.find("\n", start)
    return stdout[start:] if end < 0 else stdout[start:end]


def _first_output_difference(a, b):
    """Index of the first character where two outputs differ (None: the same)."""
    if a == b:
        return None
    size = min(len(a), len(b))
    return next((i for i in range(size) if a[i] != b[i]), size)


def first_difference(a, b, rows=None):
    """None when traces ``a`` and ``b`` are the same run, else a dict: ``step`` (its index or
    None), ``line``, ``function``, ``code`` (the line's text from ``rows``, {line: text}),
    ``what`` (a variable's name, "output", "path", "model call" or an end's name), ``a``
    and ``b`` (the two values as text) and ``reordered`` (the same items in another order)."""
    rows = rows or {}
    out_a, out_b = a.get("stdout", ""), b.get("stdout", "")
    split = _first_output_difference(out_a, out_b)
    steps_a, steps_b = a.get("steps", []), b.get("steps", [])
    for index, (x, y) in enumerate(zip(steps_a, steps_b)):
        found = None
        if (x["event"], x["line"], x.get("fn")) != (y["event"], y["line"], y.get("fn")):
            found = ("path", f"line {x['line']} ({x.get('fn')})", f"line {y['line']} ({y.get('fn')})")
        elif x.get("set") != y.get("set"):
            names = [n for n in dict.fromkeys([*x.get("set", {}), *y.get("set", {})])
                     if x.get("set", {}).get(n) != y.get("set", {}).get(n)]
            name = names[0]
            found = (name, _value(x.get("set", {}), name), _value(y.get("set", {}), name))
            x = _maker(steps_a, index)   # a value set shows at the step after its line
        elif split is not None and (split < x.get("out", 0) or split < y.get("out", 0)):
            found = ("output", _output_line(out_a, split + 1), _output_line(out_b, split + 1))
        if found is not None:
            return _difference(index, x, found, rows)
    if len(steps_a) != len(steps_b):
        longer = steps_a if len(steps_a) > len(steps_b) else steps_b
        step = longer[min(len(steps_a), len(steps_b))]
        return _difference(min(len(steps_a), len(steps_b)), step,
                           ("path", f"{len(steps_a)} steps", f"{len(steps_b)} steps"), rows)
    if split is not None:
        return _difference(None, None, ("output", _output_line(out_a, split + 1),
                                        _output_line(out_b, split + 1)), rows)
    agent_a, agent_b = a.get("agent") or {}, b.get("agent") or {}
    for number, (x, y) in enumerate(zip(agent_a.get("messages", []),
                                        agent_b.get("messages", [])), 1):
        if x != y:
            return _difference(None, None, (f"model message {number}", _short(x), _short(y)),
                               rows)
    for key, what in _ENDS:
        if a.get(key) != b.get(key):
            return _difference(None, None, (what, _short(a.get(key)), _short(b.get(key))), rows)
    if agent_a != agent_b:
        return _difference(None, None, ("the model calls", _short(agent_a.get("calls")),
                                        _short(agent_b.get("calls"))), rows)
    return None


def _maker(steps, index):
    """The step whose line set the values step ``index`` shows: the frame's step before it
    (the step itself when it starts the frame)."""
    frame = steps[index].get("frame")
    for before in range(index - 1, -1, -1):
        if steps[before].get("frame") == frame:
            return steps[before] if steps[index]["event"] != "call" else steps[index]
    return steps[index]


def _value(changed, name):
    return "(not set)" if name not in changed else render(changed[name])


def _short(value, size=300):
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= size else text[:size] + "…"


def _difference(index, step, found, rows):
    what, a, b = found
    line = step["line"] if step is not None else None
    return {"step": index, "line": line, "function": step.get("fn") if step else None,
            "code": rows.get(line, "").strip() if line is not None else "",
            "what": what, "a": a, "b": b, "reordered": same_items(a, b)}


def _around(a, b, size=100):
    """Two long texts cut to where they differ first (``…`` where cut)."""
    if len(a) <= size and len(b) <= size:
        return a, b
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, first - size // 3)

    def cut(text):
        piece = text[start:start + size]
        return ("…" if start else "") + piece + ("…" if start + size < len(text) else "")
    return cut(a), cut(b)


def describe(difference):
    """One line for a reader."""
    where = "after the block's last step" if difference["step"] is None else (
        f"step {difference['step']}, line {difference['line']} in {difference['function']}"
        + (f": {difference['code']}" if difference["code"] else ""))
    a, b = _around(difference["a"], difference["b"])
    text = f"{where} — {difference['what']}: {a} vs {b}"
    if difference["reordered"]:
        text += " (same items, another order: built from a set?)"
    return text
