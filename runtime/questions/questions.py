"""Questions asked of a recording: breakpoint conditions and hit counts, logpoints, watches.

``Questions(spec)`` compiles the reader's expressions once (expressions.py); the
TraceBuilder calls ``step`` after each step it records, in the frame of that
step, and ``result()`` is the trace's ``probes`` key (docs/design.md, "Questions and answers"):

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
text is kept on the breakpoint; a watch's error text is its value. Evaluation is
a call of a function made for the expressions and the frame's current set of
local names (question_code.py): it reads the locals from the recorder's ``prev`` of
the step instead of ``frame.f_locals``, binds nothing in the frame, skips a watch
whose value cannot have changed, and writes into a sink instead of the program's
output, so the run's output and result are the same as without questions.
"""

import reprlib
import sys

from . import readonly
from .expressions import Refused, error_text, template_parts
from .code import Failed, Frame, compile_group
from ..trace.columns import OWN_LINE
from ..trace.values import MAX_CHARS, presented
from .watches import MAX_WATCHES, Watches

LINE = 1
RETURN = 2


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


def _text(value, folder):
    """A logpoint part's text: a string as itself, anything else as a bounded repr."""
    if type(value) is str:
        value = presented(value, folder)
        return value if len(value) <= MAX_CHARS else value[:MAX_CHARS - 1] + "…"
    try:
        return presented(_REPR.repr(value), folder)
    except Exception as exc:
        return f"<{error_text(exc)}>"


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
        self.condition = compile_group(condition) if condition else None
        self.log = log
        self.parts = None
        self.error = None
        if log is not None:
            try:
                self.parts = [p if isinstance(p, str) else compile_group(p[0])
                              for p in template_parts(log)]
            except Refused as exc:
                self.error = error_text(exc)
        self.count = 0
        self.steps = []

    def result(self):
        return {"line": self.line,
                "condition": self.condition.text if self.condition else None,
                "hits": self.hits, "log": self.log, "steps": self.steps, "error": self.error}


class Questions:
    """Compiled questions of one recording; ``step`` is called by the TraceBuilder."""

    def __init__(self, spec, line_count, output=None, folder=None):
        if not isinstance(spec, dict):
            raise ValueError("questions must be an object with breakpoints and watches")
        self.output = output   # the recorder's Output (its ``muted`` is set while evaluating)
        self.folder = folder   # values.Folder: the run's folder as the trace shows it
        bps = spec.get("breakpoints") or []
        watches = spec.get("watches") or []
        if not isinstance(bps, list) or not isinstance(watches, list) \
                or not all(isinstance(w, str) and w.strip() for w in watches):
            raise ValueError("questions: breakpoints must be a list, watches a list of texts")
        if len(watches) > MAX_WATCHES:
            raise ValueError(f"questions: at most {MAX_WATCHES} watches, not {len(watches)}")
        self.breakpoints = [Breakpoint(k, b, line_count) for k, b in enumerate(bps)]
        self.watches = Watches(watches, folder) if watches else None
        self.by_span = {}
        self.log = []        # [step, breakpoint index, text, …]

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

    def _eval(self, group, frame):
        """(tuple of values, None) or (None, error text)."""
        if isinstance(group, Failed):
            return None, group.error
        function = frame.functions.get(group) or frame.make_tuple(group)
        try:
            return function(frame.prev), None
        except Exception as exc:
            return None, error_text(exc)

    def step(self, n, state, frame, event, span):
        """Evaluate what applies at step ``n`` (already appended) in ``frame``."""
        bps = ()
        if event == LINE and self.breakpoints and state.code.co_name not in OWN_LINE:
            bps = self.by_span.get(span[0])
            if bps is None:
                bps = self._breakpoints_of(span)
        watches = self.watches
        if bps or watches is not None:
            entry = state.questions
            if entry is None or entry.prev is not state.prev:
                # the recorder makes a new ``prev`` whenever a name is bound or unbound
                entry = state.questions = Frame(state.prev, frame.f_globals, entry)
            # what an evaluation writes is dropped: the program's output muted while it
            # is sys.stdout and sys.stderr (as the recorder sets them), else swapped out
            out = self.output
            redirected = sys.stdout is not out or sys.stderr is not out
            if redirected:
                saved = sys.stdout, sys.stderr
                sys.stdout = sys.stderr = _SINK
            else:
                out.muted = True
            try:
                for bp in bps:
                    self._breakpoint(bp, n, entry)
                if watches is not None:
                    watches.step(n, entry)
            finally:
                readonly.fresh.clear()
                if redirected:
                    sys.stdout, sys.stderr = saved
                else:
                    out.muted = False

    def _breakpoint(self, bp, n, entry):
        if bp.condition is not None:
            values, error = self._eval(bp.condition, entry)
            if error is None:
                try:
                    value = values[0]
                    holds = bool(value if type(value) in readonly.PLAIN
                                 else readonly.truth(value, bp.condition.text))
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
            self.log += [n, bp.index, self._message(bp, entry)]

    def _message(self, bp, entry):
        if bp.parts is None:
            return f"<{bp.error}>"
        out = []
        for part in bp.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            values, error = self._eval(part, entry)
            if error is not None:
                bp.error = bp.error or error
                out.append(f"<{error}>")
            else:
                out.append(_text(values[0], self.folder))
        return "".join(out)

    def result(self):
        watches = self.watches
        return {"breakpoints": [b.result() for b in self.breakpoints],
                "log": self.log,
                "watches": watches.texts if watches is not None else [],
                "watch": watches.result() if watches is not None else []}
