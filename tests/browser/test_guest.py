"""Code a reader, a link or a file brings runs as a guest (docs/design.md, "Who runs what"):
a custom setup runs in a worker hosted by an opaque-origin frame, which reaches neither the
site's origin nor the page; a live run gets a worker of its own, dropped after the run.
Real Chromium against the app, and (marked hosting) a static export on http.server and nginx."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from page_helpers import BOOT_TIMEOUT, block, open_lesson, press, replace_in_editor, wait_ready
from loopstep.runtime.catalog.lessons import load_lesson

SETUP = load_lesson("s06").setup_text("normal")
FIRST = "from copy import deepcopy"


def probe(site: str) -> str:
    """Setup lines that try what hostile code would: read a same-origin file synchronously
    and asynchronously, and name the origin they run in."""
    return (f"import js; from pyodide.http import open_url\n"
            f"seen = 'refused'\n"
            f"exec(\"try: seen = open_url('{site}/api/lessons').read()[:40]\\nexcept Exception: pass\")\n"
            f"print('guest origin', js.origin, 'read', seen, 'document', hasattr(js, 'document'))\n"
            f"js.fetch('{site}/api/lessons?from=guest')\n")


@pytest.mark.hosting
@pytest.mark.allow_console_errors  # the policy's refusals are logged by the browser
def test_a_custom_setup_runs_in_a_guest_that_reaches_neither_the_site_nor_the_page(
        page, server_url, site_kind):
    assert SETUP.count(FIRST) == 1
    answered = []  # a request the policy refuses is reported, never answered
    page.on("response", lambda r: answered.append(r.url))
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    press(b, "edit-setup")
    expect(b.locator('[data-role="setup-text"]')).to_be_visible()
    replace_in_editor(b, FIRST, probe(server_url.rstrip("/")) + FIRST)
    press(b, "run-custom")
    output = b.locator('[data-role="output"]')
    expect(output).to_contain_text("guest origin null read refused document False",
                                   timeout=BOOT_TIMEOUT)
    # it ran in the frame: an opaque-origin iframe without allow-same-origin
    frame = page.locator('iframe[data-role="guest-runtime"]')
    expect(frame).to_have_attribute("sandbox", "allow-scripts")
    # and booted as fast as the page's worker: from the snapshot, its digests computed by the
    # page (an opaque origin's worker has no Web Crypto)
    expect(frame).to_have_attribute("data-boot", "snapshot")
    # the block's preset runs stay in the page's own worker, which the guest never touched
    press(b, "reset")
    expect(b).not_to_have_attribute("data-scenario", "custom")
    press(b, "run")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(output).not_to_contain_text("guest origin")
    # the policy refused the guest's own request, the file bridge its fetch: the site never
    # answered either
    assert not [u for u in answered if "/api/lessons" in u], answered


@pytest.mark.allow_console_errors  # the failed run is reported
def test_a_guest_frame_whose_script_never_runs_fails_at_once_and_loses_nothing(page, server_url):
    """As a host whose policy lets no script run in the frame: the custom run fails with a
    reason naming the frame (not at the boot timeout), and the block's presets still run."""
    page.route("**/static/guest.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>no script</title>"))
    open_lesson(page, server_url)
    b = block(page, "run_subagent")
    wait_ready(b)
    press(b, "edit-setup")
    expect(b.locator('[data-role="setup-text"]')).to_be_visible()
    press(b, "run-custom")
    expect(b).to_have_attribute("data-state", "error", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="status"]')).to_contain_text("guest.html")
    b.locator('select[data-role="scenario"]').select_option("normal")
    press(b, "run")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)


def test_the_guest_frame_has_a_policy_of_its_own(page, server_url):
    response = page.request.get(f"{server_url.rstrip('/')}/static/guest.html")
    assert response.ok
    policy = response.headers["content-security-policy"]
    assert "connect-src 'none'" in policy and "frame-ancestors" not in policy  # as the pages'
    assert "connect-src 'none'" in response.text()  # its meta, for hosts that send no header


class _Counting(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        self.server.hits.append(self.path)
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(b"answered")

    def log_message(self, *args):
        pass


@contextmanager
def third_party():
    """A loopback server of another origin that answers anyone (CORS *), counting requests."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    server.hits = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.hosting
@pytest.mark.allow_console_errors  # the policy's refusal is logged by the browser
def test_the_pages_worker_keeps_the_pages_policy_on_every_host(page, server_url, site_kind):
    """The page's own worker starts from a blob and so keeps the page's policy, also where
    the host sends no header for the worker's script (a plain static host)."""
    with third_party() as (server, url):
        open_lesson(page, server_url, site_kind)
        expect(page.locator("[data-role='runtime']")).to_have_attribute(
            "data-state", "ready", timeout=BOOT_TIMEOUT)
        (worker,) = page.workers
        assert worker.url.startswith("blob:")
        outcome = worker.evaluate("url => fetch(url).then(() => 'answered', () => 'refused')", url)
        assert outcome == "refused"
        assert server.hits == []
