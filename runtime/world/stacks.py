"""The run's threads where the interpreter has no OS threads (the page's Pyodide): each a
Python stack of its own that suspends while another runs, by WebAssembly stack switching
(JSPI: ``pyodide.ffi.run_sync``), when the run itself was called so that it can suspend
(``callPromising``: web/static/js/worker.js calls a run again so once it found that a
thread could not start, ``schedule.wanted``).

``available()`` says whether a thread can start here now; ``Baton`` is schedule.py's baton
on a promise (its ``wait`` suspends the calling stack until ``give`` resolves it; a
``give`` before the ``wait`` lets the ``wait`` through); ``spawn(function)`` starts
``function`` on a stack of its own (once the calling stack suspends). A stack starts with
no frames outside its own, as an OS thread does. Both wait with Pyodide's own event loop,
which the run's (aio.py) stands in for meanwhile.
"""

import sys


def green():
    """Whether this interpreter runs a run's threads as suspendable stacks (Pyodide)."""
    return sys.platform == "emscripten"


_works = []   # whether run_sync suspends in this interpreter (asked once)


def available():
    """Whether a stack can suspend now: the run was called with ``callPromising`` and the
    interpreter can suspend (a Python restored from a memory snapshot made where stack
    switching was off cannot, whatever the browser offers)."""
    if not green():
        return False
    try:
        from pyodide.ffi import can_run_sync, run_sync
    except ImportError:
        return False
    if not can_run_sync():
        return False
    if not _works:
        import js
        try:
            with _pyodide_loop():
                run_sync(js.Promise.resolve(None))
            _works.append(True)
        except RuntimeError:   # "WebAssembly stack switching not supported …"
            _works.append(False)
    return _works[0]


class Baton:
    __slots__ = ("_resolve", "_given", "_keep")

    def __init__(self):
        from pyodide.ffi import create_proxy
        self._resolve = None
        self._given = False
        self._keep = create_proxy(self._kept)

    def _kept(self, resolve, _reject):
        self._resolve = resolve

    def wait(self):
        if self._given:
            self._given = False
            return
        import js
        from pyodide.ffi import run_sync
        with _pyodide_loop():
            run_sync(js.Promise.new(self._keep))

    def give(self):
        resolve, self._resolve = self._resolve, None
        if resolve is None:
            self._given = True
        else:
            resolve(None)

    def close(self):
        self._keep.destroy()


def spawn(function):
    """Start ``function()`` on a stack of its own; returns what to ``destroy`` afterwards."""
    from pyodide.ffi import create_proxy
    proxy = create_proxy(function)
    with _pyodide_loop():
        proxy.callPromising()
    return proxy


class _pyodide_loop:
    """Pyodide's own event loop while the run's (aio.py) is in place: what ``run_sync`` and
    ``callPromising`` wait with."""

    def __enter__(self):
        from asyncio import events
        from . import aio
        saved = aio._state["saved"]
        self.kept = None
        if saved is not None:
            self.kept = events._event_loop_policy, events._get_running_loop()
            events._event_loop_policy = saved[0]
            events._set_running_loop(saved[2])

    def __exit__(self, *exc):
        from asyncio import events
        if self.kept is not None:
            events._event_loop_policy, running = self.kept
            events._set_running_loop(running)
