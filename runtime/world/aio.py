"""The run's event loop: ``asyncio`` run by a loop of plain Python that never waits.

``asyncio.run``, ``asyncio.Runner``, ``asyncio.new_event_loop`` and the event loop
policy's factory make a ``Loop`` while a run is entered (``enter()`` … ``leave()``, which
puts back what was there: Pyodide's WebLoop, the policy, ``asyncio.run``). A ``Loop``
is ``asyncio.BaseEventLoop`` with a selector that has nothing to select: when no task
is ready, its ``select(timeout)`` calls ``time.sleep(timeout)`` (the run's clock: a
virtual one advances at once) and returns. So the same program steps the same in
CPython and in the page's Pyodide, whose own loop needs WebAssembly stack switching to
run ``asyncio.run``. ``time.sleep`` is looked up at each call; the loop's time is the
world's clock's ``loop_time()`` (clock.py: the clock without a reading, which would move
a virtual clock on and go on the run's tape as often as this Python's asyncio looks),
else ``time.monotonic()``. Its resolution is 1 µs, the virtual clock's, everywhere.
``Part(clock)`` is the loop as a part of the run's world (``World``, __init__.py).

Deterministic besides: tasks are named ``Task-1``, ``Task-2`` … counted per run (as a
fresh interpreter counts them), each task's turn (its step, its wake-up) goes through
the run's scheduler, whose trace shows the task running it (aio_tasks.py), ``run_in_executor`` (``asyncio.to_thread``) runs the
function at once in the loop's thread, and a loop with no task ready and nothing
scheduled stops the program with a RuntimeError instead of waiting forever. Sockets,
pipes and subprocesses have no transport here (NotImplementedError). On Python 3.11,
``asyncio.wait_for`` is 3.12's (the awaitable runs in the caller's task, not in a task
of its own), so tasks and stacks are counted as in the page's Python.
"""

import asyncio
import sys
from asyncio import base_events, events, exceptions, runners, tasks, timeouts

from . import schedule

DEADLOCK = ("the event loop has nothing left to run: every task waits for something no "
            "task will do (the program would wait forever)")

_state = {"count": 0, "saved": None, "depth": 0, "clock": None}


class _Selector:
    """What ``BaseEventLoop._run_once`` asks for ready I/O: never any; the wait for the
    next timer is a ``time.sleep`` of the run's clock."""

    def select(self, timeout=None):
        if timeout is None:
            raise RuntimeError(DEADLOCK)
        if timeout > 0:
            sys.modules["time"].sleep(timeout)
        return []

    def close(self):
        pass


def _task(loop, coro, **options):
    """The loop's task factory: ``Task-N`` counted per run unless the program names it."""
    if options.get("name") is None:
        _state["count"] += 1
        options["name"] = f"Task-{_state['count']}"
    return tasks.Task(coro, loop=loop, **options)


class Loop(base_events.BaseEventLoop):
    """An event loop that runs ready callbacks and timers and never blocks."""

    def __init__(self):
        super().__init__()
        self._selector = _Selector()
        self._clock_resolution = 1e-6
        self.set_task_factory(_task)

    def time(self):
        clock = _state["clock"]
        return clock.loop_time() if clock is not None else sys.modules["time"].monotonic()

    def _process_events(self, event_list):
        pass

    def call_soon(self, callback, *args, context=None):
        """A task's step or wake-up runs as that task's turn (aio_tasks.py)."""
        scheduler = schedule.current()
        if scheduler is not None:
            callback = scheduler.tasks.wrap(callback)
        return super().call_soon(callback, *args, context=context)

    def run_forever(self):
        try:
            super().run_forever()
        finally:
            scheduler = schedule.current()
            if scheduler is not None:
                scheduler.tasks.loop_stopped()

    def _write_to_self(self):
        pass

    def run_in_executor(self, executor, func, *args):
        self._check_closed()
        future = self.create_future()
        try:
            future.set_result(func(*args))
        except Exception as exc:   # the program's error, for whoever awaits the future
            future.set_exception(exc)
        return future

    def close(self):
        super().close()
        self._selector.close()


async def wait_for(fut, timeout):   # named as asyncio names it (aio_tasks.py)
    """``asyncio.wait_for`` as Python 3.12 and later have it."""
    if timeout is not None and timeout <= 0:
        fut = tasks.ensure_future(fut)
        if fut.done():
            return fut.result()
        await tasks._cancel_and_wait(fut, events.get_running_loop())
        try:
            return fut.result()
        except exceptions.CancelledError as exc:
            raise TimeoutError from exc
    async with timeouts.timeout(timeout):
        return await fut


_PATCHED = {"wait_for": wait_for} if sys.version_info < (3, 12) else {}


_Base = getattr(events, "_BaseDefaultEventLoopPolicy", None) or \
    events.BaseDefaultEventLoopPolicy


class Policy(_Base):
    """The event loop policy of a run: its loops are ``Loop``s."""

    _loop_factory = Loop


class Part:
    """The loop as a part of a run's world, on the world's ``clock``."""

    def __init__(self, clock=None):
        self.clock = clock

    def enter(self):
        enter(self.clock)

    def leave(self):
        leave()


def enter(clock=None):
    """Make the run's asyncio use ``Loop`` (and name its tasks from ``Task-1``); its time
    is ``clock.loop_time()`` (None: ``time.monotonic()``). Entered twice, only the outer
    pair acts."""
    _state["depth"] += 1
    if _state["depth"] > 1:
        return
    _state["count"], _state["clock"] = 0, clock
    _state["saved"] = (events._event_loop_policy, asyncio.run, events._get_running_loop(),
                       {name: getattr(tasks, name) for name in _PATCHED})
    events._event_loop_policy = Policy()
    asyncio.run = runners.run            # Pyodide's own runs on its WebLoop
    for name, function in _PATCHED.items():
        setattr(asyncio, name, function)
        setattr(tasks, name, function)
    events._set_running_loop(None)       # Pyodide's WebLoop counts as running


def leave():
    """Put back the policy, ``asyncio.run`` and the running loop of before ``enter()``."""
    _state["depth"] = max(_state["depth"] - 1, 0)
    saved = _state["saved"]
    if saved is None or _state["depth"]:
        return
    _state["saved"] = _state["clock"] = None
    policy, run, running, patched = saved
    current = events._event_loop_policy
    loop = getattr(getattr(current, "_local", None), "_loop", None)
    if isinstance(loop, Loop) and not loop.is_running() and not loop.is_closed():
        loop.close()
    events._event_loop_policy = policy
    asyncio.run = run
    events._set_running_loop(running)
    for name, function in patched.items():
        setattr(asyncio, name, function)
        setattr(tasks, name, function)
