"""The columns a trace's steps are stored in, and the state the builder keeps per frame.

``steps.TraceBuilder`` appends to ``Columns``; ``wire.py`` turns them into the dict
form or the packed form of docs/design.md.
"""

import inspect

from .names import hider

_GENERATOR_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
COROUTINE_FLAGS = inspect.CO_COROUTINE | inspect.CO_ITERABLE_COROUTINE
OWN_LINE = frozenset({"<lambda>", "<genexpr>"})   # functions numbered on their own lines


class Columns:
    """The steps of one trace, by field.

    ``event`` (bytearray of CALL/LINE/RETURN/EXCEPTION), ``line`` and ``row`` have
    one entry per step; ``row`` indexes ``frames``, whose rows are
    ``[frame id, function name, depth, stack]``. The rest is sparse:
    ``end`` {step: last line} where it differs from ``line``; ``out`` [step, units,
    …] where stdout's length changed (it starts at 0); ``sets`` [step, [name,
    VALUE, …], …] where locals changed; ``dels`` {step: [name, …]}; ``rets``
    {step: VALUE}; ``excs`` {step: {"type", "message"}}; ``thread`` {step: thread index}
    where the running thread (or asyncio task, world/aio_tasks.py) changed (from 0).
    Lines are relative to the displayed function (file lines in a method's and a
    ``symbols`` block).
    """

    __slots__ = ("event", "line", "row", "frames", "end", "out", "sets", "dels", "rets", "excs",
                 "thread")

    def __init__(self):
        self.event = bytearray()
        self.line = []
        self.row = []
        self.frames = []
        self.end = {}
        self.out = []
        self.sets = []
        self.dels = {}
        self.rets = {}
        self.excs = {}
        self.thread = {}

    def __len__(self):
        return len(self.event)


class FrameState:
    __slots__ = ("fid", "code", "spans", "stack", "depth", "row", "prev", "last_event",
                 "last_span", "exc", "generator", "coroutine", "hidden", "questions")

    def __init__(self, fid, code, spans):
        self.fid = fid
        self.code = code
        self.spans = spans
        self.generator = bool(code.co_flags & _GENERATOR_FLAGS)
        # a coroutine's suspensions at an await are no steps (docs/design.md, "Coroutines")
        self.coroutine = bool(code.co_flags & COROUTINE_FLAGS)
        self.hidden = hider(code)   # None, or the rule of names its frames leave out
        self.prev = {}
        self.stack = 0
        self.depth = 0
        self.row = -1
        self.last_event = None
        self.last_span = None
        self.exc = None
        self.questions = None   # questions.py's evaluation state of this frame (a question_code.Frame)
