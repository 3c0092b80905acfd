"""The stand-in ``anthropic`` module: ``Anthropic(**any).messages.create(**request)``
(and ``await AsyncAnthropic(**any).messages.create(**request)``) answers with the
setup's reply function, as SDK-shaped objects.

``reply(**request)`` gets exactly the keyword arguments of the lesson's call and
returns a ``Message``, a text, a list of content blocks, or a dict in the Messages API
shape: ``{"content": [{"type": "text", "text": …}, {"type": "tool_use", "name": …,
"input": {…}}], "stop_reason": …}``. Missing fields are filled in: ids (``msg_001``,
``toolu_001``, … counted per run), ``model`` (the request's), ``role``, ``type``,
``usage`` (zeros) and ``stop_reason`` (``tool_use`` when a block asks for a tool, else
``end_turn``). Nothing is sent anywhere.
"""

import sys
import types

from .sdk import AsyncClient, Client, errors, field, known, model, model_answer, reply_function

NAME = "anthropic"
_T = "anthropic.types"

Usage = model(_T, "Usage", [("input_tokens", 0), ("output_tokens", 0)])
TextBlock = model(_T, "TextBlock", [("citations", None), ("text", ""), ("type", "text")])
# `caller` as in the SDK the published course runs were made with (their blocks carry it)
ToolUseBlock = model(_T, "ToolUseBlock", [("id", ""), ("caller", None), ("input", None),
                                          ("name", ""), ("type", "tool_use")])
ThinkingBlock = model(_T, "ThinkingBlock", [("signature", ""), ("thinking", ""),
                                            ("type", "thinking")])
RedactedThinkingBlock = model(_T, "RedactedThinkingBlock", [("data", ""),
                                                            ("type", "redacted_thinking")])
# a block another tool kept only as its text (an imported recording, recording/)
UnknownBlock = model(_T, "UnknownBlock", [("raw", ""), ("type", "unknown")])
Message = model(_T, "Message", [("id", ""), ("content", None), ("model", ""),
                                ("role", "assistant"), ("stop_reason", None),
                                ("stop_sequence", None), ("type", "message"),
                                ("usage", None)])
_BLOCKS = {"text": TextBlock, "tool_use": ToolUseBlock, "thinking": ThinkingBlock,
           "redacted_thinking": RedactedThinkingBlock, "unknown": UnknownBlock}


ERRORS = errors(NAME)


def _block(item, context, lenient=False):
    if isinstance(item, tuple(_BLOCKS.values())):
        return item
    if isinstance(item, str):
        return TextBlock(text=item)
    kind = field(item, "type")
    if not isinstance(item, dict) or kind not in _BLOCKS:
        raise ValueError(f"reply: a content block must be a text or a dict of type "
                         f"{', '.join(_BLOCKS)}, not {item!r}")
    values = dict(item)
    if kind == "tool_use":
        values.setdefault("id", context.ids.next("toolu"))
        values.setdefault("input", {})
    if lenient:
        values = known(_BLOCKS[kind], values)
    return _BLOCKS[kind](**values)


def message(answer, request, context, lenient=False):
    """The Message for what ``reply`` returned (``lenient``: a provider's JSON, whose
    fields the stand-in does not declare are left out)."""
    if isinstance(answer, Message):
        return answer
    if isinstance(answer, (str, list)):
        answer = {"content": answer}
    if not isinstance(answer, dict):
        raise TypeError(f"reply must return a Message, a text, a list of blocks or a dict, "
                        f"not {type(answer).__name__}")
    values = known(Message, answer) if lenient else dict(answer)
    content = values.get("content", [])
    content = [content] if isinstance(content, str) else list(content)
    values["content"] = [_block(item, context, lenient) for item in content]
    values.setdefault("id", context.ids.next("msg"))
    values.setdefault("model", request.get("model", ""))
    if isinstance(values.get("usage"), dict):
        values["usage"] = Usage(**(known(Usage, values["usage"]) if lenient else values["usage"]))
    values.setdefault("usage", Usage())
    values.setdefault("stop_reason", "tool_use" if any(
        b.type == "tool_use" for b in values["content"]) else "end_turn")
    return Message(**values)


class Messages:
    def __init__(self, context):
        self._context = context

    def create(self, *, messages=None, **request):
        """The model call: the recorder records it as one (runtime/agent/capture.py)."""
        context = self._context
        # a fork, a recording or a live model may answer (sdk.model_answer)
        answer = model_answer(context, NAME, sys._getframe(), dict(request, messages=messages))
        if answer is not None:
            return message(answer[0], request, context, len(answer) > 1)
        reply = reply_function(context.namespace, context.model)
        return message(reply(messages=messages, **request), request, context)


class AsyncMessages(Messages):
    async def create(self, *, messages=None, **request):
        """The awaited model call, answered as ``Messages.create`` answers (it does not
        suspend: the run's other tasks go on once it returned)."""
        context = self._context
        answer = model_answer(context, NAME, sys._getframe(), dict(request, messages=messages))
        if answer is not None:
            return message(answer[0], request, context, len(answer) > 1)
        reply = reply_function(context.namespace, context.model)
        return message(reply(messages=messages, **request), request, context)


def build(context):
    """A fresh ``anthropic`` module (and ``anthropic.types``) for one run."""
    module = types.ModuleType(NAME, "Stand-in for the Anthropic SDK (loopstep).")
    type_module = types.ModuleType(_T)

    class Anthropic(Client):
        def __init__(self, *_args, **options):
            self.api_key = options.get("api_key")
            self.base_url = options.get("base_url")
            self.messages = Messages(context)

    class AsyncAnthropic(AsyncClient):
        def __init__(self, *_args, **options):
            self.api_key = options.get("api_key")
            self.base_url = options.get("base_url")
            self.messages = AsyncMessages(context)

    for cls in (Anthropic, AsyncAnthropic):
        cls.__module__, cls.__qualname__ = NAME, cls.__name__
    for cls in (Usage, TextBlock, ToolUseBlock, ThinkingBlock, RedactedThinkingBlock, Message):
        setattr(type_module, cls.__name__, cls)
        setattr(module, cls.__name__, cls)
    for cls in ERRORS.values():
        setattr(module, cls.__name__, cls)
    module.Anthropic, module.AsyncAnthropic = Anthropic, AsyncAnthropic
    module.types = type_module
    return {NAME: module, _T: type_module}


MODEL_CODES = {Messages.create.__code__: "client.messages.create",
               AsyncMessages.create.__code__: "client.messages.create"}
