"""One live run in the page's worker. The request goes out through ``send`` — the worker's
synchronous XMLHttpRequest (web/static/js/live/live-call.js) — as JSON text in and out, so
nothing but strings crosses between Python and JavaScript. A failure stops the run with a
``kind`` the page names (``auth``, ``rate-limit``, ``timeout``, ``unreachable`` — the page
tells ``cors`` from ``network`` —, ``bad-response``, ``http``); the calls before it stay
in the recording, which the page replays to step the run.
"""
import json

from .. import recorder
from ..recording import format as recording_format
from ..recording.live import (ANTHROPIC_VERSION, Live, ProviderError, add_tool_executions,
                              provider_message)

PATHS = {"anthropic": "/v1/messages", "openai": "/chat/completions"}


def headers(provider, key):
    """The provider's headers, and no others (no SDK telemetry)."""
    if provider == "anthropic":
        return {"content-type": "application/json", "x-api-key": key,
                "anthropic-version": ANTHROPIC_VERSION,
                "anthropic-dangerous-direct-browser-access": "true"}
    return {"content-type": "application/json", "authorization": f"Bearer {key}"}


class BrowserLive(Live):
    """``Live`` whose requests the browser sends; ``report(json)`` hears of each call."""

    def __init__(self, provider, key, made_for, base_url, model, send, timeout_ms,
                 report=None):
        super().__init__(provider, key, made_for, base_url, model)
        self.send = send
        self.timeout_ms = int(timeout_ms)
        self.report = report
        self.error = None        # {kind, message, status?, retry_after?}

    def _stop(self, kind, message, **extra):
        self.error = {"kind": kind, "message": message, **extra}
        return self._fail(message)

    def _post(self, body):
        answer = json.loads(str(self.send(self.base + PATHS[self.provider],
                                          json.dumps(headers(self.provider, self._key)),
                                          json.dumps(body), self.timeout_ms)))
        status, raw = answer.get("status", 0), answer.get("text") or ""
        if answer.get("error") == "timeout":
            raise self._stop("timeout", f"no answer within {self.timeout_ms / 1000:g} s")
        if status == 0:
            raise self._stop("unreachable", f"cannot reach {self.base}")
        if status in (401, 403):
            raise self._stop("auth", provider_message(raw), status=status)
        if status == 429:
            raise self._stop("rate-limit", provider_message(raw), status=status,
                             retry_after=answer.get("retryAfter"))
        if status >= 400:
            raise self._stop("http", provider_message(raw), status=status)
        try:
            response = json.loads(raw)
        except ValueError:
            response = None
        if not isinstance(response, dict) or not _shaped(self.provider, response):
            raise self._stop("bad-response", raw.strip()[:200] or "an empty answer")
        return response

    def answer(self, provider, request, forked=False, has_reply=False):
        response = super().answer(provider, request, forked, has_reply)
        if self.report is not None:
            call = self.recording["calls"][-1]
            self.report(json.dumps({"calls": len(self.recording["calls"]),
                                    "depth": self.depth(), "seconds": call["seconds"],
                                    "call": call}))
        return response


def _shaped(provider, response):
    if provider == "anthropic":
        return isinstance(response.get("content"), list)
    return isinstance(response.get("choices"), list) and bool(response["choices"])


def run(lesson, block, scenario, roots, options, send, report=None, max_steps=0):
    """A live run of ``lesson/block``: ``options`` {provider, baseUrl, model, key,
    timeoutMs, input?}. Returns JSON text {recording (text), status, error}."""
    live = BrowserLive(options["provider"], options["key"], (lesson, block, scenario),
                       options["baseUrl"], options.get("model") or None, send,
                       options.get("timeoutMs", 120_000), report)
    kwargs = {"roots": list(roots) if roots is not None else None, "live": live}
    if max_steps:
        kwargs["max_steps"] = int(max_steps)
    if options.get("input") is not None:
        kwargs["inputs"] = list(options["input"])
    try:
        trace = recorder.record(lesson, block, scenario, **kwargs)
        status = trace.get("status", "finished")
    except ProviderError:
        status = "error"
    recording = add_tool_executions(live.recording)
    recording["status"] = "error" if live.error else status
    if options.get("input") is not None:
        recording["input"] = list(options["input"])
    if not recording["model"]:
        recording["model"] = options.get("model") or ""
    text = recording_format.dumps(recording_format.check(recording))
    if options["key"] and options["key"] in text:
        return json.dumps({"recording": None, "status": "error", "error": {
            "kind": "bad-response", "message": "the run's requests hold the key: not kept"}})
    return json.dumps({"recording": text,
                       "status": recording["status"], "error": live.error})
