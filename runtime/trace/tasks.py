"""The stack of a frame that runs in an asyncio task, as a reader thinks of it.

A coroutine frame's caller is the event loop (``Handle._run``, ``_run_once`` … down to
``asyncio.run``), and the coroutine that awaits its task is suspended, on no frame's
stack. ``outer_chain`` gives instead, innermost first: the frames of the running task
down to its coroutine, the task (``Task("Task-2")``), the frames of the task awaiting
it (found through the callbacks that will wake it: ``await task``, ``gather``, a
``TaskGroup``, ``wait_for``) and that task, and so on to the task ``asyncio.run``
runs, then the frames outside the loop (the caller of ``asyncio.run``). Frames of the
``asyncio`` package and of the run's loop (runtime/world/aio.py, aio_tasks.py) are left
out: they differ from one Python to the next.
"""

import functools
import sys

_MAX_TASKS = 64   # awaiting tasks followed from one frame


class Task:
    """A task in a stack: its name, between the frames of its coroutines."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class Tasks:
    """Finds the task chains of frames; asks nothing of asyncio until a task runs."""

    def internal(self, frame):
        """Whether ``frame`` runs code of the asyncio package or of the run's loop."""
        name = frame.f_globals.get("__name__")
        return isinstance(name, str) and (name.startswith("asyncio.") or name == "asyncio"
                                          or name.endswith(("world.aio", "world.aio_tasks")))

    def outer_chain(self, frame):
        """``(chain, outside)`` for ``frame`` running in the current task: the frames
        and ``Task``s outside ``frame`` up to the loop, innermost first, and the first
        frame outside the loop (None: none). None when no task of a loop runs it."""
        asyncio = sys.modules.get("asyncio")
        if asyncio is None or asyncio.events._get_running_loop() is None:
            return None
        task = asyncio.current_task()
        root = getattr(task.get_coro(), "cr_frame", None) if task is not None else None
        if root is None:
            return None
        chain = []
        current = frame
        while current is not root:
            current = current.f_back
            if current is None:
                return None   # not in the current task (a callback the loop runs)
            if not self.internal(current):
                chain.append(current)
        chain.append(Task(task.get_name()))
        seen = {task}
        waiting = _awaiter(task, asyncio)
        while waiting is not None and waiting not in seen and len(seen) < _MAX_TASKS:
            seen.add(waiting)
            chain.extend(f for f in reversed(_coro_frames(waiting.get_coro()))
                         if not self.internal(f))
            chain.append(Task(waiting.get_name()))
            waiting = _awaiter(waiting, asyncio)
        outside = root.f_back
        while outside is not None and self.internal(outside):
            outside = outside.f_back
        return chain, outside


def outer_frames(frame, tasks=None):
    """The frames outside ``frame``, innermost first: its callers, or, in an asyncio task,
    the frames of the task and of the tasks awaiting it, then the caller of the loop."""
    found = (tasks or Tasks()).outer_chain(frame)
    if found is None:
        chain, outer = [], frame.f_back
    else:
        chain, outer = [f for f in found[0] if not isinstance(f, Task)], found[1]
    while outer is not None:
        chain.append(outer)
        outer = outer.f_back
    return chain


def _coro_frames(coro):
    """The frames of a suspended coroutine and of what it awaits, outermost first."""
    frames = []
    while coro is not None and len(frames) < 1000:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or \
            getattr(coro, "ag_frame", None)
        if frame is None:
            break
        frames.append(frame)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) or \
            getattr(coro, "ag_await", None)
    return frames


def _held(callback):
    """What a done-callback holds: its ``self``, a partial's arguments, a closure's cells."""
    held = []
    while isinstance(callback, functools.partial):
        held.extend(callback.args)
        callback = callback.func
    owner = getattr(callback, "__self__", None)
    if owner is not None:
        held.append(owner)
    for cell in getattr(callback, "__closure__", None) or ():
        try:
            held.append(cell.cell_contents)
        except ValueError:   # an empty cell
            continue
    return held


def _awaiter(future, asyncio, depth=0):
    """The task that ``future`` (a task, or a future a task waits on) wakes when done."""
    loop = future.get_loop()
    for task in asyncio.all_tasks(loop):
        if task is not future and getattr(task, "_fut_waiter", None) is future:
            return task
    if depth > 8:
        return None
    for callback, _context in getattr(future, "_callbacks", None) or ():
        for held in _held(callback):
            if held is future:
                continue
            if isinstance(held, asyncio.Task):
                return held
            parent = getattr(held, "_parent_task", None)   # a TaskGroup
            if isinstance(parent, asyncio.Task):
                return parent
            if isinstance(held, asyncio.Future):
                found = _awaiter(held, asyncio, depth + 1)
                if found is not None:
                    return found
    return None
