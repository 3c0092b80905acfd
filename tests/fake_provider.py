"""A model provider on loopback for the tests: the Messages API (``POST /v1/messages``)
and Chat Completions (``POST /v1/chat/completions``), answering scripted turns in each
API's real shape, and errors in the providers' shapes (401, 429, 500). Checked against
the real ``anthropic`` and ``openai`` SDKs (tests/test_fake_provider.py). No test
reaches the network: the server listens on 127.0.0.1 only.

A turn is a text, or a list of parts ``"text"`` / ``("tool", NAME, INPUT)`` /
``("thinking", TEXT)``; ``FakeProvider(turns)`` answers the N-th request with turn N (the
last one again past the end). ``fail = (STATUS, MESSAGE)`` answers every request with
that error instead (a 429 with ``retry_after`` seconds).
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = "sk-test-0123456789-very-secret-key"
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error",
                429: "rate_limit_error", 500: "api_error"}


def anthropic_message(turn, number, model):
    parts = [turn] if isinstance(turn, str) else turn
    content = []
    for part in parts:
        if isinstance(part, str):
            content.append({"type": "text", "text": part, "citations": None})
        elif part[0] == "thinking":
            content.append({"type": "thinking", "thinking": part[1], "signature": f"sig{number}"})
        else:
            content.append({"type": "tool_use", "id": f"toolu_fake_{number}_{len(content)}",
                            "name": part[1], "input": part[2]})
    tool = any(block["type"] == "tool_use" for block in content)
    return {"id": f"msg_fake_{number}", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": "tool_use" if tool else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 10 * number, "output_tokens": 5,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}


def openai_completion(turn, number, model):
    parts = [turn] if isinstance(turn, str) else turn
    texts = [p for p in parts if isinstance(p, str)]
    calls = [{"id": f"call_fake_{number}_{i}", "type": "function",
              "function": {"name": p[1], "arguments": json.dumps(p[2])}}
             for i, p in enumerate(parts) if not isinstance(p, str) and p[0] == "tool"]
    message = {"role": "assistant", "content": "".join(texts) or None, "refusal": None,
               "annotations": []}
    if calls:
        message["tool_calls"] = calls
    return {"id": f"chatcmpl-fake{number}", "object": "chat.completion", "created": 1700000000,
            "model": model, "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 10 * number, "completion_tokens": 5,
                      "total_tokens": 10 * number + 5}}


def error_body(provider, status, message):
    kind = _ERROR_TYPES.get(status, "api_error")
    if provider == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


class FakeProvider:
    def __init__(self, turns=("Done.",), fail=None, key=KEY, retry_after="0"):
        self.turns = list(turns)
        self.fail = fail
        self.key = key
        self.retry_after = retry_after
        self.requests = []      # (path, headers dict, body) of each request
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                provider.answer(self, raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def answer(self, handler, raw):
        path = handler.path
        provider = "anthropic" if path.endswith("/messages") else "openai"
        headers = {k.lower(): v for k, v in handler.headers.items()}
        body = json.loads(raw or b"{}")
        self.requests.append((path, headers, body))
        given = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
        if path not in ("/v1/messages", "/v1/chat/completions"):
            status, reply = 404, error_body(provider, 404, f"no route {path}")
        elif given != self.key:
            status, reply = 401, error_body(provider, 401, "invalid x-api-key")
        elif self.fail:
            status, reply = self.fail[0], error_body(provider, *self.fail)
        else:
            number = len(self.requests)
            turn = self.turns[min(number, len(self.turns)) - 1]
            model = body.get("model", "")
            status = 200
            reply = anthropic_message(turn, number, model) if provider == "anthropic" \
                else openai_completion(turn, number, model)
        data = json.dumps(reply).encode()
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        if status == 429:
            handler.send_header("retry-after", self.retry_after)
        handler.end_headers()
        handler.wfile.write(data)
