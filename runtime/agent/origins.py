"""Where the messages of a conversation came from, and when what a call sent changed.

For every message list seen at a model call (a conversation), the step at which each
message entered the list (``added``, one per message of the pool) and, per model
call, the first change of what it sent, after the call (``changed``, one per call:
``[step, kind, position]`` or None). A change is a sent message ``removed`` from the
list, ``replaced`` by another (unequal) one, or its content ``edited`` in place;
messages appended after the sent ones change nothing that was sent. See
docs/design.md, "Agent calls".

Bounded: from its first model call on, a conversation's list is watched at every
recorded step (at most ``MAX_TRACKED`` lists, the latest ones): its ``len()`` and last
item for ``added``; while a call waits, the sent messages by identity (a removal or a
replacement, anywhere in the list) and the latest ``EDIT_WINDOW`` of them against a shallow
copy taken at the call (``_frozen``: containers copied ``FREEZE_DEPTH`` levels deep, at most
``FREEZE_ITEMS`` items each; once found unchanged, the containers the copies describe are
held by identity and compared so while they stay the same: sameness.py), so a step costs
the same however long the conversation grows; an edit in place of an older message is not
reported. A change seen before step ``n`` is recorded
at ``n - 1``, the last step recorded when it happened (the nearest displayed step).
The messages a list already held at its first call are found in the steps recorded
so far: a displayed frame holding the list has its value recorded whenever it
changed, so the lengths it went through name the statements that grew it. What
neither sees (a list filled by code not displayed) falls back to the call's step.
"""

from ..trace.events import CALL
from .sameness import take

MAX_TRACKED = 16        # conversation lists watched at each step
MAX_LOOK_BACK = 20_000  # recorded changes of locals read back at a conversation's first call
FREEZE_DEPTH = 4        # container levels of a sent message compared at each step
FREEZE_ITEMS = 64       # items of each container compared
EDIT_WINDOW = 16        # the latest sent messages compared for edits in place at each step
_ABSENT = object()
_LEAVES = (str, int, float, bool, type(None), bytes)


def _frozen(value, depth=FREEZE_DEPTH):
    """A comparable copy of ``value``'s contents: containers as tuples, ``depth`` levels
    deep, objects by their attributes; past that, by identity."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if depth == 0:
        return (id(value),)
    depth -= 1
    if kind is dict:
        return ("d", len(value), tuple((k, _frozen(v, depth))
                                       for k, v in list(value.items())[:FREEZE_ITEMS]))
    if kind is list or kind is tuple:
        return ("l", len(value), tuple(_frozen(v, depth) for v in value[:FREEZE_ITEMS]))
    attrs = getattr(value, "__dict__", None)
    if type(attrs) is dict:
        return ("o", id(value), _frozen(attrs, depth))
    return (id(value),)


def _unchanged(value, was, depth=FREEZE_DEPTH):
    """``_frozen(value, depth) == was``, without making the copy (the check of each step)."""
    kind = type(value)
    if kind in _LEAVES:   # inside a tuple, == holds for the same object (a NaN too)
        return value == was if depth == FREEZE_DEPTH else value is was or value == was
    if depth == 0:
        return was == (id(value),)
    depth -= 1
    shaped = type(was) is tuple and len(was) == 3   # as _frozen makes a container's
    if kind is dict:
        if not shaped or was[0] != "d" or was[1] != len(value):
            return False
        pairs = was[2]
        if len(pairs) != min(len(value), FREEZE_ITEMS):
            return False
        for (key, item), (was_key, was_item) in zip(value.items(), pairs):
            if not (key is was_key or key == was_key) or not _unchanged(item, was_item, depth):
                return False
        return True
    if kind is list or kind is tuple:
        if not shaped or was[0] != "l" or was[1] != len(value):
            return False
        items = was[2]
        if len(items) != min(len(value), FREEZE_ITEMS):
            return False
        for item, was_item in zip(value, items):
            if not _unchanged(item, was_item, depth):
                return False
        return True
    attrs = getattr(value, "__dict__", None)
    if type(attrs) is dict:
        return shaped and was[0] == "o" and was[1] == id(value) and _unchanged(
            attrs, was[2], depth)
    return was == (id(value),)


class _Watched:
    __slots__ = ("messages", "length", "last", "added_at", "waiting", "items", "frozen",
                 "same")

    def __init__(self, messages, added_at):
        self.messages = messages
        self.length = len(messages)
        self.last = messages[-1] if messages else None
        self.added_at = added_at     # the step each position of the list was filled at
        self.waiting = []            # (call, sent length) of calls whose sent messages are unchanged
        self.items = []              # the sent messages, as the latest waiting call sent them
        self.frozen = []             # and their contents then (_frozen)
        # the edit window as last found unchanged (sameness.py); False: it cannot be held,
        # so it is not walked again before the window moves or changes
        self.same = None

    def send(self, k):
        """Call ``k`` sent the list as it is now: wait for a change of its messages."""
        messages = self.messages
        sent = len(messages)
        have = len(self.items)
        # the earlier sent messages are still as they were (else no call would wait on them)
        if not self.waiting or have > sent:
            have = 0
        was, self.same = self.same, None
        carry = have and was and was.still(self.items[max(have - EDIT_WINDOW, 0):])
        self.items = self.items[:have] + messages[have:]
        self.frozen = self.frozen[:have] + [_frozen(m) for m in messages[have:]]
        self.waiting.append((k, sent))
        if carry:   # the window so far is as it was: its pieces stay, the new ones are walked
            start = max(sent - EDIT_WINDOW, 0)
            kept = was.pieces[len(was.pieces) - (have - start):] if have > start else []
            self.same = take(self.items[start:], _LEAVES, FREEZE_DEPTH, FREEZE_ITEMS, kept)

    def first_change(self):
        """(kind, position) of the first sent message that changed, or None."""
        messages = self.messages
        items = self.items
        sent = len(items)
        length = len(messages)
        edits_from = max(sent - EDIT_WINDOW, 0)
        head = messages[:sent] if length >= sent else None   # one copy, compared at C speed
        if head is not None and head == items:
            items = self.items = head   # an equal replacement is the message now
            window = items[edits_from:]
            same = self.same
            if same and same.still(window):
                return None
            frozen = self.frozen
            for position in range(edits_from, sent):
                if not _unchanged(items[position], frozen[position]):
                    return "edited", position
            if same is not False:   # none yet, or held but no longer the same objects
                self.same = take(window, _LEAVES, FREEZE_DEPTH, FREEZE_ITEMS) or False
            return None
        for position in range(min(sent, length)):
            now = messages[position]
            if now is not items[position] and now != items[position]:
                return "replaced", position
            if position >= edits_from and _frozen(now) != self.frozen[position]:
                return "edited", position
        return "removed", length


class Origins:
    def __init__(self, builder):
        self.builder = builder
        self.added = {}              # pool index → step
        self.changed = []            # per recorded call: step or None
        self.watched = {}            # conversation index → _Watched
        self.order = []              # watched conversation indices, oldest first

    # -- per step (TraceBuilder.agent_watch) -------------------------------------------
    def check(self, n):
        """Compare the watched lists with what they held at the previous check."""
        step = n - 1 if n > 0 else 0
        for watched in self.watched.values():
            if watched.waiting:
                self._sent_changed(watched, step)
            messages = watched.messages
            length = len(messages)
            if length == watched.length and (not length or messages[-1] is watched.last):
                continue
            self._grown(watched, messages, length, step)

    def _sent_changed(self, watched, step):
        """Record the first change of the messages the waiting calls sent, if any."""
        change = watched.first_change()
        if change is None:
            return
        kind, position = change
        if kind == "replaced" and len(watched.messages) < watched.length:
            kind = "removed"     # the list got shorter: what follows moved up in its place
        still = []
        for k, sent in watched.waiting:
            if sent > position:
                self.changed[k] = [step, kind, position]
            else:
                still.append((k, sent))
        watched.waiting = still
        del watched.items[position:]
        del watched.frozen[position:]
        watched.same = None

    def _grown(self, watched, messages, length, step):
        added_at = watched.added_at
        if length < len(added_at):
            del added_at[length:]
        elif length and len(added_at) == length:   # the same length: the last item replaced
            added_at[-1] = step
        while len(added_at) < length:
            added_at.append(step)
        watched.length = length
        watched.last = messages[-1] if length else None

    def _now(self):
        return len(self.builder.cols.event)

    # -- at a model call ---------------------------------------------------------------
    def sent(self, conversation, frame, messages, ids, known):
        """Call ``len(self.changed)`` sent ``messages`` (pool ``ids``; the first
        ``known`` were in the conversation's previous call)."""
        step = max(self._now() - 1, 0)
        watched = self.watched.get(conversation)
        if watched is None or watched.messages is not messages:
            watched = self._watch(conversation, frame, messages, step)
        if watched is None:
            added_at = ()
        else:
            added_at = watched.added_at
            watched.send(len(self.changed))
        for position in range(known, len(ids)):
            at = added_at[position] if position < len(added_at) else step
            self.added.setdefault(ids[position], at)
        self.changed.append(None)

    def _watch(self, conversation, frame, messages, step):
        if type(messages) is not list:   # a subclass's own len() is not run from here
            return None
        added_at = self._history(frame, messages, step)
        watched = _Watched(messages, added_at)
        self.watched[conversation] = watched
        self.order.append(conversation)
        if len(self.order) > MAX_TRACKED:
            self.watched.pop(self.order.pop(0), None)
        self.builder.agent_watch = self.check
        return watched

    def result(self, pool_size):
        """(``added`` per pool message, ``changed`` per call) at the end of the run."""
        self.check(self._now())
        return [self.added.get(i) for i in range(pool_size)], list(self.changed)

    # -- the steps before a list's first call ----------------------------------------------
    def _history(self, frame, messages, fallback):
        """The step each message of ``messages`` entered it, read from the recorded values
        of the outermost displayed frame holding the list."""
        holder = None
        outer = frame.f_back
        while outer is not None:
            state = self.builder.frames.get(outer)
            if state is not None:
                name = next((k for k, v in outer.f_locals.items() if v is messages), None)
                if name is not None:
                    holder = (state.fid, name)
            outer = outer.f_back
        grown = self._lengths(*holder) if holder is not None else []
        added_at = []
        for seen, length in grown:
            at = self._statement_before(seen, holder[0])
            while len(added_at) < min(length, len(messages)):
                added_at.append(at)
        while len(added_at) < len(messages):
            added_at.append(fallback)
        return added_at

    def _lengths(self, fid, name):
        """[(step, length), …] oldest first: the steps at which frame ``fid`` saw its
        local ``name`` hold a list of a new length, back to where it held no list or a
        longer one."""
        cols = self.builder.cols
        rows, frames, sets = cols.row, cols.frames, cols.sets
        found = []
        later = None
        for at in range(len(sets) - 2, max(len(sets) - 2 * MAX_LOOK_BACK, 0) - 2, -2):
            n = sets[at]
            if frames[rows[n]][0] != fid:
                continue
            changed = sets[at + 1]
            value = next((changed[k + 1] for k in range(0, len(changed), 2)
                          if changed[k] == name), _ABSENT)
            if value is _ABSENT:
                continue
            if not (isinstance(value, list) and value[0] == "list"):
                break
            length = value[1]
            if later is not None and length > later:
                break
            if later is None or length < later:
                found.append((n, length))
                later = length
            else:
                found[-1] = (n, length)
        found.reverse()
        return found

    def _statement_before(self, seen, fid):
        """The step of frame ``fid`` before step ``seen`` (the statement that ran when
        its locals changed), else the step before ``seen``."""
        cols = self.builder.cols
        rows, frames = cols.row, cols.frames
        if cols.event[seen] == CALL:   # the list came with the call: from its caller
            return max(seen - 1, 0)
        for n in range(seen - 1, max(seen - MAX_LOOK_BACK, 0) - 1, -1):
            if frames[rows[n]][0] == fid:
                return n
        return max(seen - 1, 0)
