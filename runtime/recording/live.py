"""The model calls of ``loopstep record``, sent to a real provider (CPython only: the
standard library's ``urllib.request``).

``Live`` answers the stand-in clients' calls (runtime/standins) as the recorder's
``live``: each request's body in the normal form (normal.py) goes to the provider's
endpoint — the Messages API (``POST {base}/v1/messages``) or Chat Completions
(``POST {base}/chat/completions``) — with the key in a header, never in the recording. The
recording keeps the body as the program made it; ``model`` replaces its model on the wire
only. A provider's error stops the run (``ProviderError``, a BaseException the program
cannot catch) and is kept as ``failure``: one line, the HTTP status and the provider's
message.
"""

import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from . import format as recording_format
from .replay import swap_text
from .sent import Sent
from ..world import real, schedule

DEFAULT_BASE = {"anthropic": "https://api.anthropic.com", "openai": "https://api.openai.com/v1"}
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
_PATH = {"anthropic": "/v1/messages", "openai": "/chat/completions"}
ANTHROPIC_VERSION = "2023-06-01"
TIMEOUT = 600


class ProviderError(BaseException):
    """A request the provider refused or that did not reach it: the reason, one line."""


def origin(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def provider_message(raw):
    """The provider's message in its error body (both APIs nest it in ``error``)."""
    try:
        body = json.loads(raw)
        error = body.get("error", body)
        text = error.get("message") if isinstance(error, dict) else str(error)
    except (ValueError, AttributeError):
        text = raw.strip()[:200]
    return " ".join(str(text or "no message").split())


class Live:
    def __init__(self, provider, key, made_for, base_url=None, model=None, progress=None,
                 cwd="/tmp/loopstep-run"):
        self.provider = provider
        self.base = (base_url or DEFAULT_BASE[provider]).rstrip("/")
        self._key = key
        self.model = model
        self.progress = progress or (lambda line: None)
        self.text = str          # set by the recorder: how the run shows its folder
        self.real = None
        self.depth = lambda: 0   # set by the recorder: the conversation depth of this call
        self.failure = None
        self._sent = Sent()      # the messages sent: only a request's new ones are made normal
        self._begun = 0          # calls begun (threads: a call's ``started``)
        self._starts = {}        # thread name → the place its call in progress began at
        self.recording = recording_format.new(*made_for, provider, model or "",
                                              origin(self.base), cwd)

    def _headers(self):
        headers = {"content-type": "application/json", "accept": "application/json"}
        if self.provider == "anthropic":
            headers |= {"x-api-key": self._key, "anthropic-version": ANTHROPIC_VERSION}
        else:
            headers["authorization"] = f"Bearer {self._key}"
        return headers

    def _post(self, body):
        request = urllib.request.Request(self.base + _PATH[self.provider],
                                         data=json.dumps(body).encode(), method="POST",
                                         headers=self._headers())
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                raw = answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            raw = error.read().decode("utf-8", "replace")
            raise self._fail(f"HTTP {error.code}: {provider_message(raw)}") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise self._fail(f"cannot reach {origin(self.base)}: {reason}") from None
        try:
            response = json.loads(raw)
        except ValueError:
            raise self._fail("the provider's answer is not JSON") from None
        if not isinstance(response, dict):
            raise self._fail("the provider's answer is not a JSON object")
        return response

    def _fail(self, reason):
        self.failure = reason
        return ProviderError(reason)

    def begin(self):
        """A model call begins (before its virtual time, runtime/standins/sdk.py)."""
        self._begun += 1
        thread = _thread_name()
        if thread is not None:
            self._starts[thread] = self._begun

    def answer(self, provider, request, forked=False, has_reply=False):
        """The provider's answer to the program's next call (recorded as made)."""
        if provider != self.provider:
            raise self._fail(f"the program calls the {provider} client, not {self.provider}")
        body = self._sent.body(request, self.text)
        sent = dict(body, model=self.model) if self.model else body
        started = real.monotonic()   # the run's clock is virtual (world/clock.py)
        response = self._post(sent)
        seconds = round(real.monotonic() - started, 3)
        calls = self.recording["calls"]
        calls.append({"request": body, "response": response, "seconds": seconds, "tools": []})
        thread = _thread_name()
        if thread is not None:   # the run has threads: which made it, when it began
            calls[-1].update(thread=thread, started=self._starts.pop(thread, self._begun))
        self.recording["model"] = str(response.get("model") or sent.get("model", ""))
        usage = response.get("usage") or {}
        tokens = (usage.get("input_tokens", usage.get("prompt_tokens", 0)),
                  usage.get("output_tokens", usage.get("completion_tokens", 0)))
        self.progress(f"call {len(calls)}: depth {self.depth()}, "
                      f"{len(body.get('messages', []))} messages, "
                      f"{tokens[0]} in / {tokens[1]} out tokens, {seconds:.2f} s")
        cwd = self.recording["cwd"]
        return swap_text(response, cwd, self.real) if self.real and self.real != cwd else response


def _thread_name():
    """The calling thread's name once the run has started a thread, else None."""
    scheduler = schedule.current()
    record = scheduler.me() if scheduler is not None and scheduler.started else None
    return record.name if record is not None else None


def _asked(provider, response):
    """[(id, name, input)] of the tools a response asks for."""
    if provider == "anthropic":
        return [(b.get("id"), b.get("name"), b.get("input")) for b in response.get("content", [])
                if isinstance(b, dict) and b.get("type") == "tool_use"]
    asked = []
    for choice in response.get("choices", [])[:1]:
        for call in (choice.get("message") or {}).get("tool_calls") or []:
            function = call.get("function") or {}
            try:
                arguments = json.loads(function.get("arguments") or "{}")
            except ValueError:
                arguments = function.get("arguments")
            asked.append((call.get("id"), function.get("name"), arguments))
    return asked


def _results(provider, request):
    """{tool id: output text} of the tool results a request carries."""
    found = {}
    for message in request.get("messages", []):
        if provider == "openai":
            if message.get("role") == "tool":
                found[message.get("tool_call_id")] = message.get("content")
            continue
        content = message.get("content")
        for part in content if isinstance(content, list) else ():
            if isinstance(part, dict) and part.get("type") == "tool_result":
                found[part.get("tool_use_id")] = part.get("content")
    return found


def add_tool_executions(recording):
    """Each call's ``tools``: the tools its answer asked for, with the output a later
    request sent back (the run's own tool results)."""
    provider, calls = recording["provider"], recording["calls"]
    for index, call in enumerate(calls):
        for tool_id, name, tool_input in _asked(provider, call["response"]):
            for later in calls[index + 1:]:
                output = _results(provider, later["request"]).get(tool_id)
                if output is not None:
                    if not isinstance(output, str):
                        output = json.dumps(output, ensure_ascii=False)
                    call["tools"].append({"name": name, "input": tool_input, "output": output})
                    break
    return recording
