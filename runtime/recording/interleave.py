"""The model calls of a recording made by several threads, answered in the recorded
interleaving (docs/recordings.md, "Threads").

A recording whose calls say when they started (``started``: the call's place in the
order the calls began; the list itself is in the order they ended) was made by threads
whose calls overlapped. Its replay answers each call with the recorded call of the
caller's conversation, not the next in the list:

- a thread's call that continues the recorded call it made last is that conversation's
  next; a thread's first call (or one opening a new conversation) is the unused recorded
  call opening a conversation with the same request (else the earliest such, compared as
  usual, so a divergence names the place);
- a recorded call ends in its turn: it waits (virtual time, other threads run meanwhile)
  until every call recorded before it in the list has ended, so the threads' answers
  arrive in the recorded order and each thread acts on its answer before the next one
  arrives;
- a call a thread other than the main one makes past its conversation's recorded calls
  was still in flight when the recording ended: it never ends (the thread waits until the
  run is over) and the replay says so in a note, not as a divergence.

Where a call records its ``thread`` (``loopstep record``), the caller must be that thread.
A tolerant replay keeps the turns and the calls held in flight but finds each call's
recorded one by its place in its conversation (replay.py ``_position``), not ``match``.
Stdlib only.
"""

import inspect

from ..world import schedule
from .normal import canonical, request_body

STARTERS = {"Thread", "Timer", "start_new_thread", "ThreadPoolExecutor"}
IN_FLIGHT = "model call (in flight when the recording ended)"
MAX_POLLS = 1000    # turns a call waits for earlier recorded calls before it gives up


def concurrent(calls):
    """Whether a recording's calls overlapped (any says when it started)."""
    return any("started" in call for call in calls)


def starts_thread(function, depth=3):
    """Whether calling ``function`` may start a thread: its code (or a function or method
    it names — a global, or an attribute of a global —, at most ``depth`` calls deep)
    names ``threading.Thread``, ``Timer``, ``_thread.start_new_thread`` or
    ``ThreadPoolExecutor``. Such a handler runs in a replay even where the recording holds
    its output (recording/tools.py): the thread and what it does are part of the run."""
    seen = set()

    def names_of(code):
        found = set(code.co_names)
        for const in code.co_consts:
            if inspect.iscode(const):
                found |= names_of(const)
        return found

    def visit(value, left):
        value = getattr(value, "__func__", value)
        code = getattr(value, "__code__", None)
        if code is None or code in seen:
            return False
        seen.add(code)
        names = names_of(code)
        if names & STARTERS:
            return True
        if not left:
            return False
        scope = getattr(value, "__globals__", None) or {}
        for name in names:
            if name not in scope:
                continue
            found = scope[name]
            if visit(found, left - 1):
                return True
            if inspect.ismodule(found) or isinstance(found, type):
                continue
            for attribute in names:
                try:
                    member = inspect.getattr_static(found, attribute)
                except AttributeError:
                    continue
                if visit(member, left - 1):
                    return True
        return False

    return visit(function, depth)


def _me():
    scheduler = schedule.current()
    record = scheduler.me() if scheduler is not None else None
    return scheduler, record


class Interleaving:
    """The conversations and turns of one concurrent replay (``replay``: its Replay)."""

    def __init__(self, replay):
        self.replay = replay
        self.used = set()       # recorded call numbers a call was matched with
        self.ended = set()      # recorded call numbers answered
        self.last = {}          # thread name → the recorded call it made last
        self.in_flight = []     # per call begun and not answered (yet): its thread's name
        self.held = 0           # calls made past their conversation's recorded ones

    def match(self, request):
        """The recorded call (number) answering ``request`` from the calling thread; None
        when it is past the recording (the caller decides: in flight or a divergence)."""
        calls = self.replay.calls
        _, record = _me()
        name = record.name if record is not None else "MainThread"
        last = self.last.get(name)
        if last is not None:
            for number in range(1, len(calls) + 1):
                link = self.replay._link(number)
                if number not in self.used and link and link[0] == last:
                    return self._take(name, number)
        opening = [n for n in range(1, len(calls) + 1)
                   if n not in self.used and not self.replay._link(n)]
        if not opening:
            return None
        sent = request_body(request, self.replay.text)
        key = canonical({"system": sent.get("system"), "messages": sent.get("messages")})
        for number in opening:
            old = calls[number - 1]["request"]
            if canonical({"system": old.get("system"), "messages": old.get("messages")}) == key:
                return self._take(name, number)
        if last is not None and record is not None and record.index:
            return None   # its conversation is over: in flight, not a new one
        return self._take(name, min(opening, key=lambda n: calls[n - 1].get("started", n)))

    def _take(self, name, number):
        self.used.add(number)
        self.last[name] = number
        return number

    def thread_of(self, number):
        """The recorded call's thread name, or None."""
        return self.replay.calls[number - 1].get("thread")

    def thread_name(self):
        _, record = _me()
        return record.name if record is not None else "MainThread"

    def main_thread(self):
        _, record = _me()
        return record is None or record.index == 0

    def begin(self):
        """A call begins (before its virtual time): in flight until it is answered."""
        self.in_flight.append(self.thread_name())

    def answered(self):
        name = self.thread_name()
        if name in self.in_flight:
            self.in_flight.remove(name)

    def hold(self):
        """The calling thread's call outlived the recording: it waits until the run ends."""
        scheduler, record = _me()
        self.held += 1
        scheduler.block(record, IN_FLIGHT)   # raises ThreadEnd when the run ends

    def wait_turn(self, number):
        """Until every call listed before ``number`` has ended (or cannot: the run never
        made it), the calling thread sleeps a model call's virtual time at a time."""
        scheduler, record = _me()
        polls = 0
        while any(n not in self.ended for n in range(1, number)):
            if self.replay.stopped is not None:
                raise self.replay.stopped   # a call before it diverged: it never ends
            if scheduler is None or record is None or not scheduler.started or \
                    polls >= MAX_POLLS:
                return False
            scheduler.sleep(schedule.MODEL_SECONDS, "model")
            polls += 1
        return True

    def end(self, number):
        self.ended.add(number)

    def note(self):
        if not self.in_flight:
            return None
        count = len(self.in_flight)
        return (f"{count} model call{'s' if count != 1 else ''} still in flight when the "
                f"recording ended ({', '.join(self.in_flight)})")
