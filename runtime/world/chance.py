"""The run's randomness: one seed for everything random the program can draw, the same in
CPython and Pyodide.

Entered, it seeds ``random``'s hidden generator with the run's seed (its state is put back
afterwards) and replaces for the run: ``random.seed`` (without an argument it draws from
the run's seed, not from the system), ``random.Random`` (a new generator without a seed
likewise), ``random._urandom`` (so ``random.SystemRandom`` and ``secrets`` draw from the
run's entropy), ``os.urandom``, ``uuid.uuid1``/``uuid4`` and ``tempfile``'s name sequence.
The run's entropy is a generator of its own, seeded from the same seed (never the same
numbers as ``random``'s).

The seed is the lesson's (``[world] seed``, else 0); with ``real = ["random"]`` a fresh
one from the system for every run; a replay uses the recording's. Either way it is kept on
the run's tape (tape.py), so every value drawn replays. Threads outside the run's world
(threads.py) get the real ``os.urandom`` and ids (``random``'s generator is one for all).
"""

import os
import random
import uuid

from . import real

_UUID_EPOCH = 0x01b21dd213814000   # 100-ns intervals from 1582-10-15 to 1970-01-01
_REAL_UUID1, _REAL_UUID4 = uuid.uuid1, uuid.uuid4


class Chance:
    def __init__(self, spec, tape, threads):
        self.spec, self.tape, self.threads = spec, tape, threads
        self.entropy = None
        self._saved = []
        self._state = None
        self._last_uuid_time = None

    def _seed(self):
        if self.tape.replayed_seed is not None:
            return self.tape.replayed_seed
        if self.spec.is_real("random"):
            return int.from_bytes(real.urandom(6), "big")   # exact in JSON readers of any kind
        return self.spec.seed

    def urandom(self, size):
        if not self.threads.mine():   # a thread outside the run's world
            return real.urandom(size)
        if size < 0:
            raise ValueError("negative argument not allowed")
        return self.entropy.randbytes(size)

    def uuid4(self):
        if not self.threads.mine():
            return _REAL_UUID4()
        drawn = uuid.UUID(bytes=self.urandom(16), version=4)
        given = self.tape.drawn_id(drawn.hex)
        return drawn if given == drawn.hex else uuid.UUID(hex=given)

    def uuid1(self, node=None, clock_seq=None):
        if not self.threads.mine():
            return _REAL_UUID1(node, clock_seq)
        import time
        stamp = time.time_ns() // 100 + _UUID_EPOCH   # the run's clock
        if self._last_uuid_time is not None and stamp <= self._last_uuid_time:
            stamp = self._last_uuid_time + 1
        self._last_uuid_time = stamp
        if clock_seq is None:
            clock_seq = self.entropy.getrandbits(14)
        if node is None:
            node = self.node
        return uuid.UUID(fields=(stamp & 0xffffffff, (stamp >> 32) & 0xffff,
                                 (stamp >> 48) & 0x0fff, (clock_seq >> 8) & 0x3f,
                                 clock_seq & 0xff, node), version=1)

    def _plant(self, module, name, value):
        self._saved.append((module, name, getattr(module, name)))
        setattr(module, name, value)

    def enter(self):
        seed = self._seed()
        self.tape.seed = seed
        self.entropy = real.Random(f"loopstep-world-{seed}")
        self.node = self.entropy.getrandbits(48) | (1 << 40)   # a multicast (not a real) address
        self._state = random.getstate()
        random.seed(seed)
        entropy = self.entropy
        hidden = random.seed

        def seed_(a=None, version=2):
            hidden(entropy.getrandbits(64) if a is None else a, version)

        class Random(real.Random):
            def seed(self, a=None, version=2):
                super().seed(entropy.getrandbits(64) if a is None else a, version)

        Random.__module__, Random.__qualname__ = "random", "Random"
        seed_.__name__ = "seed"
        self._plant(random, "seed", seed_)
        self._plant(random, "Random", Random)
        self._plant(random, "_urandom", self.urandom)
        self._plant(os, "urandom", self.urandom)
        self._plant(uuid, "uuid4", self.uuid4)
        self._plant(uuid, "uuid1", self.uuid1)
        import tempfile
        names = tempfile._RandomNameSequence()
        names._rng, names._rng_pid = real.Random(entropy.getrandbits(64)), os.getpid()
        self._plant(tempfile, "_name_sequence", names)

    def leave(self):
        while self._saved:
            module, name, value = self._saved.pop()
            setattr(module, name, value)
        if self._state is not None:
            random.setstate(self._state)
            self._state = None
