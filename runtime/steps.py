"""Build trace steps from backend events (see backends.py for the vocabulary).

A step is a statement: consecutive line events of one frame inside one statement
fold into one step. Each step stores only the locals that changed since the
frame's previous step. The outer call stack of a step is stored once in
``stacks`` and referenced by index.
"""

import functools
import os
import traceback

from .backends import StopRecording
from .values import IMMUTABLE_SCALARS, encode

_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200   # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR
_OWN_LINE = frozenset({"<lambda>", "<genexpr>"})


def _message(exc):
    try:
        return str(exc)
    except BaseException:
        return f"<{type(exc).__qualname__}>"


def _guarded(method):
    """Turn a failure of the recorder itself into a stop, never a user-visible error."""
    @functools.wraps(method)
    def run(self, *args):
        try:
            return method(self, *args)
        except StopRecording:
            raise
        except Exception:
            self.internal_error = traceback.format_exc()
            self.stopped = True
            raise StopRecording() from None
    return run


class FrameState:
    __slots__ = ("fid", "code", "own_line", "stack", "depth", "prev", "last_event",
                 "last_range", "exc", "generator")

    def __init__(self, fid, code):
        self.fid = fid
        self.code = code
        self.own_line = code.co_name in _OWN_LINE
        self.generator = bool(code.co_flags & _GENERATOR_FLAGS)
        self.prev = {}
        self.stack = 0
        self.depth = 0
        self.last_event = None
        self.last_range = None
        self.exc = None


class TraceBuilder:
    def __init__(self, *, def_line, ranges, main_code, root_codes, program_files,
                 output, max_steps):
        self.def_line = def_line
        self.ranges = ranges
        self.main_code = main_code
        self.root_codes = frozenset(root_codes)
        self.program_files = frozenset(program_files)
        self.output = output
        self.max_steps = max_steps
        self.raw_cap = 20 * max_steps
        self.steps = []
        self.stacks = []
        self.stack_index = {}
        self.frames = {}
        self.next_fid = 1
        self.raw = 0
        self.stopped = False
        self.message = None
        self.internal_error = None
        self.main_fid = None
        self.main_done = False
        self.result = None
        self.error = None
        self.on_stop = lambda: None

    # -- helpers ---------------------------------------------------------------
    def _rel(self, line):
        return line - self.def_line + 1

    def _range(self, state, line):
        if line is None:
            line = state.last_range[0] if state.last_range else state.code.co_firstlineno
        if state.own_line:
            return (line, line)
        return self.ranges.get(line, (line, line))

    def _stop(self, message):
        self.stopped = True
        self.message = message
        self.on_stop()
        raise StopRecording()

    def _describe(self, frame):
        code = frame.f_code
        state = self.frames.get(frame)
        if state is not None:
            first = self._range(state, frame.f_lineno)[0]
            return (code.co_name, None, self._rel(first), state.fid)
        name = code.co_filename
        if name not in self.program_files:
            name = os.path.basename(name)
        return (code.co_name, name, frame.f_lineno or 0, None)

    def _outer(self, frame):
        """Index into ``stacks`` of the frames outside ``frame``, outermost first."""
        chain = []
        outer = frame.f_back
        while outer is not None:
            chain.append(outer)
            if outer.f_code in self.root_codes:
                break
            outer = outer.f_back
        else:
            chain = [f for f in chain if f.f_code.co_filename in self.program_files]
        key = tuple(self._describe(f) for f in reversed(chain))
        index = self.stack_index.get(key)
        if index is None:
            index = self.stack_index[key] = len(self.stacks)
            self.stacks.append([
                {"name": name, "file": file, "line": line, "hidden": True} if fid is None
                else {"name": name, "line": line, "frame": fid, "hidden": False}
                for name, file, line, fid in key])
        return index, len(key)

    def _diff(self, state, frame):
        prev = state.prev
        now = {}
        changed = {}
        for name, value in frame.f_locals.items():
            old = prev.get(name)
            if old is not None and old[0] is value and type(value) in IMMUTABLE_SCALARS:
                now[name] = old
                continue
            encoded = encode(value)
            if old is None or old[1] != encoded:
                changed[name] = encoded
            now[name] = (value, encoded)
        deleted = [name for name in prev if name not in now]
        state.prev = now
        return changed, deleted

    def _step(self, state, frame, event, span, extra=None):
        if len(self.steps) >= self.max_steps:
            self._stop(f"stopped after {self.max_steps} steps (step limit)")
        changed, deleted = self._diff(state, frame)
        step = {"event": event, "line": self._rel(span[0]), "end": self._rel(span[1]),
                "fn": state.code.co_name, "frame": state.fid, "depth": state.depth,
                "stack": state.stack, "set": changed}
        if deleted:
            step["del"] = deleted
        step["out"] = self.output.units
        if extra:
            step.update(extra)
        self.steps.append(step)
        state.last_event = event
        state.last_range = span
        self.raw = 0

    def _count_raw(self):
        self.raw += 1
        if self.raw > self.raw_cap:
            self._stop(f"stopped after {self.raw_cap} events inside one step (step limit)")

    # -- events ----------------------------------------------------------------
    @_guarded
    def on_call(self, frame):
        if self.stopped:
            raise StopRecording()
        state = self.frames.get(frame)
        if state is None:
            state = self.frames[frame] = FrameState(self.next_fid, frame.f_code)
            self.next_fid += 1
            if frame.f_code is self.main_code and self.main_fid is None:
                self.main_fid = state.fid
            line = frame.f_code.co_firstlineno
        else:
            line = frame.f_lineno
        state.stack, state.depth = self._outer(frame)
        self._step(state, frame, "call", self._range(state, line))

    @_guarded
    def on_line(self, frame, line):
        if self.stopped:
            raise StopRecording()
        state = self.frames.get(frame)
        if state is None:
            return
        span = self._range(state, line)
        if state.last_event == "line" and state.last_range == span:
            self._count_raw()
            return
        self._step(state, frame, "line", span)

    @_guarded
    def on_jump(self, frame):
        if self.stopped:
            raise StopRecording()
        self._count_raw()

    @_guarded
    def on_return(self, frame, value):
        if self.stopped:
            raise StopRecording()
        state = self.frames.get(frame)
        if state is None:
            return
        encoded = encode(value)
        self._step(state, frame, "return", self._range(state, frame.f_lineno), {"ret": encoded})
        if state.fid == self.main_fid and not self.main_done:
            self.result = encoded
            self.main_done = not state.generator
        if not state.generator:
            del self.frames[frame]

    @_guarded
    def on_exception(self, frame, exc):
        if self.stopped or isinstance(exc, StopRecording):
            return
        state = self.frames.get(frame)
        if state is None:
            return
        state.exc = exc
        info = {"type": type(exc).__name__, "message": _message(exc)}
        self._step(state, frame, "exception", self._range(state, frame.f_lineno), {"exc": info})

    @_guarded
    def on_unwind(self, frame, exc):
        state = self.frames.pop(frame, None)
        if state is None or self.stopped:
            return
        exc = exc if exc is not None else state.exc
        if state.fid == self.main_fid and not self.main_done and exc is not None:
            self.main_done = True
            line = self._range(state, frame.f_lineno)[0]
            self.error = {"type": type(exc).__name__, "message": _message(exc),
                          "line": self._rel(line)}
