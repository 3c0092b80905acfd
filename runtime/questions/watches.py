"""Watch expressions: evaluated at every step of the displayed function's frames and
stored, like locals, only where a watch's value in that frame changed.

The watches that compile are evaluated together by one generated function per frame and
set of bound names (question_code.watch_function), which skips a watch whose inputs are the
same immutable objects as at the frame's previous step and calls ``note`` for the others;
a watch that does not compile shows its error, which never changes. A watch that raises
shows ``{"error": text}`` as its value.
"""

from .expressions import error_text
from .code import Failed, Group, compile_group
from ..trace.steps import encode_fast
from ..trace.values import IMMUTABLE_SCALARS

# The most watches a recording evaluates: more are refused (the page's model/questions.js
# MAX_WATCHES leaves a link's further watches out; tests/test_watches.py holds the two equal).
MAX_WATCHES = 50

_MISSING = object()
_EQUAL_IS_SAME = (int, str, bytes)   # types whose equal values show the same text


class _Values:
    """One frame's watches: each one's last value and VALUE, and what changed at a step."""

    __slots__ = ("out", "texts", "changed", "ids", "folder")

    def __init__(self, ids, folder):
        self.ids = ids                       # watch id of each evaluated watch
        self.folder = folder                 # values.Folder of the run, or None
        self.out = [_MISSING] * len(ids)     # its last value
        self.texts = [None] * len(ids)       # its last VALUE
        self.changed = None                  # [watch id, VALUE, …] at this step

    def note_failed(self, k, encoded):
        """Watch ``k`` did not compile: its error is its value."""
        self.changed = [k, encoded] if self.changed is None else self.changed + [k, encoded]

    def note(self, k, value, exc=None):
        """Watch ``k`` evaluated to ``value`` (or raised ``exc``) at this step."""
        out = self.out
        if exc is not None:
            out[k] = _MISSING
            encoded = {"error": error_text(exc)}
        else:
            last = out[k]
            out[k] = value
            kind = type(value)
            if last is value:
                if kind in IMMUTABLE_SCALARS:
                    return
            elif kind in _EQUAL_IS_SAME and type(last) is kind and value == last:
                return
            encoded = encode_fast(value, self.folder)
        if encoded == self.texts[k]:
            return
        self.texts[k] = encoded
        if self.changed is None:
            self.changed = [self.ids[k], encoded]
        else:
            self.changed += (self.ids[k], encoded)


class Watches:
    """The watches of one recording; ``step`` evaluates them in a frame."""

    def __init__(self, texts, folder=None):
        self.folder = folder
        self.compiled = [compile_group(text) for text in texts]
        ids = [k for k, w in enumerate(self.compiled) if not isinstance(w, Failed)]
        self.ids = ids
        self.failed = [(k, {"error": w.error}) for k, w in enumerate(self.compiled)
                       if isinstance(w, Failed)]
        self.batch = Group([self.compiled[k].parts[0] for k in ids]) if ids else None
        self.watch = []      # [step, [watch id, VALUE, …], …] where a watch changed

    @property
    def texts(self):
        return [w.text for w in self.compiled]

    def step(self, n, frame):
        """Evaluate the watches at step ``n`` in ``frame`` (a question_code.Frame)."""
        function = frame.watch
        if function is not None:
            for name in frame.builtins:   # a global shadowing a builtin the watches call
                if name in frame.globals:
                    function(True)
                    break
            else:
                function()
        else:
            if frame.values is None:   # the frame's first step
                frame.values = _Values(self.ids, self.folder)
                for k, encoded in self.failed:
                    frame.values.note_failed(k, encoded)
            if self.batch is not None:
                frame.make_watch(self.batch)(True)
        values = frame.values
        if values.changed is not None:
            self.watch += (n, values.changed)
            values.changed = None

    def result(self):
        """The ``watch`` column: [steps since the previous entry, count, id, VALUE, …]."""
        watch = []
        last = 0
        for k in range(0, len(self.watch), 2):
            n, changed = self.watch[k], self.watch[k + 1]
            watch += [n - last, len(changed) // 2, *changed]
            last = n
        return watch
