"""Model calls still waiting for their answer when the run ended (docs/design.md, "Agent
calls", "In flight").

A thread other than the main one may have begun a model call that never got an answer:
the replay of a recording that ended while the call was in flight holds it until the
run is over (runtime/recording/interleave.py), or the run ended while the call took its
virtual time (world/schedule.py). Such a call is none of the trace's ``calls`` — each of
those got its answer, failed, or is the main thread's call a stopped run ended in — but
one of ``in_flight``, so the calls count and are numbered (the conversation panel, the
timeline's marks, ``changed``, a fork's ``model:K``, event breakpoints) as the recording
answered them:

    "in_flight": [{"step": STEP, "conversation": C, "depth": D, "thread": NAME,
                   "messages": [ID, …]}, …]      # only when there are some

``step``: where the call began (the step recorded last then); ``messages``: the pool
indices of what it sent. A call the replay holds leaves ``calls`` at once, so a call
begun after it has its number in the trace already while the run goes on (a fork's
``model:K`` counts so); a call found waiting only at the end leaves them then (a fork of
a call begun after such a one counts it still).
"""

import sys


class InFlight:
    """The model calls of one run's capture (runtime/agent/capture.py) that were begun
    and never answered."""

    def __init__(self, capture):
        self.capture = capture
        self.begun = {}       # id(call record) → (its place in the start order, thread index)
        self.moved = []       # (call record, start place, thread index), in the order moved

    def began(self, record, place, thread):
        """Call ``record`` began, ``place``-th of the run (from 0), in thread ``thread``."""
        self.begun[id(record)] = (place, thread)

    def hold(self):
        """The calling thread's model call will never be answered (a replay holds it):
        it leaves the calls now."""
        pending = self.capture.pending
        frame = sys._getframe(1)
        while frame is not None:
            record = pending.get(frame)
            if isinstance(record, dict) and "conversation" in record:
                self._move(record)
                return
            frame = frame.f_back

    def _move(self, record):
        calls = self.capture.calls
        for at in range(len(calls) - 1, -1, -1):
            if calls[at] is record:
                del calls[at]
                self.moved.append((record, *self.begun.get(id(record), (None, 0))))
                return

    def ended(self):
        """At the end of the run: the calls of threads other than the main one still
        waiting for their answer leave the calls too."""
        for record in list(self.capture.pending.values()):
            if isinstance(record, dict) and "conversation" in record and \
                    record["ret"] is None and record["error"] is None and \
                    self.begun.get(id(record), (None, 0))[1] != 0:
                self._move(record)

    def changed(self, changed):
        """``changed`` (one per call begun) without the entries of the calls moved."""
        gone = {place for _, place, _ in self.moved}
        return [c for place, c in enumerate(changed) if place not in gone]

    def result(self, names):
        """The agent part's ``in_flight`` (``names``: the run's thread names by index),
        in the order the calls began; [] when none."""
        conversations = self.capture.conversations
        found = []
        for record, _place, thread in sorted(self.moved, key=lambda m: (m[1] is None, m[1])):
            found.append({"step": record["step"], "conversation": record["conversation"],
                          "depth": conversations[record["conversation"]][0],
                          "thread": names[thread] if thread < len(names) else str(thread),
                          "messages": record["messages"]})
        return found
