"""Questions asked of a recording: breakpoint conditions and hit counts, logpoints, watches.

``Probes(spec)`` compiles the reader's expressions once (expressions.py); the
TraceBuilder calls ``step`` after each step it records, in the frame of that
step, and ``result()`` is the trace's ``probes`` key (docs/design.md, "Probes"):

- a breakpoint with a condition, a hit count or a log message is tested at each
  "line" step whose statement holds its line (a statement of the displayed
  function or of a function nested in it; a lambda or generator expression
  written on that line belongs to the statement and is not tested on its own): the condition must be true and,
  with a hit count K, it fires only on the K-th such step; its ``steps`` are the
  steps where it fired; a logpoint adds one ``log`` line at each and never stops;
- each watch is evaluated at every step of the displayed function's frames and
  stored, like locals, only where its value in that frame changed.

An expression that raises (or is refused) never breaks the run: a condition or
log part that raised counts as false / shows ``<error>``, and its first error
text is kept on the breakpoint; a watch's error text is its value. Evaluation
reads the frame's locals (a copy for an expression with a comprehension, which
binds names) and writes into a sink instead of the program's output, so the run's output and result are the same as without probes.
"""

import reprlib
import sys

from . import expressions
from .expressions import Refused, compile_expression, compile_tuple, error_text, template_parts
from .steps import _OWN_LINE, encode_fast
from .values import IMMUTABLE_SCALARS, MAX_CHARS

LINE = 1
RETURN = 2
_FILE = "<loopstep expression>"
_MISSING = object()


class _Sink:
    """Where anything an evaluation prints goes (never the program's output)."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


_SINK = _Sink()
_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = MAX_CHARS
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 20


def _text(value):
    """A logpoint part's text: a string as itself, anything else as a bounded repr."""
    if type(value) is str:
        return value if len(value) <= MAX_CHARS else value[:MAX_CHARS - 1] + "…"
    try:
        return _REPR.repr(value)
    except Exception as exc:
        return f"<{error_text(exc)}>"


class _Failed:
    """An expression that could not be compiled: every evaluation gives its error."""

    __slots__ = ("text", "error")
    code = None
    nested = False

    def __init__(self, text, error):
        self.text = text
        self.error = error


def _compile(text):
    try:
        return compile_expression(text, _FILE)
    except (SyntaxError, Refused, ValueError) as exc:
        return _Failed(text, error_text(exc))


class Breakpoint:
    __slots__ = ("index", "line", "condition", "hits", "log", "parts", "count", "steps", "error")

    def __init__(self, index, spec, line_count):
        self.index = index
        if not isinstance(spec, dict):
            raise ValueError("a breakpoint must be an object with a line")
        line, hits = spec.get("line"), spec.get("hits")
        condition, log = spec.get("condition") or None, spec.get("log") or None
        if type(line) is not int or not 1 <= line <= line_count:
            raise ValueError(f"breakpoint line must be 1 to {line_count}, not {line!r}")
        if hits is not None and (type(hits) is not int or hits < 1):
            raise ValueError(f"a hit count must be a positive integer, not {hits!r}")
        for name, text in (("condition", condition), ("log message", log)):
            if text is not None and not isinstance(text, str):
                raise ValueError(f"a breakpoint's {name} must be text")
        self.line, self.hits = line, hits
        self.condition = _compile(condition) if condition else None
        self.log = log
        self.parts = None
        self.error = None
        if log is not None:
            try:
                self.parts = [p if isinstance(p, str) else _compile(p[0])
                              for p in template_parts(log)]
            except Refused as exc:
                self.error = error_text(exc)
        self.count = 0
        self.steps = []

    def result(self):
        return {"line": self.line,
                "condition": self.condition.text if self.condition else None,
                "hits": self.hits, "log": self.log, "steps": self.steps, "error": self.error}


class Probes:
    """Compiled probes of one recording; ``step`` is called by the TraceBuilder."""

    def __init__(self, spec, line_count):
        if not isinstance(spec, dict):
            raise ValueError("probes must be an object with breakpoints and watches")
        bps = spec.get("breakpoints") or []
        watches = spec.get("watches") or []
        if not isinstance(bps, list) or not isinstance(watches, list) \
                or not all(isinstance(w, str) and w.strip() for w in watches):
            raise ValueError("probes: breakpoints must be a list, watches a list of texts")
        self.breakpoints = [Breakpoint(k, b, line_count) for k, b in enumerate(bps)]
        self.watches = [_compile(w) for w in watches]
        ok = [w for w in self.watches if not isinstance(w, _Failed)]
        self.batch = compile_tuple(ok) if len(ok) > 1 else None
        # (watch id, its place in the batch's tuple, or None when evaluated alone)
        places = iter(range(len(ok)))
        self.positions = [(k, next(places) if self.batch is not None
                           and not isinstance(w, _Failed) else None)
                          for k, w in enumerate(self.watches)]
        self.by_span = {}
        self.log = []        # [step, breakpoint index, text, …]
        self.watch = []      # [step, [watch id, VALUE, …], …] where a watch changed
        self.previous = {}   # frame id → [(object, VALUE) per watch]
        self.scope = None
        self.merged = None

    @property
    def active(self):
        return bool(self.breakpoints or self.watches)

    def _breakpoints_of(self, span):
        # keyed by the statement's first line: one statement per first line in a frame
        # whose breakpoints are tested (lambdas and generator expressions are not)
        found = self.by_span.get(span[0])
        if found is None:
            found = self.by_span[span[0]] = [b for b in self.breakpoints
                                             if span[0] <= b.line <= span[1]]
        return found

    def _eval(self, compiled, frame):
        """(value, None) or (None, error text)."""
        code = compiled.code
        if code is None:
            return None, compiled.error
        if compiled.nested:
            # a comprehension binds its own names and looks up the others as globals:
            # it gets a copy of globals and locals together
            scope = self.merged
            if scope is None:
                scope = self.merged = {**frame.f_globals, **frame.f_locals}
            glob = scope
        else:
            # the frame's locals read in place: a checked expression without a
            # comprehension stores nothing (expressions.py)
            scope = self.scope
            if scope is None:
                scope = self.scope = frame.f_locals
            glob = frame.f_globals
        try:
            return eval(code, glob, scope), None
        except Exception as exc:
            return None, error_text(exc)

    def step(self, n, state, frame, event, span):
        """Evaluate what applies at step ``n`` (already appended) in ``frame``."""
        bps = ()
        if event == LINE and self.breakpoints and state.code.co_name not in _OWN_LINE:
            bps = self._breakpoints_of(span)
        if not bps and not self.watches:
            return
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = _SINK
        try:
            for bp in bps:
                self._breakpoint(bp, n, frame)
            if self.watches:
                self._watches(n, state, frame, event)
        finally:
            sys.stdout, sys.stderr = saved
            self.scope = self.merged = None

    def _breakpoint(self, bp, n, frame):
        if bp.condition is not None:
            value, error = self._eval(bp.condition, frame)
            if error is None:
                try:
                    holds = bool(value)
                except Exception as exc:
                    holds, error = False, error_text(exc)
            if error is not None:
                bp.error = bp.error or error
                return
            if not holds:
                return
        bp.count += 1
        if bp.hits is not None and bp.count != bp.hits:
            return
        bp.steps.append(n)
        if bp.log is not None:
            self.log += [n, bp.index, self._message(bp, frame)]

    def _message(self, bp, frame):
        if bp.parts is None:
            return f"<{bp.error}>"
        out = []
        for part in bp.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            value, error = self._eval(part, frame)
            if error is not None:
                bp.error = bp.error or error
                out.append(f"<{error}>")
            else:
                out.append(_text(value))
        return "".join(out)

    def _watches(self, n, state, frame, event):
        previous = self.previous.get(state.fid)
        if previous is None:
            count = len(self.watches)
            previous = self.previous[state.fid] = ([_MISSING] * count, [None] * count)
        last_values, last_texts = previous
        values = None
        if self.batch is not None:   # all at once; one by one only when one of them raises
            values, error = self._eval(self.batch, frame)
            if error is not None:
                values = None
        changed = None
        for k, position in self.positions:
            if values is not None and position is not None:
                value = values[position]
            else:
                value, error = self._eval(self.watches[k], frame)
                if error is not None:
                    value = _MISSING
                    encoded = {"error": error}
            if value is not _MISSING:
                if last_values[k] is value and type(value) in IMMUTABLE_SCALARS:
                    continue
                encoded = encode_fast(value)
            last_values[k] = value
            if encoded == last_texts[k]:
                continue
            last_texts[k] = encoded
            if changed is None:
                changed = [k, encoded]
            else:
                changed += (k, encoded)
        if changed is not None:
            self.watch += (n, changed)
        if event == RETURN and not state.generator:
            del self.previous[state.fid]

    def result(self):
        watch = []
        last = 0
        for k in range(0, len(self.watch), 2):
            n, changed = self.watch[k], self.watch[k + 1]
            watch += [n - last, len(changed) // 2, *changed]
            last = n
        return {"breakpoints": [b.result() for b in self.breakpoints],
                "log": self.log,
                "watches": [w.text for w in self.watches],
                "watch": watch}
