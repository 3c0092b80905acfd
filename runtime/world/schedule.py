"""The run's scheduler: the threads a run starts take turns, one at a time, on a schedule
that is the same in every run.

Each thread of the run (the one that entered the world is thread 0, ``MainThread``; each
``Thread.start()`` adds the next) holds a ``Baton``; exactly one thread holds the turn and
runs. It gives the turn away only at a switch point: an operation that blocks
(``Lock.acquire`` of a held lock, ``Condition.wait`` — so ``Event.wait``, ``Queue.get``/
``put``, ``Semaphore.acquire``, ``Barrier.wait`` — and ``join``), ``time.sleep``, a model
call and a tool's command (``pause``). The default schedule (docs/design.md, "Threads"):

- the runnable threads take turns first come, first served (a thread made runnable goes
  to the back of the line: started, woken by a release, a notify or a finished thread);
- when no thread is runnable, the virtual clock moves on to the earliest deadline (a
  sleep's end, a wait's timeout) and the threads due then wake, in deadline order, then in
  the order they went to wait;
- from the run's first ``Thread.start()`` on, a model call takes ``MODEL_SECONDS`` and a
  command ``TOOL_SECONDS`` of virtual time (a sleep: other threads run meanwhile);
- when no thread can ever run again, the main thread gets a RuntimeError (DEADLOCK).

A run may be given a schedule (choices.py, which keeps each switch point: the step, the
thread chosen, the threads runnable there): at a switch point it names, the thread it
chooses runs next; before a model call it names, the caller waits for a thread to finish.

At the program's end the main thread waits for the threads that are not daemons, as
Python does (``program_ended``); when the run is left, every thread still alive (daemons,
threads blocked for good, threads of a run stopped early) is ended: it gets ``ThreadEnd``
at its switch point and unwinds, untraced. Nothing a run starts outlives it.

``Baton`` is a real lock per OS thread (CPython); in Pyodide a thread is a Python stack
that suspends (stacks.py), and the calling thread is the one holding the turn. Stdlib only.
"""

import _thread
import sys
from collections import deque

from . import aio_tasks, choices, stacks, timeouts

MODEL_SECONDS = 1.0     # virtual time a model call takes once the run has threads
TOOL_SECONDS = 0.1      # virtual time a command (the stand-in subprocess) takes then
wanted = [False]   # a thread could not start here for want of stack switching (stacks.py)
DEADLOCK = ("deadlock: every thread of the run waits for something no thread will do "
            "(the program would wait forever)")

_active = []   # the scheduler of the run entered now (one at a time)


class ThreadEnd(BaseException):
    """Raised in a thread the run's end stops (a daemon, a thread blocked for good)."""


class Baton:
    """The turn of one OS thread: it waits here until another thread gives it."""

    __slots__ = ("_lock",)

    def __init__(self):
        self._lock = _thread.allocate_lock()
        self._lock.acquire()

    def wait(self):
        self._lock.acquire()

    def give(self):
        self._lock.release()


class Record:
    """One thread of the run as the scheduler sees it."""

    __slots__ = ("index", "thread", "baton", "state", "on", "until", "seq", "woken", "killed",
                 "error", "joiners", "ident", "done", "end", "runner")

    def __init__(self, index, thread, baton):
        self.index, self.thread = index, thread
        self.runner = index       # what runs in it: itself, or an asyncio task (aio_tasks.py)
        self.baton = baton
        self.state = "runnable"   # running, runnable, blocked, sleeping, finished
        self.on = None            # what it waits on ("Lock.acquire", "sleep", …)
        self.until = None         # deadline in µs of the clock's loop time, or None
        self.seq = 0
        self.woken = False
        self.killed = False
        self.error = None         # raised in it when it runs again (a deadlock)
        self.joiners = []
        self.ident = None
        self.done = None          # a real lock released when its OS thread is through
        self.end = None           # how it ended: "finished" or "ended with the run"

    @property
    def name(self):
        return self.thread.name


def current():
    """The scheduler of the run the calling thread belongs to, else of the run entered
    last, or None."""
    for scheduler in reversed(_active):
        if scheduler.me() is not None:
            return scheduler
    return _active[-1] if _active else None


def pause(kind):
    """A model call (``kind`` "model") or a command ("tool") at this point of a thread of
    the run: once the run has started a thread, it takes its virtual time."""
    scheduler = current()
    me = scheduler.me() if scheduler is not None else None
    if me is None:
        return
    if kind == "model":   # counted; the schedule may want a thread finished first
        scheduler.plan.model_call(scheduler, me)
    if scheduler.started:
        scheduler.sleep(MODEL_SECONDS if kind == "model" else TOOL_SECONDS, kind)


def command(timeout):
    """Around one command run with ``timeout`` (seconds or None) in the calling thread
    (timeouts.py): its ``sleep`` s spend it."""
    scheduler = current()
    return timeouts.command(scheduler.me() if scheduler is not None else None, timeout)


def idle(seconds):
    """A command's own time (the stand-in shell's ``sleep``): once the run has started a
    thread, ``seconds`` of virtual time in which the other threads run; else none. Past
    the command's timeout (``command``), only what is left of it, then ``TimedOut``."""
    scheduler = current()
    me = scheduler.me() if scheduler is not None else None
    seconds, over = timeouts.spend(me, seconds)
    if scheduler is not None and scheduler.started and me is not None:
        scheduler.sleep(seconds, "sleep (a command)")
    if over:
        raise timeouts.TimedOut


def program_ended():
    """The program's last statement ran (runtime/recorder.py): as Python does at exit,
    the main thread waits for every thread of the run that is not a daemon."""
    scheduler = current()
    if scheduler is not None and scheduler.started:
        for record in list(scheduler.records[1:]):
            if not record.thread.daemon and record.state != "finished":
                record.thread.join()


class Scheduler:
    def __init__(self, clock, plan=None):
        self.clock = clock
        self.plan = plan if plan is not None else choices.Plan(())   # the given schedule
        self.points = []        # [STEP, CHOSEN, [RUNNABLE…]] per switch point (choices.py)
        self.records = []
        self.by_ident = {}
        self.ready = deque()
        self.started = False    # the run started a thread
        self.ending = False
        self.builder = None     # the trace builder: its ``thread`` is the running thread
        self.main = None
        self.current = None     # the Record holding the turn
        self.green = stacks.green()   # threads are suspendable stacks (Pyodide)
        self.spawned = []       # their proxies (stacks.py), destroyed at the end
        self._seq = 0
        self.states = []        # the trace's thread_states: [STEP, THREAD, STATE, ON, UNTIL]
        self._marked = {}       # thread index → its last entry there
        self.tasks = aio_tasks.Tasks(self)   # the run's asyncio tasks, numbered below 0

    # -- who runs ---------------------------------------------------------------

    def me(self):
        """The Record of the calling thread, or None (a thread outside the run)."""
        if self.green:
            return self.current
        return self.by_ident.get(_thread.get_ident())

    def _mark(self, record):
        """``record``'s state from the next step the trace records on (``note``). In a
        task's turn the thread is blocked on its event loop, and the task is as the thread
        is: running, or waiting where the task's code made the thread wait (a lock, a
        ``time.sleep``), then runnable until the thread runs again."""
        waits = record.state in ("blocked", "sleeping")
        state = (record.state, record.on if waits else None,
                 record.until / 1e6 if waits and record.until is not None else None)
        if record.runner != record.index:   # in a task's turn
            self.note(record.runner, *state)
            self.note(record.index, "blocked", aio_tasks.EVENT_LOOP)
            return
        self.note(record.index, *state)

    def note(self, index, state, on=None, until=None):
        """Thread (or task, aio_tasks.py) ``index`` is in ``state`` from the next step the
        trace records on (the header's ``thread_states``, docs/design.md "Threads"): one
        entry per change, the last of a step kept."""
        if self.builder is None:
            return
        n = len(self.builder.cols)
        now = [state, on, until]
        last = self._marked.get(index)
        if last is not None and last[2:] == now:
            return
        if last is not None and last[0] == n:
            last[2:] = now
        else:
            last = self._marked[index] = [n, index, *now]
            self.states.append(last)

    def now(self):
        """The clock's time in µs (no reading: nothing moves on, nothing goes on the tape)."""
        return round(self.clock.loop_time() * 1_000_000)

    def enter(self, main_thread):
        self.main = self.current = Record(0, main_thread, None if self.green else Baton())
        self.main.state = "running"
        self.main.ident = _thread.get_ident()
        self.records.append(self.main)
        self.by_ident[self.main.ident] = self.main
        self._mark(self.main)
        _active.append(self)

    def add(self, thread):
        """A thread started: its Record, runnable at the back of the line."""
        if self.main.baton is None:
            self.main.baton = stacks.Baton()
        record = Record(len(self.records), thread, stacks.Baton() if self.green else Baton())
        self.records.append(record)
        self.started = True
        self.ready.append(record)
        self._mark(record)
        return record

    def _give(self, record):
        record.state = "running"
        self.current = record
        if self.builder is not None:
            self.builder.thread, self.builder.runner = record.index, record.runner
        self._mark(record)
        record.baton.give()

    def _next(self):
        """The next thread to run, the clock moved on to it if all wait; None: none can."""
        if self.ready:
            return self.plan.choose(self)
        timed = [r for r in self.records if r.until is not None
                 and r.state in ("blocked", "sleeping")]
        if not timed:
            return None
        due = min(r.until for r in timed)
        now = self.now()
        if due > now:
            self.clock.sleep((due - now) / 1_000_000)
        for record in sorted((r for r in timed if r.until <= due), key=lambda r: (r.until, r.seq)):
            record.state, record.until, record.woken = "runnable", None, False
            self.ready.append(record)
            self._mark(record)
        return self.plan.choose(self)

    def _deadlock(self):
        """No thread can run again: the main thread gets the error (DEADLOCK)."""
        waiting = ", ".join(f"{r.name}: {r.on}" for r in self.records
                            if r.state in ("blocked", "sleeping"))
        self.main.error = RuntimeError(f"{DEADLOCK}; waiting: {waiting}")
        self.main.state, self.main.until = "runnable", None
        self._mark(self.main)
        return self.main

    def _switch(self, record, following=None):
        """``record`` (the calling thread) gives the turn to the next (``following``, else
        the scheduler's) and waits for its own."""
        following = following or self._next()
        if following is None:
            following = self._deadlock()
        if following is not record:
            self._give(following)
            record.baton.wait()
        record.state = "running"
        self.current = record
        self._mark(record)
        if record.killed:
            if not self.green:   # the OS thread unwinds untraced (stacks share one)
                sys.settrace(None)
            raise ThreadEnd()
        if record.error is not None:
            error, record.error = record.error, None
            raise error

    # -- switch points ------------------------------------------------------------

    def block(self, record, on, timeout=None, state="blocked"):
        """``record`` waits (on ``on``) until ``wake`` or ``timeout`` seconds (None: no
        timeout); True if woken, False if the time ran out."""
        if record.killed:
            raise ThreadEnd()
        self._seq += 1
        record.state, record.on, record.seq, record.woken = state, on, self._seq, False
        record.until = None if timeout is None else self.now() + max(round(timeout * 1e6), 0)
        self._mark(record)
        self._switch(record)
        record.on = None
        return record.woken

    def wake(self, record):
        """``record`` (blocked) becomes runnable, at the back of the line."""
        if record.state in ("blocked", "sleeping"):
            record.state, record.until, record.woken = "runnable", None, True
            self.ready.append(record)
            self._mark(record)

    def sleep(self, seconds, on="sleep"):
        record = self.me()
        if record is None or not self.started:
            self.clock.sleep(seconds)
            return
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if seconds == 0:   # the turn goes to the next runnable thread
            record.state = "runnable"
            self.ready.append(record)
            self._mark(record)
            self._switch(record)
            return
        self.block(record, on, seconds, "sleeping")

    # -- a thread's life ------------------------------------------------------------

    def begin(self, record):
        """In the new OS thread: wait for the first turn; False if the run ended first."""
        record.baton.wait()
        return not record.killed

    def finished(self, record):
        """In the thread that ends: wake its joiners, give the turn on (not waiting)."""
        record.state, record.end = "finished", record.end or "finished"
        self._mark(record)
        for joiner in record.joiners:
            self.wake(joiner)
        record.joiners.clear()
        self.by_ident.pop(record.ident, None)
        if self.ending:
            following = self.main
        else:
            following = self._next() or self._deadlock()
        self._give(following)

    def leave(self):
        """End every thread still alive (the main thread holds the turn); returns their
        Records. Called once the program is over, untraced."""
        self.ending = True
        ended = []
        for record in self.records[1:]:
            if record.state == "finished":
                continue
            record.end = f"ended with the run ({record.on or record.state})"
            record.killed = True
            ended.append(record)
            self._give(record)
            self.main.baton.wait()
            if record.done is not None:
                record.done.acquire()   # its OS thread is through
        self.current = self.main
        for record in self.records:
            close = getattr(record.baton, "close", None)
            if close is not None:
                close()
        while self.spawned:
            self.spawned.pop().destroy()
        if self in _active:
            _active.remove(self)
        return ended

    def changes(self, cols=None):
        """The trace header's ``thread_states``: each change of a thread's or task's state,
        from the step it holds on (``[STEP, THREAD, STATE, ON, UNTIL]``, ``note``), the
        tasks numbered after the threads, as in ``cols``' thread column when given."""
        count = len(self.records)
        if cols is not None:
            self.tasks.renumber(cols, count)
        return [[entry[0], self.tasks.final(entry[1], count), *entry[2:]]
                for entry in self.states if entry[1] < count]

    def summary(self):
        """The trace header's ``threads``: each thread's name, daemon flag and end, then
        each asyncio task's (aio_tasks.py)."""
        return [{"name": r.name, "daemon": bool(r.thread.daemon),
                 "end": r.end or ("finished" if r.index == 0 else r.state)}
                for r in self.records] + self.tasks.summary()
