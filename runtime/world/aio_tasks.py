"""The run's asyncio tasks as the trace shows them: beside its threads, each task runs
steps, and has a state at each step (docs/design.md, "Coroutines and tasks").

The run's loop (aio.py) hands over each callback of a task it schedules (the task's
step and its wake-up: ``call_soon``) and runs it through ``Tasks.run``: while it runs,
the trace's running thread (``TraceBuilder.runner``) is the task, and the thread whose
loop runs it is ``blocked`` on ``event loop`` until the loop returns. Nothing is asked
per step: a task's state is noted where it changes, in the scheduler's
``thread_states`` (schedule.py ``note``), as a thread's is:

- ``runnable`` when a callback of it is scheduled (made, woken, or its ``sleep(0)``);
- ``running`` while its callback runs;
- after it: ``finished`` (done), ``runnable`` (it yielded to the loop), ``sleeping`` in
  ``asyncio.sleep`` (UNTIL: the loop's time its timer is due), else ``blocked`` on what
  it awaits: another task (its name), ``gather``, or the first asyncio coroutine it
  awaits (``Event.wait``, ``Queue.get``, ``Lock.acquire``, ``TaskGroup.__aexit__``, …:
  what the program called, the same in every Python; ``Future``: a bare future).

Tasks of the loop's own (``asyncio.run`` closing: ``shutdown_asyncgens`` …) are not
the program's: not listed, their turns untouched.

While the run lasts a task is numbered ``-(k + 1)``, k counting tasks from 0 in the
order the loop first schedules them; ``renumber`` makes it ``len(threads) + k`` at the
end, the run's tasks listed after its threads (``summary``). Names are read at the end
(a name the program gives after making the task counts). Stdlib only.
"""

import sys

EVENT_LOOP = "event loop"   # what a thread waits on while its loop runs tasks


def _task_of(callback):
    """The task a loop callback belongs to (its step or wake-up), or None."""
    owner = getattr(callback, "__self__", None)
    asyncio = sys.modules.get("asyncio")
    return owner if asyncio is not None and isinstance(owner, asyncio.Task) else None


def _asyncio_frame(frame):
    """Whether ``frame`` runs code of the asyncio package or of the run's loop (aio.py)."""
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    return isinstance(name, str) and (name == "asyncio" or name.startswith("asyncio.")
                                      or name.endswith("world.aio"))


class Tasks:
    """The tasks of one run, for its scheduler (``schedule.Scheduler.tasks``)."""

    def __init__(self, scheduler):
        self.scheduler = scheduler
        self.index = {}     # task → k
        self.order = []     # [task, index of the thread whose loop runs it]
        self.looping = set()   # thread indices noted blocked on their event loop

    def wrap(self, callback):
        """``callback`` as the loop should run it: through ``run`` when a task's."""
        task = _task_of(callback)
        if task is None or self.scheduler.builder is None:
            return callback
        k = self._number(task)
        if k is None:
            return callback
        self.scheduler.note(k, "runnable")

        def run(*args):
            return self.run(task, k, callback, args)
        return run

    def _number(self, task):
        """Task ``task``'s number (below 0), numbering it when new; None: the loop's own."""
        if task in self.index:
            return self.index[task]
        if _asyncio_frame(getattr(task.get_coro(), "cr_frame", None)):
            self.index[task] = None
            return None
        me = self.scheduler.me()
        k = self.index[task] = -(len(self.order) + 1)
        self.order.append([task, me.index if me is not None else 0])
        return k

    def run(self, task, k, callback, args):
        """Run ``callback`` of ``task`` (numbered ``k``) as that task's turn."""
        scheduler = self.scheduler
        builder = scheduler.builder
        me = scheduler.me()
        if me is None or builder is None:
            return callback(*args)
        self.looping.add(me.index)
        scheduler.note(me.index, "blocked", EVENT_LOOP)
        scheduler.note(k, "running")
        me.runner = builder.runner = k
        try:
            return callback(*args)
        finally:
            me.runner = me.index
            if scheduler.current is me:
                builder.runner = me.index
            scheduler.note(k, *_after(task))

    def loop_stopped(self):
        """The calling thread's loop returned: the thread runs again."""
        me = self.scheduler.me()
        if me is not None and me.index in self.looping:
            self.looping.discard(me.index)
            self.scheduler.note(me.index, "running")

    def final(self, k, threads):
        """Index ``k`` as the trace keeps it: a task's after the ``threads`` threads."""
        return k if k >= 0 else threads - k - 1

    def renumber(self, cols, threads):
        """The trace's ``thread`` column with the tasks' final indices."""
        for step, k in cols.thread.items():
            if k < 0:
                cols.thread[step] = self.final(k, threads)

    def summary(self):
        """The header's ``threads`` entries of the tasks: name, the thread whose loop ran
        it, how it ended."""
        return [{"name": task.get_name(), "task": True, "thread": thread,
                 "end": ("cancelled" if task.cancelled() else "finished") if task.done()
                 else "not finished"}
                for task, thread in self.order]


def _after(task):
    """``(state, on, until)`` of ``task`` after one of its turns."""
    if task.done():
        return ("finished",)
    waiter = getattr(task, "_fut_waiter", None)
    if waiter is None:
        return ("runnable",)
    asyncio = sys.modules["asyncio"]
    if isinstance(waiter, asyncio.Task):
        return ("blocked", waiter.get_name())
    if isinstance(waiter, getattr(asyncio.tasks, "_GatheringFuture", ())):
        return ("blocked", "gather")
    waiting = _first_asyncio(task.get_coro())
    if waiting is not None and waiting.co_name == "sleep":
        return ("sleeping", "sleep", _due(waiter))
    return ("blocked", waiting.co_qualname if waiting is not None else "Future")


def _first_asyncio(coro):
    """The code of the first coroutine of asyncio (or of aio.py) ``coro`` awaits in."""
    for _ in range(1000):
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            return None
        if _asyncio_frame(frame):
            return frame.f_code
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return None


def _due(future):
    """When the loop's timer that resolves ``future`` (an ``asyncio.sleep``) is due, in
    the loop's time rounded to the clock's µs; None: no such timer."""
    loop = future.get_loop()
    for handle in getattr(loop, "_scheduled", ()):
        if not handle.cancelled() and future in (getattr(handle, "_args", None) or ()):
            return round(handle.when() * 1_000_000) / 1_000_000
    return None
