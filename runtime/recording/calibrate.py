"""A recording that does not hold its run's clock readings (an imported run, a version 1
file) replays its clock from its requests: where a replay stops because a request holds
another time than the recorded one at the same place — a transcript named
``transcript_{int(time.time())}.jsonl``, a ``created_at`` — and that time is a reading
the run took, the run is recorded again with that reading given back as the recorded one
(the world's tape, runtime/world/tape.py), the clock going on from there.

``clock_fix(divergence, readings)`` finds the reading and its recorded value; the recorder
calls it after a replay that diverged (recorder.py), at most MAX_FIXES times a run.
Likewise ``id_fix``: where the request shows, at the first difference, the start of a
``uuid.uuid4()`` the run drew (its text or hex, ``str(uuid.uuid4())[:8]``) and the recorded
request other hex digits of the same length, the run is recorded again with that draw
given back as a uuid starting with the recorded digits (the world's tape). And
``output_fix``: where the request differs from the recorded one only in the span where it
shows the output of a stand-in command a thread other than the main one ran (stdout and
stderr, stripped), the run is recorded again with that command answered by the recorded
text there (a background command's output on the author's machine, which no recorded tool
execution holds; a command of the main thread is a tool's result, which a recording
answers or shows as a divergence).
A time shows as seconds since the epoch (``1767258000``, ``1767258000.123``), milliseconds
(13 digits) or an ISO 8601 date and time (``2026-01-01T09:00:00[.ffffff]``, read as UTC:
a run's time zone is UTC, runtime/world/clock.py).
"""

import json
import re
from datetime import datetime, timezone

MAX_FIXES = 16
_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?"
                    r"|\d{13}|\d{10}(?:\.\d{1,7})?")


_HEX = re.compile(r"[0-9a-f][0-9a-f-]*")


def _first_difference(a, b):
    size = min(len(a), len(b))
    return next((i for i in range(size) if a[i] != b[i]), size)


def _token_at(text, index):
    """The time-like token of ``text`` that holds ``index`` (or ends just before it)."""
    for match in _TOKEN.finditer(text):
        if match.start() <= index <= match.end() and match.start() < len(text):
            return match
        if match.start() > index:
            break
    return None


def _seconds(token):
    """(seconds since the epoch, its form, the form's resolution in µs) of a token."""
    if "-" in token:
        moment = datetime.fromisoformat(token.replace(" ", "T")).replace(tzinfo=timezone.utc)
        resolution = 1 if "." in token else 1_000_000
        return moment.timestamp(), "iso", resolution
    if len(token) == 13:
        return int(token) / 1000, "ms", 1_000
    if "." in token:
        return float(token), "float", 10 ** (6 - min(6, len(token.partition(".")[2])))
    return int(token), "int", 1_000_000


def _differing(divergence, at):
    """The tokens (``at(text, index)``: a match or None) the sent and the recorded text of
    a divergence show where they first differ, when both start at the same place."""
    recorded, sent = divergence.get("recorded"), divergence.get("sent")
    if not isinstance(recorded, str) or not isinstance(sent, str):
        return None
    index = _first_difference(recorded, sent)
    got, wanted = at(sent, index), at(recorded, index)
    if got is None or wanted is None or got.start() != wanted.start():
        return None
    return got, wanted


def clock_fix(divergence, readings):
    """The clock readings (``[[kind, µs], …]``, the tape's form) a replay gives back so that
    the reading shown as ``divergence["sent"]`` shows as its ``recorded`` text; None when
    the difference is not a time this run read (``readings``: the run's own, in order)."""
    found = _differing(divergence, _token_at) if divergence and readings else None
    if found is None:
        return None
    got, wanted = found
    try:
        value, form, resolution = _seconds(got.group())
        target, target_form, _ = _seconds(wanted.group())
    except (ValueError, OverflowError):
        return None
    if form != target_form:
        return None
    shown = round(value * 1_000_000)
    for position, (kind, micros) in enumerate(readings):
        if kind == "wall" and shown <= micros < shown + resolution:
            fixed = round(target * 1_000_000) + (micros - shown)   # keeps what the text cut
            return [list(entry) for entry in readings[:position]] + [["wall", fixed]]
    return None


def _hex_at(text, index):
    for match in _HEX.finditer(text):
        if match.start() <= index < match.end():
            return match
        if match.start() > index:
            break
    return None


def id_fix(divergence, drawn, given=()):
    """The uuid4 draws (``[[draw number, hex], …]``) a replay gives back so that the id
    shown as ``divergence["sent"]`` shows as its ``recorded`` text; None when the difference
    is not the start of a uuid this run drew (``drawn``: their hex, in order)."""
    found = _differing(divergence, _hex_at) if divergence and drawn else None
    if found is None:
        return None
    got, wanted = found
    if len(got.group()) != len(wanted.group()) or len(got.group()) < 6:
        return None
    token, target = got.group(), wanted.group()
    for number, value in enumerate(drawn):
        text = f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"
        for form in (text, value):
            if form.startswith(token):
                fixed = (target + form[len(token):]).replace("-", "")
                if len(fixed) == 32 and all(c in "0123456789abcdef" for c in fixed):
                    return [list(entry) for entry in given if entry[0] != number] + \
                        [[number, fixed]]
    return None


def _decoded(value):
    """A divergence's value: the text it shows (a JSON text of a string: that string)."""
    try:
        found = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return value
    return found if isinstance(found, str) else value


def output_fix(divergence, outputs, given=()):
    """The command outputs (``[[command number, text], …]``) a replay gives back so that
    ``divergence["sent"]`` shows as its ``recorded`` text; None when the difference is not
    exactly a stand-in command's output (``outputs``: this run's, in order)."""
    if not divergence or not outputs:
        return None
    recorded, sent = (_decoded(divergence.get(key)) for key in ("recorded", "sent"))
    if not isinstance(recorded, str) or not isinstance(sent, str) or recorded == sent:
        return None
    done = {entry[0] for entry in given}
    for number in range(len(outputs) - 1, -1, -1):
        shown = outputs[number].strip()
        if number in done or not shown:
            continue
        at = sent.find(shown)
        while at >= 0:
            head, tail = sent[:at], sent[at + len(shown):]
            if recorded.startswith(head) and recorded.endswith(tail) and \
                    len(recorded) >= len(head) + len(tail):
                text = recorded[len(head):len(recorded) - len(tail)]
                if text != shown:
                    return [list(entry) for entry in given] + [[number, text]]
            at = sent.find(shown, at + 1)
    return None
