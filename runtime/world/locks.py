"""The run's locks: ``Lock``, ``RLock`` and ``Condition`` that block by giving the turn to
the scheduler (schedule.py), never by blocking the OS thread.

Made in a thread of the run, ``threading.Lock()`` (``RLock``, ``Condition``) is one of
these; made anywhere else, the real one. Everything ``threading`` and ``queue`` build on
a condition (``Event``, ``Semaphore``, ``BoundedSemaphore``, ``Barrier``, ``Queue``,
``queue.SimpleQueue`` — the Python one) is then the standard library's own code on these.
A released lock goes straight to the thread that waited first; a notified waiter goes to
the back of the scheduler's line. Stdlib only.
"""

import _thread
import os
import sys
import threading
from collections import deque

from . import schedule

_REAL = {"Lock": _thread.allocate_lock, "RLock": threading.RLock,
         "Condition": threading.Condition}
_HERE = os.path.dirname(os.path.abspath(__file__))
_LIBRARY = ("threading.py", "queue.py")


def _mine():
    """(scheduler, Record of the calling thread), or (scheduler or None, None)."""
    scheduler = schedule.current()
    return scheduler, (scheduler.me() if scheduler is not None else None)


def in_run():
    return _mine()[1] is not None


def what(default):
    """What a blocked thread waits on, as its program calls it: ``Event.wait``,
    ``Queue.get``, ``Semaphore.acquire`` … (the first caller of the standard library's
    threading or queue module above this one), else ``default``."""
    frame = sys._getframe(2)
    found = None
    for _ in range(6):
        if frame is None:
            break
        path = frame.f_code.co_filename
        if os.path.basename(path) in _LIBRARY:
            owner = frame.f_locals.get("self")
            name = frame.f_code.co_name.lstrip("_")
            found = f"{type(owner).__name__}.{name}" if owner is not None else name
        elif os.path.dirname(os.path.abspath(path)) != _HERE:
            break
        frame = frame.f_back
    return found or default


def _wait(waiters, on, timeout):
    """The calling thread waits in ``waiters`` until woken (True) or timed out (False)."""
    scheduler, me = _mine()
    if me is None:
        raise RuntimeError("a lock of the run would block outside the run's threads")
    waiters.append(me)
    woke = False
    try:
        woke = scheduler.block(me, on, timeout)
    finally:
        if not woke and me in waiters:
            waiters.remove(me)
    return woke


def _timeout(blocking, timeout):
    if not blocking and timeout != -1:
        raise ValueError("can't specify a timeout for a non-blocking call")
    if timeout < 0 and timeout != -1:
        raise ValueError("timeout value must be a non-negative number")
    return None if timeout == -1 else timeout


class Lock:
    """``threading.Lock`` of the run."""

    def __new__(cls):
        if cls is Lock and not in_run():
            return _REAL["Lock"]()
        return object.__new__(cls)

    def __init__(self):
        self._held = False
        self._owner = None
        self._count = 0
        self._waiters = deque()

    def _key(self):
        return _mine()[1] or _thread.get_ident()

    def acquire(self, blocking=True, timeout=-1):
        timeout = _timeout(blocking, timeout)
        if not self._held:
            self._held, self._owner, self._count = True, self._key(), 1
            return True
        if not blocking:
            return False
        return _wait(self._waiters, what(f"{type(self).__name__}.acquire"), timeout)

    def release(self):
        if not self._held:
            raise RuntimeError("release unlocked lock")
        self._hand_on()

    def _hand_on(self):
        """To the first thread still waiting, else free."""
        scheduler = schedule.current()
        while self._waiters:
            waiter = self._waiters.popleft()
            if scheduler is not None and waiter.state == "blocked":
                self._owner, self._count = waiter, 1
                scheduler.wake(waiter)
                return
        self._held, self._owner, self._count = False, None, 0

    def locked(self):
        return self._held

    def _at_fork_reinit(self):
        self._held, self._owner, self._count = False, None, 0
        self._waiters.clear()

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()

    def __repr__(self):
        return f"<{'locked' if self._held else 'unlocked'} {type(self).__name__} object>"

    acquire_lock, release_lock, locked_lock = acquire, release, locked


class RLock(Lock):
    """``threading.RLock`` of the run."""

    def __new__(cls):
        if cls is RLock and not in_run():
            return _REAL["RLock"]()
        return object.__new__(cls)

    def acquire(self, blocking=True, timeout=-1):
        if self._held and self._owner == self._key():
            self._count += 1
            return True
        return super().acquire(blocking, timeout)

    def release(self):
        if not self._held or self._owner != self._key():
            raise RuntimeError("cannot release un-acquired lock")
        self._count -= 1
        if not self._count:
            self._hand_on()

    def _is_owned(self):
        return self._held and self._owner == self._key()

    def _release_save(self):
        saved = self._count
        self._count = 1
        self.release()
        return saved

    def _acquire_restore(self, saved):
        Lock.acquire(self)
        self._count = saved

    __enter__ = acquire


class Condition:
    """``threading.Condition`` of the run."""

    def __new__(cls, lock=None):
        if cls is Condition and not in_run():
            return _REAL["Condition"](lock)
        return object.__new__(cls)

    def __init__(self, lock=None):
        if lock is None:
            lock = RLock()
        self._lock = lock
        self.acquire, self.release = lock.acquire, lock.release
        self._waiters = deque()

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *exc):
        return self._lock.__exit__(*exc)

    def _is_owned(self):
        owned = getattr(self._lock, "_is_owned", None)
        if owned is not None:
            return owned()
        if self._lock.acquire(False):
            self._lock.release()
            return False
        return True

    def wait(self, timeout=None):
        if not self._is_owned():
            raise RuntimeError("cannot wait on un-acquired lock")
        on = what("Condition.wait")
        save = getattr(self._lock, "_release_save", None)
        saved = save() if save is not None else self._lock.release()
        try:
            return _wait(self._waiters, on, timeout)
        finally:
            restore = getattr(self._lock, "_acquire_restore", None)
            if restore is not None:
                restore(saved)
            else:
                self._lock.acquire()

    def wait_for(self, predicate, timeout=None):
        scheduler = schedule.current()
        end = None
        wait = timeout
        result = predicate()
        while not result:
            if wait is not None:
                if end is None:
                    end = scheduler.now() + round(wait * 1e6)
                else:
                    wait = (end - scheduler.now()) / 1e6
                    if wait <= 0:
                        break
            self.wait(wait)
            result = predicate()
        return result

    def notify(self, n=1):
        if not self._is_owned():
            raise RuntimeError("cannot notify on un-acquired lock")
        scheduler = schedule.current()
        while self._waiters and n > 0:
            waiter = self._waiters.popleft()
            if scheduler is not None and waiter.state == "blocked":
                scheduler.wake(waiter)
                n -= 1

    def notify_all(self):
        self.notify(len(self._waiters))

    notifyAll = notify_all

    def __repr__(self):
        return f"<Condition({self._lock}, {len(self._waiters)})>"
