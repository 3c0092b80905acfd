"""Blocks embedded with embed.js in a host page of another origin."""
import functools
import http.server
import threading
import urllib.parse

import pytest
from playwright.sync_api import expect

try:
    from .page_helpers import drawn
except ImportError:
    from page_helpers import drawn


pytestmark = pytest.mark.hosting   # embeds from another origin: CSP frame-ancestors, embed URLs

HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head>
<body>
<h1>A lesson page elsewhere</h1>
<div id="a" data-loopstep="s06/child_tools" data-scenario="normal"></div>
<div id="b" data-loopstep="s06/task_result" data-scenario="long" data-lang="en"></div>
<script type="module">
  window.events = [];
  window.messages = [];
  window.origins = [];
  window.addEventListener("message", (e) => {
    window.messages.push(e.data && e.data.type);
    window.origins.push(e.origin);
  });
  for (const id of ["a", "b"]) {
    for (const type of ["loopstep:pause", "loopstep:finish"]) {
      document.getElementById(id).addEventListener(type, (e) =>
        window.events.push({ id, type, detail: e.detail }));
    }
  }
</script>
<script type="module" src="{server}/static/embed.js"></script>
</body></html>
"""


@pytest.fixture
def host_url(tmp_path, server, server_url, request):
    """A host page on another origin. A plain static file server sends no CORS headers,
    which a cross-origin module script needs: there the host page sits beside the export
    (nginx with the shipped config sends them, and its CSP would refuse the inline script)."""
    page = HOST_PAGE.replace("{server}", server_url)
    if request.config.getoption("--site") == "export":
        (server.folder / "host.html").write_text(page, encoding="utf-8")
        yield server_url
        return
    (tmp_path / "host.html").write_text(page, encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


# In the embedded blocks' frames: `window.parent` (replaceable) stands for the real parent
# and keeps each message's target origin, as the page passed it to postMessage. Every frame
# of the host page is an embed. A same-origin frame (the export) keeps the Window of its
# first about:blank document, where the script runs, so the frame is not told by its path.
SPY_ON_TARGETS = """
if (window.parent !== window) {
  const real = window.parent;
  const targets = (window.loopstepTargets = []);
  const spy = { postMessage(message, target) {
    targets.push([message && message.type, target]);
    real.postMessage(message, target);
  } };
  Object.defineProperty(window, "parent", { configurable: true, get: () => spy });
}
"""


def embed_frames(page, server_url):
    return [f for f in page.frames if f.url.startswith(f"{server_url}/embed/")]


def test_two_embeds_run_independently_and_report_to_the_host(browser_context, server_url, host_url,
                                                              watch_page):
    page = browser_context.new_page()
    watch = watch_page(page, server_url)
    page.add_init_script(SPY_ON_TARGETS)
    page.goto(f"{host_url}/host.html")
    frames = page.locator("iframe")
    expect(frames).to_have_count(2)
    # each frame is told the host page's origin
    for src in frames.evaluate_all("fs => fs.map(f => f.src)"):
        assert urllib.parse.parse_qs(urllib.parse.urlsplit(src).query)["origin"] == [host_url], src
    a = page.frame_locator("#a iframe").locator('[data-loopstep-block="s06/child_tools"]')
    b = page.frame_locator("#b iframe").locator('[data-loopstep-block="s06/task_result"]')
    expect(a).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(b).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(b.locator('button[data-action="run"]')).to_have_text("Run")

    a.locator('button[data-gutter="7"]').click()
    a.locator('button[data-action="debug"]').click()
    expect(a).to_have_attribute("data-state", "paused")
    expect(a.locator('[data-var="selected"] [data-role="value"]')).to_have_text("{}")
    expect(b).to_have_attribute("data-state", "ready")

    b.locator('button[data-action="run"]').click()
    expect(b).to_have_attribute("data-state", "finished")
    expect(b.locator('[data-role="output"]')).to_contain_text("（结论过长，已截断；请缩小子任务）")
    expect(a).to_have_attribute("data-state", "paused")

    page.wait_for_function("window.events.some(e => e.id === 'a' && e.type === 'loopstep:pause')")
    page.wait_for_function("window.events.some(e => e.id === 'b' && e.type === 'loopstep:finish')")
    pause = page.evaluate("window.events.find(e => e.type === 'loopstep:pause').detail")
    assert pause["block"] == "s06/child_tools" and pause["line"] == 7
    assert "loopstep:resize" in page.evaluate("window.messages")
    assert set(page.evaluate("window.origins")) == {server_url}
    # every message was posted to the host page's origin, none to any ("*")
    spied = [t for f in embed_frames(page, server_url) for t in f.evaluate("window.loopstepTargets")]
    assert {"loopstep:pause", "loopstep:finish", "loopstep:resize"} <= {t for t, _ in spied}, spied
    assert {target for _, target in spied} == {host_url}, spied
    # each iframe is as tall as its content, not the default height: once both are drawn
    # whole, the host has the height each last reported (a resize message may still be on
    # its way when a block's run has just shown)
    for block in (a, b):
        drawn(block)
    inner = [page.frame_locator(f"#{i} iframe").locator("body").evaluate(
        "b => document.documentElement.scrollHeight") for i in ("a", "b")]
    page.wait_for_function("""(inner) => [...document.querySelectorAll("iframe")].every(
        (f, i) => Math.abs(f.clientHeight - inner[i]) <= 2)""", arg=inner, timeout=15_000)
    # (the frames' workers start from blobs of their own origin: runtime-client.js startWorker)
    allowed = {server_url, host_url, f"blob:{server_url}"}
    assert all(any(u.startswith(o) for o in allowed) for u in watch.requests), watch.requests
    assert not watch.page_errors and not watch.console_errors, watch.console_errors
    page.close()
