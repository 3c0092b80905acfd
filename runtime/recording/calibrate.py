"""A recording that does not hold its run's clock readings (an imported run, a version 1
file) replays its clock from its requests: where a replay stops because a request holds
another time than the recorded one at the same place — a transcript named
``transcript_{int(time.time())}.jsonl``, a ``created_at`` — and that time is a reading
the run took, the run is recorded again with that reading given back as the recorded one
(the world's tape, runtime/world/tape.py), the clock going on from there.

``clock_fix(divergence, readings)`` finds the reading and its recorded value; the recorder
calls it after a replay that diverged (recorder.py), at most MAX_FIXES times a run.
A time shows as seconds since the epoch (``1767258000``, ``1767258000.123``), milliseconds
(13 digits) or an ISO 8601 date and time (``2026-01-01T09:00:00[.ffffff]``, read as UTC:
a run's time zone is UTC, runtime/world/clock.py).
"""

import re
from datetime import datetime, timezone

MAX_FIXES = 16
_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?"
                    r"|\d{13}|\d{10}(?:\.\d{1,7})?")


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


def clock_fix(divergence, readings):
    """The clock readings (``[[kind, µs], …]``, the tape's form) a replay gives back so that
    the reading shown as ``divergence["sent"]`` shows as its ``recorded`` text; None when
    the difference is not a time this run read (``readings``: the run's own, in order)."""
    if not divergence or not readings:
        return None
    recorded, sent = divergence.get("recorded"), divergence.get("sent")
    if not isinstance(recorded, str) or not isinstance(sent, str):
        return None
    index = _first_difference(recorded, sent)
    got, wanted = _token_at(sent, index), _token_at(recorded, index)
    if got is None or wanted is None or got.start() != wanted.start():
        return None
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
