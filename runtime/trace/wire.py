"""The two forms of a trace: the dict form (a list of step dicts) and the packed form.

The packed form (docs/design.md, "Packed trace") is what the browser worker posts:
the header of the dict form without ``steps``, plus the steps by column, sparse
fields as gap-coded lists. ``steps(columns)`` expands columns into step dicts,
``pack`` / ``unpack`` convert between a trace dict and the packed JSON text, and
``unpack(pack(trace)) == trace`` for every trace the recorder makes.
"""

import itertools
import json

from ..agent import wire as agent_wire
from .events import EVENTS
from .columns import Columns

PACKED = 1
_DIGITS = bytes.maketrans(bytes(range(len(EVENTS))), "".join(map(str, range(len(EVENTS)))).encode())
_CODES = {name: code for code, name in enumerate(EVENTS)}
_SPARSE = ("end", "out", "set", "del", "ret", "exc")


def steps(cols):
    """The step dicts (dict form) of columns."""
    frames = cols.frames
    sets = dict(zip(cols.sets[0::2], cols.sets[1::2]))
    outs = dict(zip(cols.out[0::2], cols.out[1::2]))
    ends, dels, rets, excs = cols.end, cols.dels, cols.rets, cols.excs
    threads, thread = cols.thread, 0   # only a trace with steps outside the main thread
    out = 0
    result = []
    for n, (event, line, row) in enumerate(zip(cols.event, cols.line, cols.row)):
        fid, fn, depth, stack = frames[row]
        changed = sets.get(n)
        step = {"event": EVENTS[event], "line": line, "end": ends.get(n, line), "fn": fn,
                "frame": fid, "depth": depth, "stack": stack,
                "set": dict(zip(changed[0::2], changed[1::2])) if changed else {}}
        if n in dels:
            step["del"] = dels[n]
        out = outs.get(n, out)
        step["out"] = out
        if n in rets:
            step["ret"] = rets[n]
        if n in excs:
            step["exc"] = excs[n]
        if threads:
            thread = step["thread"] = threads.get(n, thread)
        result.append(step)
    return result


def columns(step_dicts):
    """Columns holding the same steps as a list of step dicts."""
    cols = Columns()
    rows = {}
    last_out = last_thread = 0
    for n, s in enumerate(step_dicts):
        key = (s["frame"], s["fn"], s["depth"], s["stack"])
        row = rows.get(key)
        if row is None:
            row = rows[key] = len(cols.frames)
            cols.frames.append([s["frame"], s["fn"], s["depth"], s["stack"]])
        cols.event.append(_CODES[s["event"]])
        cols.line.append(s["line"])
        cols.row.append(row)
        if s["end"] != s["line"]:
            cols.end[n] = s["end"]
        if s["out"] != last_out:
            last_out = s["out"]
            cols.out += [n, last_out]
        if s["set"]:
            cols.sets += [n, [x for pair in s["set"].items() for x in pair]]
        if "del" in s:
            cols.dels[n] = s["del"]
        if "ret" in s:
            cols.rets[n] = s["ret"]
        if "exc" in s:
            cols.excs[n] = s["exc"]
        if s.get("thread", 0) != last_thread:
            last_thread = cols.thread[n] = s["thread"]
    return cols


def _gaps(pairs):
    """[(index, payload), …] in index order → [gap, *payload, …]."""
    flat = []
    last = 0
    for index, payload in pairs:
        flat.append(index - last)
        flat.extend(payload)
        last = index
    return flat


def packed(header, cols):
    """The packed form (a JSON-safe dict) of a trace header and its columns."""
    names = {}

    def name_id(name):
        found = names.get(name)
        if found is None:
            found = names[name] = len(names)
        return found

    def set_payload(changed):
        payload = [len(changed) // 2]
        for k in range(0, len(changed), 2):
            payload += [name_id(changed[k]), changed[k + 1]]
        return payload

    runs = []
    for row, group in itertools.groupby(cols.row):
        runs += [row, sum(1 for _ in group)]
    body = {
        "packed": PACKED,
        "count": len(cols),
        "frames": cols.frames,
        "event": bytes(cols.event).translate(_DIGITS).decode("ascii"),
        "line": cols.line,
        "frame": runs,
        "end": _gaps((n, (end,)) for n, end in sorted(cols.end.items())),
        "out": _gaps((cols.out[k], (cols.out[k + 1],)) for k in range(0, len(cols.out), 2)),
        "set": _gaps((cols.sets[k], set_payload(cols.sets[k + 1]))
                     for k in range(0, len(cols.sets), 2)),
        "del": _gaps((n, [len(d)] + [name_id(x) for x in d]) for n, d in sorted(cols.dels.items())),
        "ret": _gaps((n, (v,)) for n, v in sorted(cols.rets.items())),
        "exc": _gaps((n, (e["type"], e["message"])) for n, e in sorted(cols.excs.items())),
    }
    body["names"] = list(names)
    if cols.thread:
        body["thread"] = _gaps((n, (k,)) for n, k in sorted(cols.thread.items()))
    if "agent" in header:
        body["agent"] = agent_wire.pack(header["agent"])
    return {**{k: v for k, v in header.items() if k != "steps"}, **body}


def dumps(data):
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def pack(trace):
    """The packed JSON text of a trace in dict form."""
    return dumps(packed(trace, columns(trace["steps"])))


def _spread(flat, width):
    """Undo ``_gaps`` for fixed-width payloads: [(index, payload), …]."""
    index = 0
    for k in range(0, len(flat), 1 + width):
        index += flat[k]
        yield index, flat[k + 1:k + 1 + width]


def _counted(flat):
    """Undo ``_gaps`` for payloads that start with their own item count."""
    index = k = 0
    while k < len(flat):
        index += flat[k]
        size = flat[k + 1]
        yield index, size, k + 2
        k += 2 + size


def unpack(data):
    """The trace in dict form of packed JSON text (or its parsed dict)."""
    if isinstance(data, str):
        data = json.loads(data)
    names = data["names"]
    cols = Columns()
    cols.frames = data["frames"]
    cols.event = bytearray(int(c) for c in data["event"])
    cols.line = data["line"]
    for k in range(0, len(data["frame"]), 2):
        cols.row += [data["frame"][k]] * data["frame"][k + 1]
    cols.end = {n: p[0] for n, p in _spread(data["end"], 1)}
    cols.out = [x for n, p in _spread(data["out"], 1) for x in (n, p[0])]
    flat = data["set"]
    sets = []
    index = k = 0
    while k < len(flat):
        index += flat[k]
        size = flat[k + 1]
        changed = []
        for j in range(k + 2, k + 2 + 2 * size, 2):
            changed += [names[flat[j]], flat[j + 1]]
        sets += [index, changed]
        k += 2 + 2 * size
    cols.sets = sets
    cols.dels = {n: [names[i] for i in data["del"][at:at + size]]
                 for n, size, at in _counted(data["del"])}
    cols.rets = {n: p[0] for n, p in _spread(data["ret"], 1)}
    cols.excs = {n: {"type": p[0], "message": p[1]} for n, p in _spread(data["exc"], 2)}
    cols.thread = {n: p[0] for n, p in _spread(data.get("thread", ()), 1)}
    header = {k: v for k, v in data.items() if k not in _BODY}
    if "agent" in header:
        header["agent"] = agent_wire.unpack(header["agent"])
    header["steps"] = steps(cols)
    return header


_BODY = frozenset(("packed", "count", "frames", "names", "event", "line", "frame", "thread")
                  + _SPARSE)
