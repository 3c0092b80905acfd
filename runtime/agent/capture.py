"""Model calls and tool calls of a run, observed without touching the lesson's code.

The lesson's ``[agent]`` table (spec.py) names callables; after the setup and
the modules ran, ``Capture.resolve`` looks them up in the namespace and collects
their code objects (while they run, each stand-in model call looks them up already,
so a module's own REPL has its tool calls observed too), and the backend reports each call of one of those codes
(``on_start`` / ``on_return`` / ``on_unwind``, the frame holding the arguments).
Nothing is wrapped or replaced, so reprs, variables, stacks and outputs are the
same with and without capture.

A model call's message list (the list object passed) identifies its conversation.
A new list whose first call happens while another conversation's loop is running
(the outermost frame holding that list is still on the stack; in an asyncio task, the
stack of the tasks awaiting it too: runtime/trace/tasks.py) is one level deeper.
Messages are normalised (parts.py) once, when first seen, into a pool and
referenced by index: a later call of the same conversation reuses the indices of
the messages it shares with the previous call (same objects at the same places)
and normalises only the new ones. See docs/design.md, "Agent calls".
"""

import functools
import inspect
import sys

from . import parts
from .in_flight import InFlight
from .origins import Origins
from ..trace.tasks import outer_frames
from ..catalog.lessons import LessonError

MAX_CALLS = 20_000      # model calls and tool calls recorded per run, each
# The model calls a run may make before it is stopped (an agent whose model never stops
# asking for tools is the commonest runaway); a lesson's `max_model_calls` changes it.
DEFAULT_MAX_MODEL_CALLS = 100
DECISIONS = {"allow": "allow", "deny": "deny", "ask": "ask", True: "allow", False: "deny"}


def code_of(obj):
    """The code object run by calling ``obj`` (function, bound method, callable object,
    ``functools.partial`` of one)."""
    while isinstance(obj, functools.partial):
        obj = obj.func
    target = getattr(obj, "__func__", obj)
    code = getattr(target, "__code__", None)
    if code is None and not isinstance(obj, type):
        call = getattr(type(obj), "__call__", None)  # noqa: B004  (the method itself, not a test)
        code = getattr(getattr(call, "__func__", call), "__code__", None)
    return code


def lookup(namespace, dotted):
    head, *rest = dotted.split(".")
    if head not in namespace:
        raise LookupError(f"{head!r} is not defined")
    value = namespace[head]
    for name in rest:
        if isinstance(value, dict) and name in value:
            value = value[name]
        else:
            value = getattr(value, name)
    return value


def _arguments(frame):
    """The call's arguments, by name, in signature order (read at the call's start)."""
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    names = code.co_varnames[:count]
    local = frame.f_locals
    return {name: local[name] for name in names if name in local}


class _Conversation:
    __slots__ = ("index", "messages", "objects", "ids", "anchor")

    def __init__(self, index, messages, anchor):
        self.index = index
        self.messages = messages      # the list object (kept alive: its id stays unique)
        self.objects = []             # message objects as of the last call
        self.ids = []                 # their pool indices
        self.anchor = anchor          # the outermost frame holding the list


class Capture:
    def __init__(self, lesson_id, spec, builder, strict=True, stand_ins=None,
                 max_model_calls=DEFAULT_MAX_MODEL_CALLS):
        self.where = f"{lesson_id}/lesson.toml [agent]"
        self.max_model_calls = max_model_calls
        self.strict = strict          # False: a name the (reader's) setup lacks is skipped
        self.spec = spec
        self.builder = builder
        # code → declared name; the stand-in clients' create methods (runtime/standins)
        # are model calls without being declared
        self.model = dict(stand_ins or {})
        self.tools = {}               # code → tool name, or None (from the call's tool_use)
        self.gates = {}               # code → the gate's declared name ([agent] gate)
        self.decisions = []           # [STEP, TOOL, DECISION, DEPTH] per call of the gate
        self.pending = {}             # frame → call record
        self.conversations = []       # [depth, parent]
        self.lists = {}               # id(list) → _Conversation
        self.by_index = []
        self.pool = []                # normalised messages
        self.contents = {}            # id(response content) → (object, pool index)
        self.calls = []
        self.tool_calls = []
        self.early = None             # (namespace, rewatch) while the setup and modules run
        self.fork = None              # the run's Fork (forks.py), installed as names are found
        self.recorded = None          # a recording's tool outputs (recording/tools.py), too
        self.refresh = None           # (namespace, rewatch): its handlers found again per call
        self.origins = Origins(builder)   # where messages came from (origins.py)
        self.in_flight = InFlight(self)   # calls never answered (in_flight.py)
        self.parts = parts.Parts(builder.folder)   # messages as the trace shows them

    # -- set-up ------------------------------------------------------------------
    def resolve(self, namespace):
        """Find the declared callables' code objects; return them all."""
        for kind, names, table in (("model", self.spec.model, self.model),
                                   ("tools", self.spec.tools, self.tools)):
            for dotted in names:
                try:
                    value = lookup(namespace, dotted)
                except (LookupError, AttributeError) as error:
                    if not self.strict:
                        continue
                    raise LessonError(self.where, f"{kind}: {dotted!r} not found after the "
                                                  f"setup and the modules ran ({error})") from None
                entries = value.items() if isinstance(value, dict) else [(None, value)]
                for key, member in entries:
                    code = code_of(member)
                    if code is None and not self.strict:
                        continue
                    if code is None:
                        shown = dotted if key is None else f"{dotted}[{key!r}]"
                        raise LessonError(self.where, f"{kind}: {shown} is not a Python "
                                                      f"function ({type(member).__name__})")
                    name = key if key is not None else dotted.rsplit(".", 1)[-1]
                    table.setdefault(code, name if kind == "tools" else dotted)
        if self.spec.gate is not None:
            try:
                code = code_of(lookup(namespace, self.spec.gate))
            except (LookupError, AttributeError) as error:
                code = None
                if self.strict:
                    raise LessonError(self.where, f"gate: {self.spec.gate!r} not found after the "
                                                  f"setup and the modules ran ({error})") from None
            if code is None and self.strict:
                raise LessonError(self.where, f"gate: {self.spec.gate} is not a Python function")
            if code is not None:
                self.gates[code] = self.spec.gate
        return set(self.model) | set(self.tools) | set(self.gates)

    def _resolve_early(self):
        """While the modules run (a ``__main__`` REPL driving the loop), each model call
        looks the declared names up again, leniently, so the tools that the model may ask
        for next are observed as soon as the module defined them."""
        namespace, rewatch = self.early
        known = set(self.model) | set(self.tools) | set(self.gates)
        strict, self.strict = self.strict, False
        try:
            codes = self.resolve(namespace)
            if self.recorded is not None:
                codes = self.recorded.install(namespace, self)
            if self.fork is not None:
                codes = self.fork.install(self, namespace, early=True)
        finally:
            self.strict = strict
        if codes != known:
            rewatch(codes)

    def _refresh(self):
        """At each model call of a replay with recorded tool outputs: the handlers that a
        table built again (or a handler added) holds get their dispatchers."""
        namespace, rewatch = self.refresh
        known = set(self.model) | set(self.tools) | set(self.gates)
        strict, self.strict = self.strict, False
        try:
            self.resolve(namespace)
            codes = self.recorded.install(namespace, self)
            if self.fork is not None:
                codes = self.fork.install(self, namespace, early=True)
        finally:
            self.strict = strict
        if codes != known:
            rewatch(codes)

    def stand_in_ran(self):
        """The stand-in world answered a command (runtime/standins/process.py): the tool
        call running, the innermost, says its output is the stand-in's."""
        for record in reversed(self.tool_calls):
            if record["ret"] is None:
                record["stand_in"] = True
                return

    def _step(self):
        return max(len(self.builder.cols.event) - 1, 0)

    # -- events from the backend ---------------------------------------------------
    def on_start(self, frame):
        if self.builder.stopped:
            return
        code = frame.f_code
        if code in self.model:
            if self.early is not None:
                self._resolve_early()
            elif self.refresh is not None:
                self._refresh()
            cap = self.max_model_calls
            if len(self.calls) >= cap:
                self.builder.cap_reached("model_calls", cap, (
                    f"stopped at model call {cap + 1}: the model-call limit is {cap}; raise "
                    "it with max_model_calls = N in lesson.toml"))
            if len(self.calls) < MAX_CALLS:
                self.origins.check(len(self.builder.cols.event))
                self.pending[frame] = self._model_call(frame)
        elif code in self.tools and len(self.tool_calls) < MAX_CALLS:
            self.pending[frame] = self._tool_call(frame, self.tools[code])
        if code in self.gates and len(self.decisions) < MAX_CALLS:
            self.pending[frame] = self._decision(frame)

    def on_return(self, frame, value):
        record = self.pending.pop(frame, None)
        if record is None:
            return
        if isinstance(record, list):      # a gate's decision: its return value
            decision = DECISIONS.get(value) if isinstance(value, (str, bool)) else None
            if decision is None:
                self.decisions.remove(record)
            else:
                record[2] = decision
            return
        record["ret"] = len(self.builder.cols.event)
        if "conversation" in record:
            stop, content = self.parts.response(value)
            record["stop_reason"] = stop
            record["response"] = self._add(["assistant", content])
            source = parts.field(value, "content")
            if isinstance(source, list):
                self.contents[id(source)] = (source, record["response"])
        else:
            record["result"], record["error"] = self.parts.tool_result(value)
            record["returned"] = self.parts.data(value)
            record["cut"] = not parts.exact(value, record["returned"])

    def on_unwind(self, frame, exc):
        record = self.pending.pop(frame, None)
        if record is None or self.builder.stopped:
            return
        if isinstance(record, list):      # a gate that raised decided nothing
            self.decisions.remove(record)
            return
        record["ret"] = len(self.builder.cols.event)
        error = {"type": type(exc).__name__, "message": self.parts.text_of(str(exc))} \
            if exc is not None else {"type": "Exception", "message": ""}
        if "conversation" in record:
            record["error"] = error
        else:
            record["result"] = f"{error['type']}: {error['message']}"
            record["error"] = True

    # -- records -------------------------------------------------------------------
    def _add(self, normalised):
        self.pool.append(normalised)
        return len(self.pool) - 1

    def _message_id(self, message):
        role = parts.field(message, "role")
        source = parts.field(message, "content")
        known = self.contents.get(id(source))
        if role == "assistant" and known is not None and known[0] is source:
            return known[1]
        return self._add(self.parts.message(message))

    def _model_call(self, frame):
        arguments = _arguments(frame)
        messages = arguments.get("messages")
        if not isinstance(messages, list):
            messages = next((v for v in arguments.values() if isinstance(v, list)), [])
        conversation = self.lists.get(id(messages))
        if conversation is None or conversation.messages is not messages:
            conversation = self._open(frame, messages)
        objects, ids = conversation.objects, conversation.ids
        known = len(objects)
        if not (len(messages) >= known and (known == 0 or (
                messages[0] is objects[0] and messages[known - 1] is objects[-1]))):
            known = 0
            while known < min(len(objects), len(messages)) and messages[known] is objects[known]:
                known += 1
            del objects[known:], ids[known:]
        for message in messages[known:]:
            objects.append(message)
            ids.append(self._message_id(message))
        record = {"step": self._step(), "ret": None, "conversation": conversation.index,
                  "messages": list(ids), "new": len(ids) - known, "stop_reason": None,
                  "response": None, "error": None}
        self.calls.append(record)
        self.in_flight.began(record, len(self.origins.changed),
                              getattr(self.builder, "thread", 0))
        self.origins.sent(conversation.index, frame, messages, ids, known)
        return record

    def _open(self, frame, messages):
        """A new conversation: its anchor frame and its parent (a running outer loop)."""
        chain = outer_frames(frame)   # in an asyncio task: the tasks awaiting it too
        anchor_at = 0
        for at, candidate in enumerate(chain):
            if any(value is messages for value in candidate.f_locals.values()):
                anchor_at = at
        anchor = chain[anchor_at] if chain else frame
        parent = None
        for at in range(anchor_at + 1, len(chain)):
            parent = next((c for c in reversed(self.by_index) if c.anchor is chain[at]), None)
            if parent is not None:
                break
        index = len(self.conversations)
        depth = 0 if parent is None else self.conversations[parent.index][0] + 1
        self.conversations.append([depth, None if parent is None else parent.index])
        conversation = _Conversation(index, messages, anchor)
        self.lists[id(messages)] = conversation
        self.by_index.append(conversation)
        return conversation

    def _tool_call(self, frame, name):
        arguments = _arguments(frame)
        block = next((v for v in arguments.values() if parts.is_tool_use(v)), None)
        if block is not None:
            name = self.parts.text_of(parts.field(block, "name", name))
            ident = parts.field(block, "id")
            tool_input = parts.field(block, "input")
        else:
            ident = None
            tool_input = {k: v for k, v in arguments.items() if k != "self"}
            if len(arguments) == 1 and isinstance(next(iter(arguments.values())), dict):
                tool_input = next(iter(arguments.values()))
        record = {"step": self._step(), "ret": None, "name": name,
                  "id": None if ident is None else self.parts.text_of(ident),
                  "input": self.parts.data(tool_input), "result": None, "error": False,
                  "returned": None, "cut": False, "recorded": False, "source_cut": None}
        self.tool_calls.append(record)
        return record

    def _decision(self, frame):
        """A call of the gate: [STEP, TOOL, DECISION (set when it returns), DEPTH]."""
        arguments = _arguments(frame)
        block = next((v for v in arguments.values() if parts.is_tool_use(v)), None)
        if block is not None:
            name = parts.field(block, "name", None)
        else:
            name = next((v for v in arguments.values() if isinstance(v, str)), None)
        if name is None:
            running = [r for r in self.pending.values() if isinstance(r, dict) and "name" in r]
            name = running[-1]["name"] if running else None
        record = [self._step(), None if name is None else self.parts.text_of(name), None,
                  self.depth_at(frame)]
        self.decisions.append(record)
        return record

    def depth_at(self, frame=None):
        """The depth of the innermost conversation whose loop ``frame`` runs inside (its
        anchor frame is on the stack); 0 outside every conversation."""
        anchors = {id(c.anchor): self.conversations[c.index][0] for c in self.by_index}
        frame = sys._getframe(1) if frame is None else frame
        depth = anchors.get(id(frame), 0)
        for outer in outer_frames(frame):
            depth = max(depth, anchors.get(id(outer), 0))
        return depth

    def last_depth(self):
        """The conversation depth of the latest model call (0 before any)."""
        return self.conversations[self.calls[-1]["conversation"]][0] if self.calls else 0

    # -- result --------------------------------------------------------------------
    def result(self, threads=()):
        """The ``agent`` part of the trace (dict form), or None when nothing was called.
        ``threads``: the run's thread names, by index (in_flight.py)."""
        self.in_flight.ended()
        flying = self.in_flight.result(list(threads))
        if not self.calls and not self.tool_calls and not flying:
            return None
        added, changed = self.origins.result(len(self.pool))
        agent = {"conversations": [{"depth": d, "parent": p} for d, p in self.conversations],
                 "messages": self.pool, "calls": self.calls, "tools": self.tool_calls,
                 "added": added, "changed": self.in_flight.changed(changed)}
        if flying:
            agent["in_flight"] = flying
        return agent
