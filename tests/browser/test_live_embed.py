"""The reader's key in an embedded block's live run (docs/live.md): a host page of another
origin embeds the agent lesson's block with embed.js from a site served with `--live`; the
reader runs it live by keyboard in the frame. The key is in no message the frame posts
(whatever its target), none the host receives, and in neither page's URL or fragment
(the permalink), while the run's events do reach the host."""
import functools
import http.server
import threading

import pytest
from playwright.sync_api import expect

from tests.fake_provider import KEY

try:
    from .conftest import ServerProcess
    from .live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from .page_helpers import BOOT_TIMEOUT
except ImportError:
    from conftest import ServerProcess
    from live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from page_helpers import BOOT_TIMEOUT

HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head>
<body>
<div id="a" data-loopstep="agent-whole/agent_loop" data-lang="en"></div>
<script type="module">
  window.received = [];
  window.addEventListener("message", (e) => window.received.push(JSON.stringify(e.data)));
</script>
<script type="module" src="{server}/static/embed.js"></script>
</body></html>
"""

# In the frame: every postMessage to the parent is kept as JSON text, whatever its target.
SPY = """
if (window.parent !== window && location.pathname.includes("/embed/")) {  // an embed, not its guest frame
  const real = window.parent;
  const posted = (window.loopstepPosted = []);
  const spy = { postMessage(message, target) {
    posted.push(JSON.stringify([message, target]));
    real.postMessage(message, target);
  } };
  Object.defineProperty(window, "parent", { configurable: true, get: () => spy });
}
"""


@pytest.fixture(scope="module")
def provider():
    with CorsProvider(TURNS) as fake:
        yield fake


@pytest.fixture(scope="module")
def live_server(provider):
    proc = ServerProcess(["--live", "--live-endpoint", provider.url])
    yield proc
    proc.stop()


@pytest.fixture
def host_url(tmp_path, live_server):
    (tmp_path / "host.html").write_text(HOST_PAGE.replace("{server}", live_server.url), "utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_an_embedded_live_run_posts_no_key_to_the_host(browser_context, live_server, provider,
                                                        host_url):
    page = browser_context.new_page()
    page.add_init_script(SPY)
    page.goto(f"{host_url}/host.html")
    frame = page.frame_locator("#a iframe")
    form = fill_form(page, provider.url, KEY, scope=frame)
    b = frame.locator(BLOCK)
    expect(form.locator("[data-role='live-status']")).to_have_attribute("data-calls", "2",
                                                                        timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-run-source", "live", timeout=BOOT_TIMEOUT)
    b.locator("button[data-action='run']").focus()
    page.keyboard.press("Enter")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    page.wait_for_function(
        "window.received.some(m => m.includes('loopstep:finish') && m.includes('All done.'))")
    assert provider.requests and provider.requests[0][1]["x-api-key"] == KEY
    embed = next(f for f in page.frames if f.url.startswith(f"{live_server.url}/embed/"))
    posted = embed.evaluate("window.loopstepPosted")
    assert any("loopstep:finish" in m for m in posted), posted
    assert not [m for m in posted if KEY in m]
    assert not [m for m in page.evaluate("window.received") if KEY in m]
    for url in (page.url, embed.url, embed.evaluate("location.href"),
                page.evaluate("location.href")):
        assert KEY not in url, url
    page.close()
