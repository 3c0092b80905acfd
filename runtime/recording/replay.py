"""A run's model calls answered from a recording, in order (docs/recordings.md, "Replay").

Each request the program sends is compared with the recorded one in the normal form
(normal.py: first as canonical JSON texts, at the speed of the C encoder; the normal forms
themselves only when those differ); at the first difference the run stops (``Divergence``), as it does when the
program makes more calls than were recorded (a divergence at call N+1). Both are
BaseExceptions, so the program's own ``except Exception`` cannot swallow them: the
recorder ends the run with status ``error``. After a fork's call (runtime/questions/
forks.py) the recording no longer holds the answers: the setup's model function gives
them when the lesson has one, else the run stops (``NoAnswer``).

The arrays of the tools' JSON Schemas whose order means nothing (``enum``, ``required``,
``type``) compare as sets. A tolerant replay (``tolerant``) goes on past a difference: each
call is answered by the recorded call at its place in its conversation (``threads``: a
call whose messages continue a conversation's previous call is its next), and its first
difference is kept (``differs``: the trace's call records say it). A recording of threads
replays tolerantly in its interleaving too (interleave.py: turns, calls held in flight);
a thread's new conversation takes a recorded one no conversation took (``_opening``), and
a call by another thread than the recorded one is a difference (``thread``).

The run's folder reads as the recording's ``cwd``: a request's text shows the real folder
as ``cwd`` (the recorder's values.Folder), and a recorded answer's ``cwd`` is handed to
the program as the real folder.
"""

from .compact import links
from .interleave import Interleaving, concurrent
from .normal import (REORDERED, canonical, first_difference, normal, quick_text,
                     reordered_texts, request_body, same, unordered)
from .sent import EMPTY

BEYOND = "(beyond the recording)"


class Divergence(BaseException):
    """The program sent a request the recording does not hold at call ``call``."""

    reordered = False   # the same items in another order (a list built from a set?)

    def __init__(self, call, path, recorded, sent):
        self.reordered = reordered_texts(recorded, sent)
        super().__init__(f"divergence at model call {call}: {path}"
                         + (f" ({REORDERED})" if self.reordered else ""))
        self.call, self.path, self.recorded, self.sent = call, path, recorded, sent

    def to_dict(self):
        found = {"call": self.call, "path": self.path, "recorded": self.recorded,
                 "sent": self.sent}
        if self.reordered:
            found["reordered"] = True
        return found


class ToolDivergence(Divergence):
    """The program called a tool at model call ``call`` that the recording holds another
    execution of (recording/tools.py); ``path`` is ``tool:NAME``."""

    def __init__(self, call, name, sent, recorded):
        BaseException.__init__(self, f"tool call not in the recording at model call {call}: "
                                     f"{sent}")
        self.call, self.path, self.recorded, self.sent = call, f"tool:{name}", recorded, sent


class NoAnswer(BaseException):
    """A model call after a fork's call in a lesson whose setup answers none."""

    def __init__(self, call):
        super().__init__(f"no answer for model call {call}: forked past the recording")
        self.call = call


def answerable(spec):
    """Whether a recording can answer the model calls of lesson ``spec``'s runs: they go
    through a stand-in client ([standins] ``model``)."""
    return bool(spec.standins and spec.standins.model)


def swap_text(value, old, new):
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [swap_text(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: swap_text(item, old, new) for key, item in value.items()}
    return value


class Replay:
    """The answers of one run. ``text``: how the run shows a text (its folder as the
    recording's cwd); ``real``: the run's real folder (None: no folder)."""

    def __init__(self, recording, text=str, real=None, tolerant=False):
        self.recording = recording
        self.calls = recording["calls"]
        self.text = text
        self.real = real
        self.tolerant = tolerant  # go on past a difference (answers by position)
        self.made = 0
        self.current = 0          # the recorded call whose answer the run acts on
        self.forked = False
        self.stopped = None       # the Divergence or NoAnswer that ended the run
        self.on_hold = None       # told when a thread's call is held: never answered
        self._matched = None      # the recorded call ``held`` found for the caller's call
        self._placed = None       # (number or None,): the call ``held`` placed (tolerant)
        self.differs = {}         # model call → its first difference (a tolerant replay)
        self._threads = None      # the recording's conversations (a tolerant replay)
        self._sent = []           # the run's conversations: [messages, calls made,
                                  #   the recorded conversation answering it]
        self._links = None        # per recorded call: (call it continues, messages kept)
        self._snaps = {}          # call number → the Snapshot of the messages it sent (sent.py),
                                  #   while a call to come continues it
        self._users = None        # per call number: the recorded calls continuing it
        self._kept = 0            # the messages of this call _known found unchanged
        # calls that overlapped (threads): answered by conversation, in turn (interleave.py)
        self.order = Interleaving(self) if concurrent(self.calls) else None

    def begin(self):
        """A model call begins (runtime/standins/sdk.py): threads' calls are in flight
        until answered (interleave.py)."""
        if self.order:
            self.order.begin()

    def held(self, request):
        """Before a fork may answer it (runtime/standins/sdk.py): a call a thread other than
        the main one makes past its conversation's recorded calls was in flight when the
        recording ended; it waits here until the run ends (its capture record leaves the
        calls first: agent/in_flight.py, so a fork's ``model:K`` counts as the trace does)."""
        if not self.order or self.forked or self.stopped is not None:
            return
        number = self._position(request) if self.tolerant else self.order.match(request)
        if number is None and not self.order.main_thread():
            self.made += 1
            if self.on_hold is not None:
                self.on_hold()
            self.order.hold()   # in flight when the recording ended: never answered
        self._matched = number
        self._placed = (number,)

    def answer(self, provider, request, forked=False, has_reply=False):
        """The recorded response (provider JSON) of the next call; None when the caller
        answers it itself (the fork's call, or after it the setup's model function)."""
        if self.stopped is not None and self.order:
            raise self.stopped   # another thread's call diverged: the run stops here too
        self.made += 1
        call = self.made
        if self.forked:
            if has_reply:
                return None
            raise self.stop(NoAnswer(call))
        matched, self._matched = self._matched, None
        placed, self._placed = self._placed, None
        number = (placed[0] if placed else self._position(request)) if self.tolerant else \
            (matched or self.order.match(request)) if self.order else call
        if number is None or number > len(self.calls):
            raise self.stop(Divergence(call, BEYOND, f"{len(self.calls)} model calls",
                                       "one more call"))
        if provider != self.recording["provider"]:
            raise self.stop(Divergence(call, "provider", self.recording["provider"],
                                       provider))
        recorded = self.calls[number - 1]
        self._kept = 0
        if not self._known(number, request, recorded["request"]) and \
                quick_text(request, self.text) != canonical(recorded["request"]):
            old = unordered(normal(recorded["request"]))   # schema sets in one order
            new = unordered(request_body(request, self.text))
            found = None if same(old, new) else first_difference(old, new)
            if found is not None and not self.tolerant:
                raise self.stop(Divergence(call, *found))
            if found is not None:
                self.differs[call] = found[0]
        if not self.tolerant:
            self._remember(number, request.get("messages"))
        if self.order:
            thread = self.order.thread_of(number)
            if thread is not None and thread != self.order.thread_name():
                if not self.tolerant:
                    raise self.stop(Divergence(call, "thread", thread,
                                               self.order.thread_name()))
                self.differs.setdefault(call, "thread")
            self.order.wait_turn(number)
            self.order.end(number)
            self.order.answered()
        self.current = number
        if forked:
            self.forked = True
            return None
        response = recorded["response"]
        cwd = self.recording["cwd"]
        if self.real and self.real != cwd:
            response = swap_text(response, cwd, self.real)
        return response

    def _link(self, number):
        if self._links is None:
            self._links = links([call["request"] for call in self.calls])
            self._users = [0] * (len(self.calls) + 1)   # per call: the calls continuing it
            for link in self._links:
                if link:
                    self._users[link[0]] += 1
        return self._links[number - 1]

    def _known(self, number, request, recorded):
        """Whether ``request`` is the recorded call ``number``'s, looking only at what is
        new since its conversation's previous call (a strict replay): the messages the
        program sent then unchanged (sent.py), the new ones and the other fields equal as
        texts. False when that cannot tell (the whole request is compared then)."""
        messages, old = request.get("messages"), recorded.get("messages")
        if self.tolerant or type(messages) is not list or type(old) is not list or \
                "extra_body" in request:
            return False
        link = self._link(number)
        shot = self._snaps.get(link[0]) if link else None
        if shot is None or not shot.unchanged(messages, link[1]):
            return False
        keep = self._kept = link[1]   # _remember need not look at them again
        return quick_text(dict(request, messages=[]), self.text) == \
            canonical(dict(recorded, messages=[])) and \
            quick_text({"messages": messages[keep:]}, self.text) == \
            canonical({"messages": old[keep:]})

    def _remember(self, number, messages):
        """The snaps of the messages call ``number`` sent (its request matched)."""
        if type(messages) is not list:
            return
        link = self._link(number)
        base = self._snaps.get(link[0]) if link else None
        keep = min(link[1], len(base)) if base is not None else 0
        if self._users[number]:   # a later call continues it: its snaps are kept till then
            if keep and (self._kept == keep or base.unchanged(messages, keep)):
                self._snaps[number] = base.extended(keep, messages[keep:],
                                                    last=self._users[link[0]] == 1)
            else:
                self._snaps[number] = EMPTY.extended(0, messages)
        if link:   # the snaps of a call no call left continues are let go: memory stays linear
            self._users[link[0]] -= 1
            if not self._users[link[0]]:
                self._snaps.pop(link[0], None)

    def stop(self, failure):
        self.stopped = failure
        return failure

    def _position(self, request):
        """The recorded call answering ``request`` in a tolerant replay: the one at its
        place in its conversation (the N-th conversation the run opened, the recording's
        N-th; threads: ``_opening``), or None beyond the recording."""
        if self._threads is None:
            self._threads = threads([normal(call["request"]).get("messages")
                                     for call in self.calls])
        sent = request_body(request, self.text)
        messages = sent.get("messages")
        at = _conversation(self._sent, messages)
        if at is None:
            self._sent.append([messages, 0, self._opening(sent) if self.order
                               else len(self._sent)])
            at = len(self._sent) - 1
        self._sent[at][0] = messages
        self._sent[at][1] += 1
        place, made = self._sent[at][2], self._sent[at][1]
        if place >= len(self._threads) or made > len(self._threads[place]):
            return None
        return self._threads[place][made - 1]

    def _opening(self, sent):
        """The recorded conversation (index) a thread's new conversation is answered by
        (a tolerant replay of threads): of those no conversation of the run took, the one
        opening with the same system prompt and messages, else one the calling thread
        recorded, else the earliest begun; past the last when none is left."""
        taken = {entry[2] for entry in self._sent}
        free = [k for k in range(len(self._threads)) if k not in taken]
        if not free:
            return len(self._threads)
        first = [self.calls[self._threads[k][0] - 1] for k in free]
        key = canonical({"system": sent.get("system"), "messages": sent.get("messages")})
        for k, call in zip(free, first):
            old = call["request"]
            if canonical({"system": old.get("system"), "messages": old.get("messages")}) == key:
                return k
        name = self.order.thread_name()
        for k, call in zip(free, first):
            if call.get("thread") == name:
                return k
        return min(free, key=lambda k: self.calls[self._threads[k][0] - 1].get(
            "started", self._threads[k][0]))

    def summary(self):
        """The trace's ``replay`` key."""
        recording = self.recording
        flying = self.order.note() if self.order and self.stopped is None else None
        made = min(self.made - (self.order.held if self.order else 0), len(self.calls))
        note = None
        if self.stopped is None and not self.forked and made < len(self.calls):
            note = f"the run made {made} of the {len(self.calls)} recorded model calls"
        if flying:
            note = flying if note is None else f"{note}; {flying}"
        return {"provider": recording["provider"], "model": recording["model"],
                "calls": len(self.calls), "made": made if flying else self.made,
                "imported_from": recording.get("imported_from"),
                "made_for": recording["made_for"],
                "divergence": self.stopped.to_dict()
                if isinstance(self.stopped, Divergence) else None,
                "note": note, "tolerant": self.tolerant, "differs": len(self.differs)}


def _extends(old, new):
    """Whether message list ``new`` continues ``old`` (``old`` a prefix of it)."""
    return isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and \
        canonical(new[:len(old)]) == canonical(old)


def _conversation(known, messages):
    """The index in ``known`` ([messages, …] of each conversation) of the latest one that
    ``messages`` continues, or None."""
    for at in range(len(known) - 1, -1, -1):
        if _extends(known[at][0], messages):
            return at
    return None


def threads(requests):
    """The recorded calls (numbers from 1) of each conversation of a recording, in the
    order the conversations opened: a call whose messages continue a conversation's last
    call is that conversation's next."""
    known, found = [], []
    for number, messages in enumerate(requests, 1):
        at = _conversation(known, messages)
        if at is None:
            known.append([messages])
            found.append([])
            at = len(known) - 1
        known[at][0] = messages
        found[at].append(number)
    return found
