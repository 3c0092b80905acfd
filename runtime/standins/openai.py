"""The stand-in ``openai`` module: ``OpenAI(**any).chat.completions.create(**request)``
(and ``await AsyncOpenAI(**any).chat.completions.create(**request)``) answers with the
setup's reply function, in the Chat Completions shape.

``reply(**request)`` returns a ``ChatCompletion``, a text, a message dict
``{"content": …, "tool_calls": [{"name": …, "arguments": {…}}]}`` (a tool call may
also be ``{"id", "type": "function", "function": {"name", "arguments"}}``; dict
arguments become JSON text, as the API sends them) or a whole completion dict
``{"choices": [{"message": {…}, "finish_reason": …}]}``. Filled in: ids
(``chatcmpl_001``, ``call_001`` per run), ``model``, ``created`` (0), ``finish_reason``
(``tool_calls`` when the message calls a tool, else ``stop``).
"""

import json
import sys
import types

from .sdk import AsyncClient, Client, errors, field, known, model, model_answer, reply_function

NAME = "openai"
_T = "openai.types.chat"

ERRORS = errors(NAME)
Function = model(_T, "Function", [("arguments", "{}"), ("name", "")])
ChatCompletionMessageToolCall = model(_T, "ChatCompletionMessageToolCall",
                                      [("id", ""), ("function", None), ("type", "function")])
ChatCompletionMessage = model(_T, "ChatCompletionMessage",
                              [("content", None), ("refusal", None), ("role", "assistant"),
                               ("annotations", None), ("audio", None),
                               ("function_call", None), ("tool_calls", None)])
Choice = model(_T, "Choice", [("finish_reason", None), ("index", 0), ("logprobs", None),
                              ("message", None)])
CompletionUsage = model("openai.types", "CompletionUsage",
                        [("completion_tokens", 0), ("prompt_tokens", 0), ("total_tokens", 0)])
ChatCompletion = model(_T, "ChatCompletion",
                       [("id", ""), ("choices", None), ("created", 0), ("model", ""),
                        ("object", "chat.completion"), ("service_tier", None),
                        ("system_fingerprint", None), ("usage", None)])


def _tool_call(item, context):
    if isinstance(item, ChatCompletionMessageToolCall):
        return item
    if not isinstance(item, dict):
        raise ValueError(f"reply: a tool call must be a dict, not {item!r}")
    function = item.get("function", item)
    arguments = field(function, "arguments", {})
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, ensure_ascii=False)
    return ChatCompletionMessageToolCall(
        id=item.get("id") or context.ids.next("call"),
        function=Function(arguments=arguments, name=field(function, "name", "")))


def _message(value, context, lenient=False):
    if isinstance(value, ChatCompletionMessage):
        return value
    if isinstance(value, str):
        value = {"content": value}
    values = known(ChatCompletionMessage, value) if lenient else dict(value)
    calls = values.get("tool_calls")
    if calls:
        values["tool_calls"] = [_tool_call(item, context) for item in calls]
    else:
        values["tool_calls"] = None
    return ChatCompletionMessage(**values)


def completion(answer, request, context, lenient=False):
    """The ChatCompletion for what ``reply`` returned (``lenient``: a provider's JSON,
    whose fields the stand-in does not declare are left out)."""
    if isinstance(answer, ChatCompletion):
        return answer
    if isinstance(answer, (str, ChatCompletionMessage)) or (
            isinstance(answer, dict) and "choices" not in answer):
        answer = {"choices": [{"message": answer}]}
    if not isinstance(answer, dict):
        raise TypeError(f"reply must return a ChatCompletion, a text or a dict, "
                        f"not {type(answer).__name__}")
    values = known(ChatCompletion, answer) if lenient else dict(answer)
    choices = []
    for index, raw in enumerate(values.get("choices", [])):
        if isinstance(raw, Choice):
            choices.append(raw)
            continue
        raw = known(Choice, raw) if lenient else dict(raw)
        raw["message"] = _message(raw.get("message", ""), context, lenient)
        raw.setdefault("index", index)
        raw.setdefault("finish_reason", "tool_calls" if raw["message"].tool_calls else "stop")
        choices.append(Choice(**raw))
    values["choices"] = choices
    values.setdefault("id", context.ids.next("chatcmpl"))
    values.setdefault("model", request.get("model", ""))
    if isinstance(values.get("usage"), dict):
        usage = values["usage"]
        values["usage"] = CompletionUsage(**(known(CompletionUsage, usage) if lenient else usage))
    return ChatCompletion(**values)


class Completions:
    def __init__(self, context):
        self._context = context

    def create(self, *, messages=None, **request):
        """The model call: the recorder records it as one (runtime/agent/capture.py)."""
        context = self._context
        # a fork, a recording or a live model may answer (sdk.model_answer)
        answer = model_answer(context, NAME, sys._getframe(), dict(request, messages=messages))
        if answer is not None:
            return completion(answer[0], request, context, len(answer) > 1)
        reply = reply_function(context.namespace, context.model)
        return completion(reply(messages=messages, **request), request, context)


class AsyncCompletions(Completions):
    async def create(self, *, messages=None, **request):
        """The awaited model call, answered as ``Completions.create`` answers (it does not
        suspend: the run's other tasks go on once it returned)."""
        context = self._context
        answer = model_answer(context, NAME, sys._getframe(), dict(request, messages=messages))
        if answer is not None:
            return completion(answer[0], request, context, len(answer) > 1)
        reply = reply_function(context.namespace, context.model)
        return completion(reply(messages=messages, **request), request, context)


def build(context):
    """A fresh ``openai`` module for one run."""
    module = types.ModuleType(NAME, "Stand-in for the OpenAI SDK (loopstep).")

    class OpenAI(Client):
        def __init__(self, *_args, **options):
            self.api_key = options.get("api_key")
            self.base_url = options.get("base_url")
            self.chat = types.SimpleNamespace(completions=Completions(context))

    class AsyncOpenAI(AsyncClient):
        def __init__(self, *_args, **options):
            self.api_key = options.get("api_key")
            self.base_url = options.get("base_url")
            self.chat = types.SimpleNamespace(completions=AsyncCompletions(context))

    for cls in (OpenAI, AsyncOpenAI):
        cls.__module__, cls.__qualname__ = NAME, cls.__name__
    module.OpenAI, module.AsyncOpenAI = OpenAI, AsyncOpenAI
    for cls in ERRORS.values():
        setattr(module, cls.__name__, cls)
    for cls in (ChatCompletion, ChatCompletionMessage, ChatCompletionMessageToolCall, Choice,
                Function, CompletionUsage):
        setattr(module, cls.__name__, cls)
    return {NAME: module}


MODEL_CODES = {Completions.create.__code__: "client.chat.completions.create",
               AsyncCompletions.create.__code__: "client.chat.completions.create"}
