"""Tool outputs answered from an imported recording (docs/recordings.md, "Recorded tool
outputs").

A recording imported from another tool (``imported_from``) holds the tool executions of
a run that happened elsewhere: the stand-in world cannot run them again to the same
results. ``RecordedTools`` answers a call of a handler reached through the lesson's
``[agent] tools`` from the recording when the recording holds it: an execution not yet
used of the model call whose answer the run acts on, of the same tool (a handler table's
key; a plain function: any), whose input is the call's (pairing.py: every handler shape —
``**kwargs``, ``*args``, lambdas, bound methods, callable objects, ``functools.partial``,
closures). The declared names are looked up again at every model call, so a table built
again (or a handler added) is answered too.

A call the recording does not hold runs the handler when the model call's answer asks
for a tool of its name that the recording holds no execution of (learn-claude-code
records no ``task`` execution: its handler is the subagent's own loop, which runs and is
stepped), or when no execution of its name is left; so does every call after a fork's
model call, and (threads) every call of a handler that starts a thread and every call in a
replay of a recording whose calls overlapped (interleave.py). Any other call stops the run (``ToolDivergence``: ``tool call not in the
recording at model call K: NAME(INPUT)``, the recorded execution beside it); a tolerant
replay answers it with the first such execution and marks it ``differs: "tool:NAME"``.
The handler gets a dispatcher for the run (runtime/agent/dispatch.py): the lesson's code
is untouched and the dispatcher stays out of the stacks. An answered call's record in the
trace says ``recorded`` and, when the source cut the output, ``source_cut``
(``{"length": N | None}``).
"""

import json

from ..agent.capture import lookup
from ..agent.dispatch import Dispatchers
from .interleave import starts_thread
from .pairing import pairs, shown_input, unwrap, views
from .replay import ToolDivergence, swap_text


class RecordedTools:
    """The tool executions of ``replay``'s recording (recording/replay.py), answering the
    handlers ``names`` (the ``[agent] tools``) of one run."""

    def __init__(self, replay, names):
        self.replay = replay
        self.names = tuple(names)
        self.executions = []       # (recorded call number, tool)
        self.by_call = {}          # recorded call number → indices in executions
        for number, call in enumerate(replay.calls, 1):
            for tool in call["tools"]:
                self.by_call.setdefault(number, []).append(len(self.executions))
                self.executions.append((number, tool))
        self.used = set()          # the executions answered
        self.answered = 0
        self.capture = None
        self.routes = {}           # function → [(key, bound args, bound keywords)]
        self.names_of = {}         # a handler's own code → its name in the capture
        self._dispatchers = Dispatchers()
        self._starters = {}        # function → whether it starts a thread (it runs)

    def install(self, namespace, capture=None):
        """Give the handlers found in ``namespace`` dispatchers; called again for the ones
        found since (a table built again, a handler added). Returns the codes the capture
        watches (empty without one)."""
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
                found = unwrap(member)
                if found is None:
                    continue
                function, args, keywords = found
                routes = self.routes.setdefault(function, [])
                if not any(k == key and len(a) == len(args) and all(
                        x is y for x, y in zip(a, args)) and kw.keys() == keywords.keys()
                        for k, a, kw in routes):
                    routes.append((key, args, keywords))
                code = function.__code__
                if code in made:
                    continue
                name = table.pop(code, None)
                if name is None:
                    name = self.names_of.get(code)
                self._starters[function] = starts_thread(function)   # before its code swaps
                dispatcher = self._dispatchers.install(function, self._answer)
                if name is not None:
                    self.names_of[code] = name
                    table[dispatcher] = name
        if capture is None:
            return set()
        return set(capture.model) | set(capture.tools) | set(capture.gates)

    def uninstall(self):
        self._dispatchers.uninstall()

    def _answer(self, frame, function):
        return self.answer(frame, function)

    def _shown(self):
        """A call's value as the recording has it (the run's folder as its ``cwd``)."""
        real, cwd = self.replay.real, self.replay.recording["cwd"]
        if not real or real == cwd:
            return lambda value: value
        return lambda value: swap_text(value, real, cwd)

    def answer(self, frame, function):
        """``(output,)`` when the recording holds this call, else None (it runs).
        ``ToolDivergence`` when the recording holds a call of this tool at this point of
        the run that this call is not (a tolerant replay answers the first by order)."""
        replay = self.replay
        if replay.forked or replay.stopped is not None or not replay.made:
            return None
        if replay.order is not None or self._starts(function):
            return None   # threads: the handler's effects reach them, so it runs
        number = replay.current   # the recorded call whose answer the run acts on
        waiting = [i for i in self.by_call.get(number, ()) if i not in self.used]
        if not waiting:
            return None
        shown = self._shown()
        readings = views(frame, function, self.routes.get(function), shown)
        keys = {view.key for view in readings}
        candidates = [i for i in waiting
                      if None in keys or self.executions[i][1]["name"] in keys]
        for index in candidates:
            if any(pairs(self.executions[index][1]["input"], view, shown) for view in readings):
                return self._give(frame, index)
        if not candidates or self._unrecorded(number, keys):
            return None
        tool = self.executions[candidates[0]][1]
        view = next((v for v in readings if v.key == tool["name"]), readings[0])
        name = view.key or function.__name__
        sent = f"{name}({shown_input(view)})"
        if replay.tolerant:
            return self._give(frame, candidates[0], differs=f"tool:{name}")
        raise replay.stop(ToolDivergence(number, name, sent, _execution(tool)))

    def _starts(self, function):
        return self._starters.get(function, False)

    def _unrecorded(self, number, keys):
        """Whether call ``number``'s response asks for a tool of ``keys`` (None: any)
        that the recording holds no execution of (learn-claude-code's ``task``)."""
        content = self.replay.calls[number - 1]["response"].get("content")
        asked = [block.get("name") for block in content if isinstance(block, dict)
                 and block.get("type") == "tool_use"] if isinstance(content, list) else []
        ran = [self.executions[i][1]["name"] for i in self.by_call.get(number, ())]
        for name in set(asked):
            if (None in keys or name in keys) and asked.count(name) > ran.count(name):
                return True
        return False

    def _give(self, frame, index, differs=None):
        self.used.add(index)
        self.answered += 1
        tool = self.executions[index][1]
        self._mark(frame, tool, differs)
        output = tool["output"]
        replay = self.replay
        cwd = replay.recording["cwd"]
        if replay.real and replay.real != cwd:
            output = swap_text(output, cwd, replay.real)
        return (output,)

    def _mark(self, frame, tool, differs=None):
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
        if differs is not None:
            record["differs"] = differs


def _execution(tool):
    """A recorded execution as a message shows it: ``NAME(INPUT) → OUTPUT``."""
    output = tool["output"]
    shown = output if len(output) <= 200 else output[:200] + "…"
    return (f"{tool['name']}({json.dumps(tool['input'], ensure_ascii=False)}) → "
            f"{json.dumps(shown, ensure_ascii=False)}")
