"""A live run's request from the worker (docs/live.md): the synchronous XMLHttpRequest
the worker sends (web/static/js/live/live-call.js) against the alternative, an async
fetch awaited in the worker, side by side: ms per model call to the loopback fake provider
(tests/fake_provider.py, CORS answered as a real endpoint must), in headless Chromium.

    .venv/bin/python bench/live_call.py [CALLS]
"""
import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser")]

from live_helpers import TURNS, CorsProvider  # noqa: E402
from tests.fake_provider import KEY  # noqa: E402

# The worker: CALLS requests each way, alternating rounds; posts ms per call of each.
WORKER = """
const headers = {"content-type": "application/json", "x-api-key": KEY,
  "anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true"};
const body = JSON.stringify({model: "m", max_tokens: 10, messages: [{role: "user", content: "hi"}]});
function syncCall() {
  const xhr = new XMLHttpRequest();
  xhr.open("POST", URL_, false);
  for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
  xhr.send(body);
  return JSON.parse(xhr.responseText);
}
async function asyncCall() {
  const r = await fetch(URL_, {method: "POST", headers, body});
  return r.json();
}
onmessage = async ({data: calls}) => {
  const times = {sync: 0, async: 0};
  for (let round = 0; round < 2 * calls; round++) {
    const t = performance.now();
    if (round % 2) syncCall(); else await asyncCall();
    times[round % 2 ? "sync" : "async"] += performance.now() - t;
  }
  postMessage({sync: times.sync / calls, async: times.async / calls});
};
"""


def measure(calls=200):
    with CorsProvider(TURNS) as provider, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=sys.argv[2] if len(sys.argv) > 2 else None,
                                     args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(provider.url + "/")          # any page of the provider's origin
        code = WORKER.replace("URL_", json.dumps(provider.url + "/v1/messages")) \
            .replace("KEY", json.dumps(KEY))
        result = page.evaluate("""([code, calls]) => new Promise((done) => {
            const w = new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})));
            w.onmessage = (e) => done(e.data);
            w.postMessage(calls);
        })""", [code, calls])
        browser.close()
    return {"calls": calls, "sync_xhr_ms": round(result["sync"], 3),
            "async_fetch_ms": round(result["async"], 3)}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 200)))
