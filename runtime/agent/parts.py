"""Messages, content parts and tool results as bounded, JSON-safe data.

Lessons hand the model plain dicts (``{"type": "text", "text": …}``) or SDK-like
objects (``.type``, ``.text``, ``.name``, ``.input``, ``.id``, ``.content``,
``.stop_reason``); both normalise to the same data:

    MESSAGE = [ROLE, CONTENT]
    CONTENT = TEXT | [PART, …]
    PART    = TEXT                                   (a text part)
            | ["tool_use", ID, NAME, DATA]           (DATA: the input as plain JSON)
            | ["tool_result", ID, CONTENT, ERROR]    (ERROR: true or false)
            | ["thinking", TEXT, REDACTED]           (a thinking block; REDACTED: true or
                                                      false, its text then "")
            | ["raw", TEXT]                          (a block another tool kept only as
                                                      text: a recording's ``unknown``)
            | ["other", TYPE, TEXT]                  (any other part: its repr)

Texts longer than MAX_TEXT keep their first MAX_TEXT − 1 characters and end in
"…", like values do; containers keep MAX_ITEMS items, nested MAX_DEPTH deep.
"""

import json

from ..trace.values import MAX_DEPTH, MAX_ITEMS, leaf, presented

MAX_TEXT = 2000
_MISSING = object()


def field(obj, name, default=None):
    """``obj[name]`` of a dict, ``obj.name`` of anything else."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    try:
        return getattr(obj, name, default)
    except Exception:
        return default


_JSON_LEAVES = (str, int, float, bool, type(None))


def exact(value, recorded):
    """Whether ``recorded`` (``data(value)``) is ``value`` itself: plain JSON types all
    the way down (no tuple, object or non-text key) and nothing cut by the bounds."""
    kind = type(value)
    if kind in _JSON_LEAVES:
        return type(recorded) is kind and recorded == value and (
            kind is not float or value == value)
    if kind is dict:
        return type(recorded) is dict and len(recorded) == len(value) and all(
            type(k) is str and k in recorded and exact(v, recorded[k])
            for k, v in dict.items(value))
    if kind is list:
        return type(recorded) is list and len(recorded) == len(value) and all(
            exact(v, r) for v, r in zip(value, recorded))
    return False


def is_tool_use(value):
    return field(value, "type") == "tool_use" or (
        field(value, "name") is not None and field(value, "input", _MISSING) is not _MISSING
        and not isinstance(value, type))


class Parts:
    """The normalising functions of one run: texts shown as the trace shows them in its
    folder (``folder``: the run's values.Folder, or None)."""

    def __init__(self, folder=None):
        self.folder = folder

    def cut(self, text):
        text = presented(text, self.folder)
        return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"

    def _leaf_text(self, value):
        text = leaf(value, self.folder)
        return text if isinstance(text, str) else text[1]   # ["str", prefix, n] of a long str

    def text_of(self, value):
        return self.cut(value) if isinstance(value, str) else self._leaf_text(value)

    def data(self, value, depth=1):
        """``value`` as plain JSON (dicts, lists, strings, numbers, true/false/null)."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value if -2 ** 53 < value < 2 ** 53 else self._leaf_text(value)
        if isinstance(value, float):
            return value if value == value and abs(value) != float("inf") else repr(value)
        if isinstance(value, str):
            return self.cut(value)
        if isinstance(value, dict):
            if depth > MAX_DEPTH:
                return "{…}"
            items = list(dict.items(value))[:MAX_ITEMS]
            return {k if isinstance(k, str) else self._leaf_text(k): self.data(v, depth + 1) for k, v in items}
        if isinstance(value, (list, tuple)):
            if depth > MAX_DEPTH:
                return "[…]"
            return [self.data(v, depth + 1) for v in value[:MAX_ITEMS]]
        return self._leaf_text(value)

    def content(self, value):
        """A message's (or a tool result's) content: its text, or its parts."""
        if isinstance(value, str):
            return self.cut(value)
        if isinstance(value, (list, tuple)):
            return [self.part(item) for item in value[:MAX_ITEMS]]
        if value is None:
            return ""
        return [self.part(value)]

    def part(self, value):
        if isinstance(value, str):
            return self.cut(value)
        kind = field(value, "type")
        if kind == "text":
            return self.text_of(field(value, "text", ""))
        if kind == "tool_use":
            return ["tool_use", self.text_of(field(value, "id", "")), self.text_of(field(value, "name", "")),
                    self.data(field(value, "input"))]
        if kind == "tool_result":
            return ["tool_result", self.text_of(field(value, "tool_use_id", "")),
                    self.content(field(value, "content")), bool(field(value, "is_error", False))]
        if kind == "thinking":
            return ["thinking", self.text_of(field(value, "thinking", "")), False]
        if kind == "redacted_thinking":
            return ["thinking", "", True]
        if kind == "unknown" and isinstance(field(value, "raw"), str):
            return ["raw", self.text_of(field(value, "raw"))]
        return ["other", self.text_of(kind), self._leaf_text(value)]

    def _tool_call(self, value):
        """A Chat Completions tool call (``{"id", "function": {"name", "arguments"}}``) as a
        tool_use part; its JSON arguments as data."""
        function = field(value, "function")
        arguments = field(function, "arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                pass
        return ["tool_use", self.text_of(field(value, "id", "")), self.text_of(field(function, "name", "")),
                self.data(arguments)]

    def message(self, value):
        role = field(value, "role", _MISSING)
        if role is _MISSING:     # not a message: show what was passed as one user text
            return ["user", self.text_of(value)]
        if role == "tool":       # Chat Completions: a tool's answer, as a tool_result part
            return ["user", [["tool_result", self.text_of(field(value, "tool_call_id", "")),
                              self.content(field(value, "content")), False]]]
        shown = self.content(field(value, "content"))
        calls = field(value, "tool_calls")
        if isinstance(calls, (list, tuple)) and calls:   # Chat Completions: the assistant's calls
            shown = ([shown] if shown else []) if isinstance(shown, str) else shown
            shown = shown + [self._tool_call(call) for call in calls[:MAX_ITEMS]]
        return [self.text_of(role), shown]

    def response(self, value):
        """(stop reason, parts) of what a model call returned."""
        choices = field(value, "choices")
        if isinstance(choices, list) and choices:       # a Chat Completions response
            stop = field(choices[0], "finish_reason")
            return (None if stop is None else self.text_of(stop)), \
                self.message(field(choices[0], "message", {}))[1]
        stop = field(value, "stop_reason")
        parts = field(value, "content", _MISSING)
        if parts is _MISSING:
            parts = value
        return (None if stop is None else self.text_of(stop)), self.content(parts)

    def tool_result(self, value):
        """(content, error) of what a tool callable returned: a tool_result part, a dict
        holding one, or any other value (its text)."""
        candidates = [value]
        if isinstance(value, dict):
            candidates += list(value.values())[:MAX_ITEMS]
        for candidate in candidates:
            if field(candidate, "type") == "tool_result":
                return self.content(field(candidate, "content")), bool(field(candidate, "is_error", False))
        if isinstance(value, (str, list, tuple)):
            return self.content(value), False
        return self.text_of(value), False
