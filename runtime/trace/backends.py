"""Event sources: turn interpreter events into calls on a dispatcher.

Both backends speak one vocabulary to the dispatcher (see steps.TraceBuilder):

    on_call(frame)             a traced frame starts or resumes (also by throw()/close())
    on_line(frame, line)       a line (absolute) is about to run in a traced frame
    on_jump(frame)             a backward jump inside a traced frame (raw event only)
    on_return(frame, value)    a traced frame returns
    on_yield(frame, value)     a traced frame yields (a coroutine: suspends at an await)
    on_exception(frame, exc)   an exception is raised in or passes through a traced frame
    on_unwind(frame, exc)      a traced frame is left by an exception

A failure inside the dispatcher (not StopRecording) goes to ``dispatcher.fail()``,
which ends the recording (``_guarded``; written out in the two hot handlers, the
monitoring ``line`` callback and the settrace local tracer, which run at every step). Only code objects in ``targets`` produce events. ``sys.monitoring`` (3.12+)
enables local events on exactly those code objects, so everything else runs at
full speed; RAISE, PY_UNWIND and PY_THROW are global events, filtered by code object.
``sys.settrace`` (3.11) installs a local tracer only on frames of those code objects.
"""

import dis
import sys


class StopRecording(BaseException):
    """Raised into the traced program to end it (step cap reached)."""


_RETURN_OPS = frozenset(dis.opmap[name] for name in
                        ("RETURN_VALUE", "RETURN_CONST", "YIELD_VALUE") if name in dis.opmap)
_YIELD = dis.opmap["YIELD_VALUE"]
_COROUTINE = 0x80 | 0x100   # CO_COROUTINE | CO_ITERABLE_COROUTINE
_yield_points = {}


def _guarded(fail, handler):
    """``handler`` as an event callback whose own failure goes to ``fail()`` (which ends
    the recording) instead of into the traced program. A RecursionError is the program's:
    it ran out of stack at this event, and it gets its error back."""
    def event(*args):
        try:
            return handler(*args)
        except RecursionError:
            raise  # the program ran out of stack here: its own error, not the recorder's
        except Exception:
            fail()
    return event


def _with_frame(fail, handler):
    """A ``sys.monitoring`` callback ``(code, …)`` calling ``handler(code, frame, …)`` with
    the frame of the event's code, guarded like ``_guarded``."""
    getframe = sys._getframe
    guarded = _guarded(fail, handler)

    def event(code, *args):
        guarded(code, getframe(1), *args)
    return event


def _leaves(frame, raised):
    """What settrace's "return" event in ``frame`` is: "return", "yield", or None for
    an exception leaving it. ``raised``: an "exception" event came in this activation
    with no "line" event since. A yield stands at YIELD_VALUE (3.13 reports the
    instruction after it); an exception thrown in at a yield (``throw()``, ``close()``)
    leaves from there too, right after its "exception" event."""
    lasti = frame.f_lasti
    if lasti < 0:
        return "return"
    code = frame.f_code
    points = _yield_points.get(code)
    if points is None:
        points = _yield_points[code] = frozenset(
            offset for ins in dis.get_instructions(code) if ins.opcode == _YIELD
            for offset in (ins.offset, ins.offset + 2))
    if lasti in points:
        return None if raised else "yield"
    return "return" if code.co_code[lasti] in _RETURN_OPS else None


class MonitoringBackend:
    name = "monitoring"

    def __init__(self, targets, dispatcher, program_files):
        self.targets = frozenset(targets)
        self.dispatcher = dispatcher
        self.program_files = frozenset(program_files)
        self.tool = None

    def start(self):
        mon = sys.monitoring
        for tool in (mon.DEBUGGER_ID, 1, 3, 4):
            try:
                mon.use_tool_id(tool, "loopstep")
            except ValueError:
                continue
            self.tool = tool
            break
        else:
            raise RuntimeError("no free sys.monitoring tool id")
        ev = mon.events
        d = self.dispatcher
        targets = self.targets
        program_files = self.program_files
        getframe = sys._getframe
        on_call, on_line, on_jump = d.on_call, d.on_line, d.on_jump
        on_return, on_exception, on_unwind = d.on_return, d.on_exception, d.on_unwind
        on_yield = d.on_yield

        fail = d.fail

        def start(code, frame, offset, *exc):
            if not exc or code in targets:   # PY_THROW is a global event
                on_call(frame)

        def line(code, number):   # the hot one: guarded inline, as _with_frame does
            try:
                if code in targets:
                    on_line(getframe(1), number)
                elif d.stopped and code.co_filename in program_files:
                    raise StopRecording()
            except RecursionError:
                raise  # the program ran out of stack here: its own error, not the recorder's
            except Exception:
                fail()

        def jump(code, frame, offset, destination):
            if destination <= offset:
                on_jump(frame)

        def ret(code, frame, offset, value):
            on_return(frame, value)

        def yield_(code, frame, offset, value):
            on_yield(frame, value)

        def raise_(code, frame, offset, exc):
            if code in targets:   # RAISE is a global event
                on_exception(frame, exc)

        def unwind(code, frame, offset, exc):
            if code in targets:   # PY_UNWIND is a global event
                on_unwind(frame, exc)

        start, jump, ret, yield_, raise_, unwind = (
            _with_frame(fail, h) for h in (start, jump, ret, yield_, raise_, unwind))
        handlers = {ev.PY_START: start, ev.PY_RESUME: start, ev.PY_THROW: start,
                    ev.LINE: line, ev.JUMP: jump,
                    ev.PY_RETURN: ret, ev.PY_YIELD: yield_, ev.RAISE: raise_,
                    ev.PY_UNWIND: unwind}
        for event, handler in handlers.items():
            mon.register_callback(self.tool, event, handler)
        self.events = list(handlers)
        local = (ev.PY_START | ev.PY_RESUME | ev.LINE | ev.JUMP | ev.PY_RETURN | ev.PY_YIELD)
        for code in self.targets:
            mon.set_local_events(self.tool, code, local)
        mon.set_events(self.tool, ev.RAISE | ev.PY_UNWIND | ev.PY_THROW)
        d.on_stop = self._stopped
        self.local = local

    def watch(self, codes, observer):
        """Also report calls of ``codes`` (function entry, return, unwind) to ``observer``."""
        if not codes:
            return
        mon = sys.monitoring
        ev = mon.events
        d = self.dispatcher
        targets = self.targets
        watched = self.watched = frozenset(codes)

        def start(code, frame, offset):
            if code in watched:
                observer.on_start(frame)
            if code in targets:
                d.on_call(frame)

        def ret(code, frame, offset, value):
            if code in watched:
                observer.on_return(frame, value)
            if code in targets:
                d.on_return(frame, value)

        def unwind(code, frame, offset, exc):
            if code in watched:
                observer.on_unwind(frame, exc)
            if code in targets:
                d.on_unwind(frame, exc)

        mon.register_callback(self.tool, ev.PY_START, _with_frame(d.fail, start))
        mon.register_callback(self.tool, ev.PY_RETURN, _with_frame(d.fail, ret))
        mon.register_callback(self.tool, ev.PY_UNWIND, _with_frame(d.fail, unwind))
        for code in watched:
            own = self.local if code in targets else 0
            mon.set_local_events(self.tool, code, own | ev.PY_START | ev.PY_RETURN)

    def _stopped(self):
        # From now on every line of the program raises, so catching the stop is useless.
        ev = sys.monitoring.events
        sys.monitoring.set_events(self.tool, ev.RAISE | ev.PY_UNWIND | ev.PY_THROW | ev.LINE)

    def stop(self):
        if self.tool is None:
            return
        mon = sys.monitoring
        mon.set_events(self.tool, 0)
        for code in self.targets | getattr(self, "watched", frozenset()):
            mon.set_local_events(self.tool, code, 0)
        for event in self.events:
            mon.register_callback(self.tool, event, None)
        mon.free_tool_id(self.tool)
        self.tool = None


def _self_loops(code):
    """Whether ``code`` has a jump to itself (``while True: pass``), which has no line events."""
    return any(ins.opname.startswith("JUMP") and ins.argval == ins.offset
               for ins in dis.get_instructions(code))


class SettraceBackend:
    name = "settrace"

    def __init__(self, targets, dispatcher, program_files):
        self.targets = frozenset(targets)
        self.dispatcher = dispatcher
        self.saved = None
        # Frames of these codes also get opcode events, counted as raw events.
        self.opcode_codes = frozenset(code for code in targets if _self_loops(code))
        self.watched = frozenset()
        self.observer = None
        self.suspended = {}   # frame → local tracer of a watched coroutine awaiting

    def watch(self, codes, observer):
        """Also report calls of ``codes`` (function entry, return, unwind) to ``observer``."""
        if not codes:
            return
        watched = self.watched = frozenset(codes)
        self.observer = observer
        traced = self.global_
        suspended = self.suspended

        def global_(frame, event, arg):
            if event == "call" and frame.f_code in watched:
                local = suspended.get(frame)
                if local is not None:   # a coroutine resumed: one call since its start
                    traced(frame, event, arg)
                    return local
                return self._watching(frame, lambda: traced(frame, event, arg))
            return traced(frame, event, arg)

        sys.settrace(global_)

    def _watching(self, frame, steps):
        """A local tracer for a call of a watched code; ``steps()`` starts the step tracer
        of a traced code."""
        d, observer = self.dispatcher, self.observer
        raised = []
        then = None
        coroutine = frame.f_code.co_flags & _COROUTINE

        def observe(frame, event, arg):
            if event == "exception":
                if not (coroutine and isinstance(arg[1], StopIteration)):
                    raised[:] = [arg[1]]
            elif event == "line" and coroutine:
                raised.clear()
            elif event == "return" and coroutine:   # a suspension at an await goes on
                kind = _leaves(frame, bool(raised))
                if kind == "yield":
                    self.suspended[frame] = local
                    return
                self.suspended.pop(frame, None)
                if kind == "return":
                    observer.on_return(frame, arg)
                else:
                    observer.on_unwind(frame, raised[0] if raised else None)
            elif event == "return":
                lasti = frame.f_lasti
                if lasti >= 0 and frame.f_code.co_code[lasti] not in _RETURN_OPS:
                    observer.on_unwind(frame, raised[0] if raised else None)
                else:
                    observer.on_return(frame, arg)
        observe = _guarded(d.fail, observe)

        def local(frame, event, arg):
            observe(frame, event, arg)
            if then is not None:
                then(frame, event, arg)
            return local

        _guarded(d.fail, observer.on_start)(frame)
        if frame.f_code in self.targets:
            then = steps()
        elif not coroutine:
            frame.f_trace_lines = False
        return local

    def start(self):
        d = self.dispatcher
        targets = self.targets

        on_line, on_jump = d.on_line, d.on_jump
        on_call = _guarded(d.fail, d.on_call)

        raised = {}   # frames with an "exception" event and no "line" event since

        def local(frame, event, arg):   # the hot one: guarded inline, as _guarded does
            try:
                if event == "line":
                    if raised:
                        raised.pop(frame, None)
                    on_line(frame, frame.f_lineno)
                elif event == "return":
                    kind = _leaves(frame, raised.pop(frame, False))
                    if kind == "return":
                        d.on_return(frame, arg)
                    elif kind == "yield":
                        d.on_yield(frame, arg)
                    else:
                        d.on_unwind(frame, None)
                elif event == "exception":
                    raised[frame] = True
                    d.on_exception(frame, arg[1])
                elif event == "opcode":
                    on_jump(frame)
            except RecursionError:
                raise  # the program ran out of stack here: its own error, not the recorder's
            except Exception:
                d.fail()
            return local

        def global_(frame, event, arg):
            if event == "call" and frame.f_code in targets:
                raised.pop(frame, None)
                if frame.f_code in self.opcode_codes:
                    frame.f_trace_opcodes = True
                on_call(frame)
                return local
            return None

        self.saved = sys.gettrace()
        self.global_ = global_
        sys.settrace(global_)

    def stop(self):
        sys.settrace(self.saved)
        self.saved = None


def available():
    """Backend names usable in this interpreter, preferred first."""
    names = []
    if hasattr(sys, "monitoring"):
        names.append("monitoring")
    names.append("settrace")
    return names


def make(name, targets, dispatcher, program_files):
    name = name or available()[0]
    if name not in available():
        raise ValueError(f"backend {name!r} is not available here (have {available()})")
    cls = MonitoringBackend if name == "monitoring" else SettraceBackend
    return cls(targets, dispatcher, program_files)
