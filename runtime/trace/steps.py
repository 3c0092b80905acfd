"""Build trace steps from backend events (see backends.py for the vocabulary).

A step is a statement: consecutive line events of one frame inside one statement
fold into one step. Steps are stored in columns (see ``Columns``): one entry per
step for the event, the first line and the frame row; everything else only where
it applies. Each step stores only the locals that changed since the frame's
previous step; a container a frame holds from one step to the next is compared with
what its VALUE was made of rather than encoded again (kept.py). The outer call stack of a step is stored once in ``stacks`` and
referenced by index; the columns and the per-frame state are in ``columns.py``.
"""

import os
import traceback

from .backends import StopRecording
from .columns import OWN_LINE, Columns, FrameState
from .events import CALL, EXCEPTION, LIMITS, LINE, RETURN
from .tasks import Task, Tasks
from .kept import kept_pair
from .values import CONTAINERS, IMMUTABLE_SCALARS, encode, encode_fast, presented

FORK_FILE = "<loopstep fork>"   # the file of a fork's dispatcher frames (forks.py): never shown



def _message(exc, folder):
    try:
        return presented(str(exc), folder)
    except BaseException:
        return f"<{type(exc).__qualname__}>"


class TraceBuilder:
    def __init__(self, *, first_line, ranges, main_codes, root_codes, program_files,
                 output, max_steps, folder=None):
        self.first_line = first_line   # the file line numbered 1 (docs/design.md)
        # absolute line → (first, last) of its statement, numbered from first_line;
        # the lines of one statement share one tuple, so a fold is an identity test
        shared = {}
        self.spans = {line: shared.setdefault(span, (span[0] - first_line + 1,
                                                     span[1] - first_line + 1))
                      for line, span in ranges.items()}
        self.own_spans = {}
        self.main_codes = frozenset(main_codes)   # the displayed functions (or the module)
        self.root_codes = frozenset(root_codes)
        self.program_files = frozenset(program_files)
        self.output = output
        self.folder = folder   # values.Folder: the run's folder as the trace shows it
        self.max_steps = max_steps
        self.raw_cap = 20 * max_steps
        self.cols = Columns()
        self.rows = {}
        self.last_out = 0
        self.stacks = []
        self.stack_index = {}
        self.frames = {}
        self.next_fid = 1
        self.raw = 0
        self.stopped = False
        self.message = None
        self.limit = None      # the cap that ended the run: {"kind": events.LIMITS[k], "cap": N}
        self.internal_error = None
        self.main_fid = None
        self.main_done = False
        self.result = None
        self.error = None
        self.on_stop = lambda: None
        self.questions = None  # questions.Questions: evaluated after each step when set
        self.agent_watch = None  # agent_origins.Origins.check: before each step when set
        self.workspace_watch = None  # workspace.Watcher.flush: before each step when set
        self.tasks = Tasks()     # the stacks of frames running in asyncio tasks
        self.thread = self.last_thread = 0   # the running thread (world/schedule.py)
        self.runner = 0   # the thread column's: the thread, or the asyncio task running in it

    # -- helpers ---------------------------------------------------------------
    def _rel(self, line):
        return line - self.first_line + 1

    def _span(self, state, line):
        """The (first, last) relative lines of the statement holding absolute ``line``."""
        if line is None:
            if state.last_span is not None:
                return state.last_span
            line = state.code.co_firstlineno
        span = state.spans.get(line)
        if span is None:
            rel = line - self.first_line + 1
            span = state.spans[line] = (rel, rel)
        return span

    def escaped(self, exc):
        """An exception left the program after tracing had ended (settrace drops its hook
        when the hook itself runs out of stack): take the displayed function's error from
        the traceback when no unwind event recorded it."""
        if self.error is not None:
            return
        for frame, line in traceback.walk_tb(exc.__traceback__):
            if frame.f_code in self.main_codes:
                self.error = {"type": type(exc).__name__, "message": _message(exc, self.folder),
                              "line": self._rel(line)}
                return

    def fail(self):
        """A failure of the recorder itself: stop the program, never a user-visible error."""
        self.internal_error = traceback.format_exc()
        self.stopped = True
        raise StopRecording() from None

    def _stop(self, message):
        self.stopped = True
        self.message = message
        self.on_stop()
        raise StopRecording()

    def cap_reached(self, kind, cap, message):
        """A cap (``kind``: one of events.LIMITS) ends the run here; its steps so far stay."""
        assert kind in LIMITS, kind
        self.limit = {"kind": kind, "cap": cap}
        self._stop(message)

    def _describe(self, frame):
        if isinstance(frame, Task):
            return (frame.name, None, None, None)
        code = frame.f_code
        state = self.frames.get(frame)
        if state is not None:
            first = self._span(state, frame.f_lineno)[0]
            return (code.co_name, None, first, state.fid)
        name = code.co_filename
        if name not in self.program_files:
            name = os.path.basename(name)
        return (code.co_name, name, frame.f_lineno or 0, None)

    def _outer(self, frame):
        """Index into ``stacks`` of the frames outside ``frame``, outermost first."""
        chain = []
        outer = frame.f_back
        tasks, asked = self.tasks, False
        while outer is not None:
            if tasks.internal(outer):   # asyncio's frames: in a task, the chain of tasks
                found, asked = None if asked else tasks.outer_chain(frame), True
                if found is not None:
                    chain = [f for f in found[0] if isinstance(f, Task) or
                             f.f_code.co_filename != FORK_FILE]
                outer = found[1] if found is not None else outer.f_back
                continue
            if outer.f_code.co_filename != FORK_FILE:
                chain.append(outer)
            if outer.f_code in self.root_codes:
                break
            outer = outer.f_back
        else:
            chain = [f for f in chain if isinstance(f, Task) or
                     f.f_code.co_filename in self.program_files]
        key = tuple(self._describe(f) for f in reversed(chain))
        index = self.stack_index.get(key)
        if index is None:
            index = self.stack_index[key] = len(self.stacks)
            self.stacks.append([
                {"name": name, "task": True, "hidden": True} if line is None
                else {"name": name, "file": file, "line": line, "hidden": True} if fid is None
                else {"name": name, "line": line, "frame": fid, "hidden": False}
                for name, file, line, fid in key])
        return index, len(key)

    def _reorder(self, state, frame, n):
        """After a name was bound or unbound: note the unbound ones, keep locals' order."""
        prev = state.prev
        now = frame.f_locals
        deleted = [name for name in prev if name not in now]
        if deleted:
            self.cols.dels[n] = deleted
        state.prev = {name: prev[name] for name in now if name in prev}

    def _step(self, state, frame, event, span):
        """Append step ``n`` with the locals of ``frame`` changed since its previous step."""
        cols = self.cols
        n = len(cols.event)
        if n >= self.max_steps:
            self.cap_reached("steps", self.max_steps, f"stopped after {self.max_steps} steps: "
                             "the step limit; raise it with --max-steps N")
        if self.agent_watch is not None:
            self.agent_watch(n)
        if self.workspace_watch is not None:
            self.workspace_watch(n)
        prev = state.prev
        changed = None
        grown = False
        items = frame.f_locals.items()
        if state.hidden is not None:
            is_hidden = state.hidden
            items = [(name, value) for name, value in items if not is_hidden(name)]
        folder = self.folder
        for name, value in items:
            old = prev.get(name)
            if old is not None:
                if old[0] is value:
                    kind = type(value)
                    if kind in IMMUTABLE_SCALARS:
                        continue
                    if kind in CONTAINERS:   # the same container: kept from step to step
                        pair = prev[name] = kept_pair(old, value, folder)
                        encoded = pair[1]
                        if encoded is old[1]:
                            continue
                    else:
                        encoded = encode_fast(value, folder)
                        prev[name] = (value, encoded)
                else:
                    encoded = encode_fast(value, folder)
                    prev[name] = (value, encoded)
                if old[1] == encoded:
                    continue
            else:
                grown = True
                encoded = encode_fast(value, folder)
                prev[name] = (value, encoded)
            if changed is None:
                changed = [name, encoded]
            else:
                changed.append(name)
                changed.append(encoded)
        if grown or len(prev) != len(items):
            self._reorder(state, frame, n)
        if changed is not None:
            cols.sets.append(n)
            cols.sets.append(changed)
        cols.event.append(event)
        cols.line.append(span[0])
        if span[1] != span[0]:
            cols.end[n] = span[1]
        cols.row.append(state.row)
        if self.runner != self.last_thread:
            self.last_thread = cols.thread[n] = self.runner
        out = self.output.units
        if out != self.last_out:
            self.last_out = out
            cols.out.append(n)
            cols.out.append(out)
        state.last_event = event
        state.last_span = span
        self.raw = 0
        if self.questions is not None:
            self.questions.step(n, state, frame, event, span)
        return n

    def _count_raw(self):
        self.raw += 1
        if self.raw > self.raw_cap:
            self.cap_reached("steps", self.max_steps, f"stopped after {self.raw_cap} events inside "
                             "one step: the step limit; raise it with --max-steps N")

    # -- events ----------------------------------------------------------------
    def on_call(self, frame):
        if self.stopped:
            raise StopRecording()
        code = frame.f_code
        state = self.frames.get(frame)
        if state is None:
            if code.co_name in OWN_LINE:
                spans = self.own_spans.setdefault(code, {})
            else:
                spans = self.spans
            state = self.frames[frame] = FrameState(self.next_fid, code, spans)
            self.next_fid += 1
            if self.main_fid is None and code in self.main_codes:
                self.main_fid = state.fid
            line = code.co_firstlineno
        elif state.coroutine:   # resumed after an await: its await statement was its step
            return
        else:
            line = frame.f_lineno
        state.stack, state.depth = self._outer(frame)
        key = (state.fid, state.depth, state.stack)
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = len(self.cols.frames)
            self.cols.frames.append([state.fid, code.co_name, state.depth, state.stack])
        state.row = row
        self._step(state, frame, CALL, self._span(state, line))

    def on_line(self, frame, line):
        if self.stopped:
            raise StopRecording()
        state = self.frames.get(frame)
        if state is None:
            return
        span = state.spans.get(line) or self._span(state, line)
        if span is state.last_span and (state.last_event == LINE or (   # one statement;
                state.coroutine and state.last_event == EXCEPTION)):   # a throw at an await
            self.raw += 1
            if self.raw > self.raw_cap:
                self._count_raw()
            return
        self._step(state, frame, LINE, span)

    def on_jump(self, frame):
        if self.stopped:
            raise StopRecording()
        self.raw += 1
        if self.raw > self.raw_cap:
            self._count_raw()

    def on_return(self, frame, value):
        if self.stopped:
            raise StopRecording()
        state = self.frames.get(frame)
        if state is None:
            return
        encoded = encode(value, self.folder)
        n = self._step(state, frame, RETURN, self._span(state, frame.f_lineno))
        self.cols.rets[n] = encoded
        if state.fid == self.main_fid and not self.main_done:
            self.result = encoded
            self.main_done = not state.generator or state.coroutine
        if not state.generator or state.coroutine:
            del self.frames[frame]

    def on_yield(self, frame, value):
        """A generator's yield is a return step; a coroutine suspended at an await is none."""
        state = self.frames.get(frame)
        if state is None or not state.coroutine or self.stopped:
            self.on_return(frame, value)

    def on_exception(self, frame, exc):
        if self.stopped or isinstance(exc, StopRecording):
            return
        state = self.frames.get(frame)
        if state is None or (state.coroutine and isinstance(exc, StopIteration)):
            return   # a StopIteration in a coroutine: an awaited value arriving
        state.exc = exc
        info = {"type": type(exc).__name__, "message": _message(exc, self.folder)}
        n = self._step(state, frame, EXCEPTION, self._span(state, frame.f_lineno))
        self.cols.excs[n] = info

    def on_unwind(self, frame, exc):
        state = self.frames.pop(frame, None)
        if state is None or self.stopped:
            return
        exc = exc if exc is not None else state.exc
        if state.fid == self.main_fid and not self.main_done and exc is not None:
            self.main_done = True
            line = self._span(state, frame.f_lineno)[0]
            self.error = {"type": type(exc).__name__, "message": _message(exc, self.folder),
                          "line": line}
