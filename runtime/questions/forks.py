"""A fork: the run again, with one model call or one tool call answering a given value.

``Fork.parse({"call": "model:K" | "tool:K", "value": JSON})``: the K-th model call (or
tool call) of the run, counted as the agent part counts them (agent.py: in the order the
calls start, 1-based as the conversation panel shows them), returns ``value`` instead of
running. Every other call runs as before; the lesson's code is not touched.

How the call answers without running (docs/design.md, "Forks"):

- a declared function of the setup (``ask``, a tool handler) gets, for this run only,
  a dispatcher as its ``__code__`` (runtime/agent/dispatch.py): the same parameters,
  the same function object (so
  every reference to it — a handler table, a ``SimpleNamespace`` — reaches it). The
  recorder observes the dispatcher's code under the declared name, so each call is
  recorded once, with its arguments; the dispatcher answers the forked call itself and
  runs every other call with the function's own code (a twin function: same globals,
  defaults and name), observed as before;
- a stand-in SDK client (runtime/standins) is asked: its ``create`` answers the forked
  call with the SDK object built from the value (``Fork.answer``), without calling the
  setup's reply function.
"""

import copy
import types

from ..agent.capture import code_of, lookup
from ..agent.dispatch import Dispatchers

KINDS = {"model": "calls", "tool": "tool_calls"}
MAX_INDEX = 20_000


class ForkError(ValueError):
    """A fork that cannot run: the reason is for the reader."""


class Fork:
    def __init__(self, kind, index, value):
        self.kind = kind          # "model" or "tool"
        self.index = index        # 1-based
        self.value = value
        self.capture = None
        self.keep = set()         # the stand-in clients' codes: they ask ``answer`` themselves
        self.applied = False
        self._dispatchers = Dispatchers()

    @property
    def call(self):
        return f"{self.kind}:{self.index}"

    @classmethod
    def parse(cls, raw):
        """The Fork of ``{"call": "model:K", "value": …}``; ForkError when it is not one."""
        if not isinstance(raw, dict) or set(raw) != {"call", "value"}:
            raise ForkError('a fork is {"call": "model:K" | "tool:K", "value": JSON}')
        kind, _, number = str(raw["call"]).partition(":")
        if kind not in KINDS or not number.isdigit() or not 1 <= int(number) <= MAX_INDEX:
            raise ForkError(f"the forked call {raw['call']!r} is not model:K or tool:K "
                            f"(K from 1)")
        value = raw["value"]
        if kind == "model":
            check_response(value)
        return cls(kind, int(number), value)

    def to_dict(self):
        return {"call": self.call, "applied": self.applied}

    # -- during the run ------------------------------------------------------------
    def due(self, frame):
        """Whether the call running in ``frame`` (just recorded) is the forked one."""
        capture = self.capture
        if capture is None or self.applied:
            return False
        record = capture.pending.get(frame)
        calls = getattr(capture, KINDS[self.kind])
        return record is not None and len(calls) >= self.index and \
            calls[self.index - 1] is record

    def answer(self, frame):
        """The forked value (a fresh copy) when ``frame`` runs the forked call, else None."""
        if not self.due(frame):
            return None
        self.applied = True
        return (copy.deepcopy(self.value),)

    def install(self, capture, namespace, early=False):
        """Point the declared functions of the forked kind at dispatchers; return the
        codes the backend watches from now on. Called again for the functions found
        since (``early``: while the modules run, at each stand-in model call, so a
        module's own REPL has its calls forked too; a closure is refused only after)."""
        self.capture, keep = capture, self.keep
        table = capture.model if self.kind == "model" else capture.tools
        names = capture.spec.model if self.kind == "model" else capture.spec.tools
        made = self._dispatchers.made
        for dotted in names:
            try:
                value = lookup(namespace, dotted)
            except (LookupError, AttributeError):
                continue
            members = value.values() if isinstance(value, dict) else [value]
            for member in members:
                function = getattr(member, "__func__", member)
                code = code_of(member)
                if code in keep or code in made or code not in table or \
                        not isinstance(function, types.FunctionType) or \
                        function.__code__ is not code:
                    continue
                if code.co_freevars:
                    if early:
                        continue
                    raise ForkError(f"{dotted} is a closure: a fork cannot answer for it")
                dispatcher = self._dispatchers.install(function, self._answer)
                table[dispatcher] = table[code]
        for code in self._dispatchers.replaced():
            table.pop(code, None)
        return set(capture.model) | set(capture.tools) | set(capture.gates)

    def uninstall(self):
        self._dispatchers.uninstall()

    def _answer(self, frame, _function):
        return self.answer(frame)


def check_response(value):
    """A model call's forked response must be a JSON object of its parts, the Messages
    API shape: ``{"content": [block, …] | "text", "stop_reason": …}``."""
    if not isinstance(value, dict):
        raise ForkError(f"a model call's response is a JSON object "
                        f'{{"stop_reason": …, "content": […]}}, not {_kind(value)}')
    content = value.get("content", [])
    if not isinstance(content, (list, str)):
        raise ForkError('a model call\'s "content" is a list of blocks or a text, not '
                        f"{_kind(content)}")
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, (dict, str)) or \
                (isinstance(block, dict) and not isinstance(block.get("type"), str)):
            raise ForkError(f'each content block is a JSON object with a "type", not '
                            f"{block!r}")


def _kind(value):
    return {list: "a list", str: "a text", bool: "true/false", type(None): "null"}.get(
        type(value), "a number")
