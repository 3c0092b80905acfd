"""Tool outputs answered from an imported recording (docs/recordings.md, "Recorded tool
outputs").

A recording imported from another tool (``imported_from``) holds the tool executions of
a run that happened elsewhere: the stand-in world cannot run them again to the same
results. ``RecordedTools`` answers a call of a handler named in the lesson's ``[agent]
tools`` from the recording when the recording holds it: the next execution not yet used,
after the model call the run is at, with the same input —

- a handler in a dict (``TOOL_HANDLERS["bash"]``) pairs by its key and input;
- a plain function (s01's ``run_bash(command)``) pairs by order, its arguments (by
  parameter name; a parameter left at its default may be absent) matched to the
  recorded input's keys.

Any other call runs the handler (learn-claude-code records no ``task`` execution: its
handler is the subagent's own loop, which runs and is stepped), and so does every call
after a fork's model call. The handler gets a dispatcher for the run
(runtime/agent/dispatch.py): the lesson's code is untouched and the dispatcher stays out
of the stacks. An answered call's record in the trace says ``recorded`` and, when the
source cut the output, ``source_cut`` (``{"length": N | None}``).
"""

import types

from ..agent.capture import code_of, lookup
from ..agent.dispatch import Dispatchers, parameters
from .replay import swap_text


def _defaults(function, code):
    posonly, positional, _star, kwonly, _starstar = parameters(code)
    named = (*posonly, *positional)
    found = dict(zip(named[len(named) - len(function.__defaults__ or ()):],
                     function.__defaults__ or ()))
    found.update(function.__kwdefaults__ or {})
    return found


def called_input(frame, function, bound=False):
    """The call's arguments by parameter name (``**kwargs`` merged in), and the defaults
    of the parameters; None when it passes extra positional arguments (``*args``)."""
    code = frame.f_code
    local = frame.f_locals
    posonly, positional, star, kwonly, starstar = parameters(code)
    if star and local.get(star):
        return None
    names = [*posonly, *positional][1 if bound else 0:] + list(kwonly)
    called = {name: local[name] for name in names if name in local}
    if starstar:
        called.update(local.get(starstar) or {})
    return called, _defaults(function, code)


def fits(recorded, called, defaults):
    """Whether a recorded input is the call's: every argument in it, or at its default."""
    if not isinstance(recorded, dict):
        return False
    for name, value in called.items():
        if name in recorded:
            if recorded[name] != value:
                return False
        elif name not in defaults or not (defaults[name] is value or defaults[name] == value):
            return False
    return all(name in called for name in recorded)


class RecordedTools:
    """The tool executions of ``replay``'s recording (recording/replay.py), answering the
    handlers ``names`` (the ``[agent] tools``) of one run."""

    def __init__(self, replay, names):
        self.replay = replay
        self.names = tuple(names)
        self.executions = [(number, tool) for number, call in enumerate(replay.calls, 1)
                           for tool in call["tools"]]
        self.next = 0              # the first execution not used yet
        self.answered = 0
        self.capture = None
        self._dispatchers = Dispatchers()

    def install(self, namespace, capture=None):
        """Give the named handlers found in ``namespace`` dispatchers; called again for
        the ones defined since. Returns the codes the capture watches (empty without
        one)."""
        self.capture = capture
        table = capture.tools if capture is not None else {}
        made = self._dispatchers.made
        for dotted in self.names:
            try:
                value = lookup(namespace, dotted)
            except (LookupError, AttributeError):
                continue
            members = value.items() if isinstance(value, dict) else [(None, value)]
            for key, member in members:
                function = getattr(member, "__func__", member)
                if not isinstance(function, types.FunctionType) or \
                        function.__code__ in made or function.__code__.co_freevars or \
                        code_of(member) is not function.__code__:
                    continue
                code = function.__code__
                bound = member is not function
                dispatcher = self._dispatchers.install(function, self._answer(key, bound))
                if code in table:
                    table[dispatcher] = table.pop(code)
        if capture is None:
            return set()
        return set(capture.model) | set(capture.tools)

    def uninstall(self):
        self._dispatchers.uninstall()

    def _answer(self, key, bound):
        def answer(frame, function):
            return self.answer(frame, function, key, bound)
        return answer

    def answer(self, frame, function, key=None, bound=False):
        """``(output,)`` when the recording holds this call next, else None (it runs)."""
        replay = self.replay
        if replay.forked or replay.stopped is not None or not replay.made:
            return None
        while self.next < len(self.executions) and self.executions[self.next][0] < replay.made:
            self.next += 1   # the executions of calls before this one were not asked for
        if self.next >= len(self.executions) or self.executions[self.next][0] != replay.made:
            return None
        tool = self.executions[self.next][1]
        if key is not None and tool["name"] != key:
            return None
        called = called_input(frame, function, bound)
        if called is None or not fits(tool["input"], *called):
            return None
        self.next += 1
        self.answered += 1
        self._mark(frame, tool)
        output = tool["output"]
        cwd = replay.recording["cwd"]
        if replay.real and replay.real != cwd:
            output = swap_text(output, cwd, replay.real)
        return (output,)

    def _mark(self, frame, tool):
        """The capture's record of this call says it was answered from the recording."""
        capture = self.capture
        if capture is None:
            return
        record = capture.pending.get(frame)
        if record is None and capture.tool_calls and capture.tool_calls[-1]["ret"] is None:
            record = capture.tool_calls[-1]   # a fork's dispatcher is the observed frame
        if record is None:
            return
        record["recorded"] = True
        if tool.get("cut"):
            record["source_cut"] = {"length": tool.get("length")}
