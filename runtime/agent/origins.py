"""Where the messages of a conversation came from, and when a sent list changed.

For every message list seen at a model call (a conversation), the step at which each
message entered the list (``added``, one per message of the pool) and, per model
call, the first step at which the list it was sent changed after the call
(``changed``, one per call). See docs/design.md, "Agent calls".

Bounded and cheap: from its first model call on, a conversation's list is watched at
every recorded step by its ``len()`` and the identity of its last item (at most
``MAX_TRACKED`` lists, the latest ones). A change seen before step ``n`` is recorded
at ``n - 1``, the last step recorded when it happened (the nearest displayed step).
The messages a list already held at its first call are found in the steps recorded
so far: a displayed frame holding the list has its value recorded whenever it
changed, so the lengths it went through name the statements that grew it. What
neither sees (a list filled by code not displayed) falls back to the call's step.
"""

from ..trace.events import CALL

MAX_TRACKED = 16        # conversation lists watched at each step
MAX_LOOK_BACK = 20_000  # recorded changes of locals read back at a conversation's first call
_ABSENT = object()


class _Watched:
    __slots__ = ("messages", "length", "last", "added_at", "waiting")

    def __init__(self, messages, added_at):
        self.messages = messages
        self.length = len(messages)
        self.last = messages[-1] if messages else None
        self.added_at = added_at     # the step each position of the list was filled at
        self.waiting = []            # calls whose sent list has not changed yet


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
            messages = watched.messages
            length = len(messages)
            if length == watched.length and (not length or messages[-1] is watched.last):
                continue
            self._changed(watched, messages, length, step)

    def _changed(self, watched, messages, length, step):
        for k in watched.waiting:
            self.changed[k] = step
        watched.waiting = []
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
            watched.waiting.append(len(self.changed))
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
