"""The run's ``threading``: threads that take turns on the run's scheduler (schedule.py).

``Part(clock)`` is the scheduler as a part of the run's world (``World``, __init__.py).
Entered, it replaces for the threads of the run, as attributes of the real modules:
``threading.Thread``, ``Timer``, ``Lock``, ``RLock``, ``Condition`` (locks.py),
``current_thread``, ``main_thread``, ``enumerate``, ``active_count``, the monotonic time
``threading`` and ``queue`` time their waits with (the clock's, no reading),
``queue.SimpleQueue`` (the Python one, on the run's locks), ``time.sleep`` (a switch
point) and the name counter of ``concurrent.futures.ThreadPoolExecutor`` (from 0 per
run); left, it ends every thread still alive and puts everything back.

A thread of the run is a real OS thread in CPython that runs only while it holds the
turn. Its name counts from ``Thread-1`` per run, ``ident`` is the OS's; its ``repr`` has no
ident (it would differ from run to run). Where the interpreter cannot start a thread
(Pyodide without stack switching) ``start()`` raises ``ThreadsUnavailable``, which a
program's ``except Exception`` does not catch, so the run says so. Stdlib only.
"""

import _thread
import _threading_local
import functools
import itertools
import os
import sys
import threading
import traceback

from . import locks, schedule, stacks

UNAVAILABLE = ("this Python cannot start a thread: threads need WebAssembly stack "
               "switching (JSPI), which this page's Python cannot use here "
               "(`loopstep trace` runs them in CPython)")
_HERE = os.path.dirname(os.path.abspath(__file__))
_SKIP = (os.path.join(_HERE, ""), "threading.py")
_state = {"names": None, "serial": None}


class ThreadsUnavailable(BaseException):
    """This interpreter cannot start the thread (UNAVAILABLE)."""


ThreadsUnavailable.__module__ = "threading"   # as a traceback names it


def _scheduler_me():
    scheduler = schedule.current()
    return scheduler, (scheduler.me() if scheduler is not None else None)


class Thread:
    """``threading.Thread`` of the run."""

    def __new__(cls, *args, **kwargs):
        if cls is Thread and not locks.in_run():
            return _REAL["Thread"](*args, **kwargs)
        return object.__new__(cls)

    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None, *,
                 daemon=None):
        assert group is None, "group argument must be None for now"
        serial = _state["serial"]
        self._serial = next(serial) if serial is not None else id(self)
        if name is None:
            names = _state["names"]
            name = f"Thread-{next(names) if names is not None else self._serial}"
            if getattr(target, "__name__", None):
                name += f" ({target.__name__})"
        self._name = str(name)
        self._target, self._args, self._kwargs = target, args, kwargs or {}
        self._daemonic = current_thread().daemon if daemon is None else bool(daemon)
        self._record = None
        self._ident = None
        self._loopstep_world = True   # world/threads.py: its readings are the run's

    def __hash__(self):   # sets of threads iterate in one order every run
        return self._serial

    # -- life ---------------------------------------------------------------------
    def start(self):
        scheduler, me = _scheduler_me()
        if me is None:
            raise RuntimeError("a thread of the run can only be started by the run")
        if self._record is not None:
            raise RuntimeError("threads can only be started once")
        record = scheduler.add(self)
        if scheduler.green:
            self._start_stack(scheduler, record)
            return
        record.done = _thread.allocate_lock()
        record.done.acquire()
        try:
            ident = _thread.start_new_thread(self._bootstrap, (scheduler, record,
                                                               sys.gettrace()))
        except RuntimeError as error:   # Pyodide: "can't start new thread"
            scheduler.records.remove(record)
            scheduler.ready.remove(record)
            raise ThreadsUnavailable(UNAVAILABLE) from error
        record.ident = self._ident = ident
        scheduler.by_ident[ident] = record
        threading._active[ident] = self
        self._record = record

    def _start_stack(self, scheduler, record):
        """Where there are no OS threads: the thread as a suspendable stack (stacks.py)."""
        if not stacks.available():
            scheduler.records.remove(record)
            scheduler.ready.remove(record)
            schedule.wanted[0] = True
            raise ThreadsUnavailable(UNAVAILABLE)
        record.ident = self._ident = record.index   # one OS thread: no ident of its own
        self._record = record
        scheduler.spawned.append(stacks.spawn(functools.partial(
            self._bootstrap, scheduler, record, None)))

    def _bootstrap(self, scheduler, record, trace):
        try:
            if scheduler.begin(record):
                if trace is not None:
                    sys.settrace(trace)
                try:
                    self.run()
                except (SystemExit, schedule.ThreadEnd):
                    pass
                except BaseException as error:
                    builder = scheduler.builder
                    if not getattr(builder, "stopped", False):
                        _report(self, error)
                finally:
                    if not scheduler.green:
                        sys.settrace(None)
        finally:
            if not scheduler.green:
                threading._active.pop(record.ident, None)
            scheduler.finished(record)
            if record.done is not None:
                record.done.release()

    def run(self):
        try:
            if self._target is not None:
                self._target(*self._args, **self._kwargs)
        finally:
            del self._target, self._args, self._kwargs

    def join(self, timeout=None):
        record = self._record
        if record is None:
            raise RuntimeError("cannot join thread before it is started")
        scheduler, me = _scheduler_me()
        if me is record:
            raise RuntimeError("cannot join current thread")
        if record.state == "finished" or me is None:
            return
        if timeout is not None and timeout < 0:
            timeout = 0
        record.joiners.append(me)
        woke = False
        try:
            woke = scheduler.block(me, f"join({self._name})", timeout)
        finally:
            if not woke and me in record.joiners:
                record.joiners.remove(me)

    def is_alive(self):
        return self._record is not None and self._record.state != "finished"

    # -- attributes -----------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = str(value)

    @property
    def ident(self):
        return self._ident

    native_id = ident

    @property
    def daemon(self):
        return self._daemonic

    @daemon.setter
    def daemon(self, value):
        if self._record is not None:
            raise RuntimeError("cannot set daemon status of active thread")
        self._daemonic = bool(value)

    def getName(self):
        return self.name

    def setName(self, name):
        self.name = name

    def isDaemon(self):
        return self.daemon

    def setDaemon(self, daemonic):
        self.daemon = daemonic

    def __repr__(self):
        record = self._record
        status = "initial" if record is None else (
            "stopped" if record.state == "finished" else "started")
        return f"<{type(self).__name__}({self._name}, {status}{' daemon' if self._daemonic else ''})>"


class _MainThread(Thread):
    """The run's main thread as its program sees it."""

    def __init__(self):
        super().__init__(name="MainThread", daemon=False)
        self._ident = _thread.get_ident()

    def is_alive(self):
        return True

    def __repr__(self):
        return f"<{type(self).__name__}({self._name}, started)>"


class Timer(Thread):
    """``threading.Timer`` of the run: a thread that waits ``interval`` then calls."""

    def __init__(self, interval, function, args=None, kwargs=None):
        super().__init__()
        self.interval, self.function = interval, function
        self.args, self.kwargs = args if args is not None else [], kwargs or {}
        self.finished = threading.Event()

    def cancel(self):
        self.finished.set()

    def run(self):
        self.finished.wait(self.interval)
        if not self.finished.is_set():
            self.function(*self.args, **self.kwargs)
        self.finished.set()


class _local(_threading_local.local):
    """``threading.local`` where the run's threads share one OS thread (stacks.py)."""


_local.__module__ = "_thread"


def _report(thread, error):
    """What Python prints when an exception ends a thread, without this module's frames."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not f.filename.startswith(_SKIP[0]) and not f.filename.endswith(_SKIP[1])]
    text = [f"Exception in thread {thread.name}:\n", "Traceback (most recent call last):\n"]
    text += traceback.StackSummary.from_list(frames).format()
    text += traceback.format_exception_only(type(error), error)
    sys.stderr.write("".join(text))


def current_thread():
    scheduler, me = _scheduler_me()
    return me.thread if me is not None else _REAL["current_thread"]()


def main_thread():
    scheduler, me = _scheduler_me()
    return scheduler.main.thread if me is not None else _REAL["main_thread"]()


def enumerate():
    scheduler, me = _scheduler_me()
    if me is None:
        return _REAL["enumerate"]()
    return [r.thread for r in scheduler.records if r.state != "finished"]


def active_count():
    return len(enumerate())


_REAL = {"Thread": threading.Thread, "current_thread": threading.current_thread,
         "main_thread": threading.main_thread, "enumerate": threading.enumerate}


class Part:
    """The scheduler as a part of the run's world, on the world's ``clock``."""

    def __init__(self, clock, plan=None):
        self.scheduler = schedule.Scheduler(clock, plan)   # plan: a schedule (choices.py)
        self._saved = []

    def attach(self, builder):
        """The trace builder whose ``thread`` follows the running thread."""
        self.scheduler.builder = builder

    def summary(self):
        """The trace header's ``threads`` (None: the run started no thread nor task)."""
        started = self.scheduler.started or self.scheduler.tasks.order
        return self.scheduler.summary() if started else None

    def _set(self, owner, name, value):
        self._saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def enter(self):
        import queue
        import time
        if sys.platform != "emscripten":   # where threads start: executors name from 0
            from concurrent.futures import thread as pool
            self._set(pool.ThreadPoolExecutor, "_counter", itertools.count().__next__)
        scheduler = self.scheduler
        _state["names"], _state["serial"] = itertools.count(1), itertools.count(1)
        scheduler.enter(None)
        scheduler.main.thread = _MainThread()
        real_sleep, real_time = time.sleep, threading._time

        def sleep(seconds):
            if scheduler.me() is None:
                return real_sleep(seconds)
            scheduler.sleep(seconds)

        def monotonic():
            return scheduler.now() / 1e6 if scheduler.me() is not None else real_time()

        for name, value in (("Thread", Thread), ("Timer", Timer), ("Lock", locks.Lock),
                            ("RLock", locks.RLock), ("Condition", locks.Condition),
                            ("current_thread", current_thread),
                            ("currentThread", current_thread), ("main_thread", main_thread),
                            ("enumerate", enumerate), ("active_count", active_count),
                            ("activeCount", active_count), ("_time", monotonic)):
            self._set(threading, name, value)
        self._set(queue, "SimpleQueue", queue._PySimpleQueue)
        self._set(queue, "time", monotonic)
        self._set(time, "sleep", sleep)
        if scheduler.green:   # one OS thread: the Python form of local, by the run's thread
            self._set(threading, "local", _local)
            self._set(_threading_local, "current_thread", current_thread)

    def leave(self):
        try:
            ended = self.scheduler.leave()
            for record in ended:
                if not record.thread.daemon:
                    sys.stdout.write(f"[the run ended while thread {record.name} was still "
                                     f"{_waiting(record)}: it was stopped]\n")
        finally:
            while self._saved:
                owner, name, value = self._saved.pop()
                setattr(owner, name, value)
            _state["names"] = _state["serial"] = None


def _waiting(record):
    on = record.end[len("ended with the run ("):-1]
    return "runnable" if on == "runnable" else f"waiting ({on})"
