"""What a run's requests already sent, kept so that the next request costs what is new.

A program's ``messages`` grows by a few messages per call; the rest it sent before. A
``Snapshot`` of the sent messages holds a *snap* of each: a copy of its lists and dicts
sharing its texts (they cannot change) and its SDK objects (runtime/standins/sdk.py) themselves,
their attributes copied beside (``fields``). ``unchanged`` then tells whether the program
edited, added to or removed from the first ``k`` messages since it sent them by the
interpreter's own comparisons — ``messages[:k] == snaps`` (a shared text or SDK object
compared by identity) and each SDK object's attributes with their copies — in time
proportional to the number of items, not their length. Equal means the same JSON body: a
number keeps its type (``1`` is not ``1.0`` or ``True``), a dict's key order counts (a key
order changed reads as changed); an SDK object the program replaced by another compares by
its fields, as its body does. Anything a snap cannot copy exactly (an object of another
kind) compares unequal, and the caller looks at the whole request as before.

Used by the replay (replay.py: only what is new since the conversation's previous call is
compared) and the live sender (live.py ``Sent``: only the new messages are put in the
normal form, the others shared with the previous call's body, which the version 3 file
then stores once).
"""

from .normal import request_body
from ..standins.sdk import Model


class _Leaf:
    """A sent number or boolean: equal only to one of the same type and value."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is type(self.value) and other == self.value

    __hash__ = None


class _Other:
    """A sent value a snap cannot copy exactly: equal to nothing."""

    __slots__ = ()

    def __eq__(self, other):
        return False

    __hash__ = None


_OTHER = _Other()


def snap(value, models):
    """A copy of ``value`` that compares equal to it until it changes; the SDK objects in
    it are kept themselves, each appended to ``models`` with a snap of its attributes."""
    kind = type(value)
    if kind is str or value is None:
        return value
    if kind is dict:
        copy = {}
        for key, item in value.items():
            if type(key) is not str:   # JSON has text keys: 1 and "1" would be one
                return _OTHER
            copy[key] = snap(item, models)
        return copy
    if kind is list:
        return [snap(item, models) for item in value]
    if kind is tuple:
        return tuple(snap(item, models) for item in value)
    if kind is int or kind is float or kind is bool:
        return _Leaf(value)
    if isinstance(value, Model):
        at = len(models)
        models.append(None)   # its place, before the objects its attributes hold
        models[at] = (value, snap(dict(vars(value)), models))
        return value
    return _OTHER


class Snapshot:
    """The snaps of the messages one request sent (see above)."""

    __slots__ = ("snaps", "models", "fields", "ends")

    def __init__(self):
        self.snaps = []    # per message: its snap
        self.models = []   # the SDK objects in them, in order
        self.fields = []   # per SDK object: the snap of its attributes
        self.ends = []     # per message: how many SDK objects it and those before it hold

    def __len__(self):
        return len(self.snaps)

    def extended(self, keep, messages, last=False):
        """A snapshot of this one's first ``keep`` messages, then of ``messages``. ``last``:
        this one is not used again; the new one takes its lists over (no copy)."""
        out = Snapshot()
        count = self.ends[keep - 1] if keep else 0
        if last and self is not EMPTY:
            out.snaps, out.ends, out.models, out.fields = \
                self.snaps, self.ends, self.models, self.fields
            del out.snaps[keep:], out.ends[keep:], out.models[count:], out.fields[count:]
            self.snaps, self.ends, self.models, self.fields = [], [], [], []
        else:
            out.snaps, out.ends = self.snaps[:keep], self.ends[:keep]
            out.models, out.fields = self.models[:count], self.fields[:count]
        for message in messages:
            found = []
            out.snaps.append(snap(message, found))
            for model, fields in found:
                out.models.append(model)
                out.fields.append(fields)
            out.ends.append(len(out.models))
        return out

    def unchanged(self, messages, keep=None):
        """Whether the first ``keep`` (default: all) of the snapped messages are
        ``messages``' first, as they were sent."""
        keep = len(self.snaps) if keep is None else keep
        if keep > len(self.snaps) or len(messages) < keep:
            return False
        if keep == 0:
            return True
        if messages[:keep] != self.snaps[:keep]:
            return False
        count = self.ends[keep - 1]
        return count == 0 or list(map(vars, self.models[:count])) == self.fields[:count]


EMPTY = Snapshot()


class Sent:
    """The conversations a live run sent: per conversation its snapshot and the normal
    form of its messages, as its last request had them."""

    def __init__(self):
        self.conversations = []   # [Snapshot, normal messages]

    def body(self, request, text=str):
        """``request_body(request, text)``, its messages already sent shared with the
        normal form their conversation's previous request had."""
        messages = request.get("messages")
        if type(messages) is not list or "messages" in (request.get("extra_body") or {}):
            return request_body(request, text)
        at = self._continued(messages)
        shot, done = self.conversations[at] if at is not None else (EMPTY, [])
        count = len(shot)
        body = request_body(dict(request, messages=[]), text)
        new = messages[count:]
        body["messages"] = done + request_body({"messages": new}, text)["messages"]
        entry = [shot.extended(count, new), body["messages"]]
        if at is None:
            self.conversations.append(entry)
        else:
            self.conversations[at] = entry
        return body

    def _continued(self, messages):
        for at in range(len(self.conversations) - 1, -1, -1):
            shot = self.conversations[at][0]
            if len(shot) and messages and messages[0] == shot.snaps[0] and \
                    shot.unchanged(messages):
                return at
        return None
