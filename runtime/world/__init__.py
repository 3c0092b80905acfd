"""The world a run lives in, the same in CPython and in Pyodide: a virtual clock,
seeded randomness and ids, the run's folder and the string-hash seed.

``World(spec, tape)`` is one run's world: entered (by the recorder, around the run), it
enters each of its parts in order; left (however the program ended), it leaves them in
reverse order, putting back every module attribute a part replaced. A part is an
object with ``enter()`` and ``leave()``; to add one, append it in ``World.__init__``.
Stdlib only. See docs/authoring.md, "The run's world", and docs/design.md.
"""

from . import aio, chance, clock, threading_standin, threads
from .spec import WorldSpec, world_from_toml
from .tape import Tape

__all__ = ["World", "WorldSpec", "Tape", "world_from_toml"]


class World:
    """The world of one run: its parts, entered and left together."""

    def __init__(self, spec=None, tape=None, plan=None):
        self.spec = spec if spec is not None else WorldSpec()
        self.tape = tape if tape is not None else Tape()
        self.threads = threads.Threads()
        self.clock = clock.Clock(self.spec, self.tape, self.threads)
        self.chance = chance.Chance(self.spec, self.tape, self.threads)
        self.parts = [self.threads, self.clock, self.chance]
        self.parts.append(aio.Part(self.clock))   # the run's asyncio loop, on the clock
        # threads take turns on it, following ``plan`` (a schedule: choices.Plan)
        self.schedule = threading_standin.Part(self.clock, plan)
        self.parts.append(self.schedule)
        self._entered = []

    def __enter__(self):
        try:
            for part in self.parts:
                part.enter()
                self._entered.append(part)
        except BaseException:
            self._leave()
            raise
        return self

    def __exit__(self, *exc):
        self._leave()
        return False

    def _leave(self):
        error = None
        while self._entered:
            part = self._entered.pop()
            try:
                part.leave()
            except BaseException as failure:   # every part is left, the first error kept
                error = error or failure
        if error is not None:
            raise error
