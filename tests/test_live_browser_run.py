"""runtime/live/browser.py in CPython: the worker's live run, its requests sent through a
``send`` function as the page's worker does (here urllib against the loopback fake
provider): the provider's headers only, the recording replaying the same output, each
failure's kind, and the key in no recording."""
import json
import urllib.error
import urllib.request

from loopstep.runtime import recorder
from loopstep.runtime.live import browser
from tests.fake_provider import KEY, FakeProvider


def send(url, headers, body, timeout_ms):
    request = urllib.request.Request(url, data=body.encode(), method="POST",
                                     headers=json.loads(headers))
    try:
        with urllib.request.urlopen(request, timeout=timeout_ms / 1000) as answer:
            return json.dumps({"status": answer.status, "text": answer.read().decode()})
    except urllib.error.HTTPError as error:
        return json.dumps({"status": error.code, "text": error.read().decode(),
                           "retryAfter": error.headers.get("retry-after")})
    except OSError:
        return json.dumps({"status": 0, "text": ""})


TURNS = [[("tool", "bash", {"command": "ls"})], "All done."]


def live_run(provider, url, key=KEY, **options):
    reports = []
    found = json.loads(browser.run("agent-whole", "agent_loop", "reads", None,
                                   {"provider": provider, "baseUrl": url, "model": "m-1",
                                    "key": key, "timeoutMs": 5000, **options},
                                   send, reports.append))
    return found, [json.loads(r) for r in reports]


def test_anthropic_run_sends_only_the_providers_headers_and_replays():
    with FakeProvider(TURNS) as fake:
        found, reports = live_run("anthropic", fake.url)
    assert found["error"] is None and found["status"] == "finished"
    path, headers, body = fake.requests[0]
    assert path == "/v1/messages" and body["model"] == "m-1"
    assert headers["x-api-key"] == KEY
    assert headers["anthropic-dangerous-direct-browser-access"] == "true"
    assert not [h for h in headers if h.startswith("x-stainless")]
    assert [r["calls"] for r in reports] == [1, 2]
    assert KEY not in found["recording"]
    recording = json.loads(found["recording"])
    replayed = recorder.record("agent-whole", "agent_loop", "reads", recording=recording)
    assert replayed["replay"]["divergence"] is None and replayed["status"] == "finished"


def test_openai_uses_bearer_only():
    assert browser.headers("openai", "k") == {"content-type": "application/json",
                                              "authorization": "Bearer k"}


def test_failures_have_kinds_and_keep_what_ran():
    with FakeProvider(TURNS) as fake:
        found, _ = live_run("anthropic", fake.url, key="wrong")
    assert found["error"]["kind"] == "auth" and found["error"]["status"] == 401
    assert "wrong" not in found["recording"]
    with FakeProvider(TURNS, fail=(429, "slow down")) as fake:
        found, _ = live_run("anthropic", fake.url)
    assert found["error"] == {"kind": "rate-limit", "message": "slow down", "status": 429,
                              "retry_after": "0"}
    found, _ = live_run("anthropic", "http://127.0.0.1:9")
    assert found["error"]["kind"] == "unreachable"
    assert json.loads(found["recording"])["status"] == "error"
