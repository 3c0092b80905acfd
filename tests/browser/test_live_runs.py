"""Live runs from the page (docs/live.md), against the loopback fake provider on another
port (so CORS is real), driven by keyboard in Chromium: a full run stepped as a live run,
the provider's headers only, an endpoint the site does not allow, a refused key, and the
key nowhere but in the requests' auth header. The output is compared with CPython's
replay of the same recording."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from loopstep.runtime.recorder import record
from tests.fake_provider import KEY, FakeProvider

try:
    from .conftest import PageWatch, ServerProcess
    from .page_helpers import BOOT_TIMEOUT, choose_option, shown_output, type_text
except ImportError:
    from conftest import PageWatch, ServerProcess
    from page_helpers import BOOT_TIMEOUT, choose_option, shown_output, type_text

BLOCK = '[data-loopstep-block="agent-whole/agent_loop"]'
TURNS = [[("tool", "bash", {"command": "ls"})], "All done."]


class CorsProvider(FakeProvider):
    """The fake provider answering the page's origin's CORS preflight and requests."""

    def __init__(self, turns, allow, **options):
        super().__init__(turns, **options)
        self.server.server_close()
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args):
                pass

            def end_headers(self):
                self.send_header("access-control-allow-origin", allow)
                self.send_header("access-control-allow-headers", "*, authorization")
                self.send_header("access-control-expose-headers", "retry-after")
                super().end_headers()

            def do_OPTIONS(self):
                self.send_response(204)
                self.end_headers()

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                provider.answer(self, raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)


@pytest.fixture(scope="module")
def provider():
    with CorsProvider(TURNS, "*") as fake:
        yield fake


@pytest.fixture(scope="module")
def live_server(provider):
    proc = ServerProcess(["--live", "--live-endpoint", provider.url, "--live-timeout", "10"])
    yield proc
    proc.stop()


@pytest.fixture
def live_page(browser_context, live_server, provider, request):
    page = browser_context.new_page()
    watch = PageWatch(page, live_server.url)
    logs = []
    page.on("console", lambda m: logs.append(m.text))
    page.goto(f"{live_server.url}/lessons/agent-whole")
    page.logs = logs
    yield page
    page.close()
    watch.requests = [u for u in watch.requests if not u.startswith(provider.url)]
    watch.check(request)


def fill_form(page, base_url, key):
    form = page.locator(f"{BLOCK} form[data-role='live']")
    expect(form).to_be_visible(timeout=BOOT_TIMEOUT)
    choose_option(form.locator("select[name='provider']"), "anthropic")
    type_text(form.locator("input[name='base-url']"), base_url)
    type_text(form.locator("input[name='model']"), "fake-model-1")
    type_text(form.locator("input[name='key']"), key)
    form.locator("button[data-action='run-live']").focus()
    page.keyboard.press("Enter")
    return form


def test_a_live_run_is_stepped_downloaded_and_leaves_the_key_nowhere(live_page, provider,
                                                                     live_server):
    page = live_page
    provider.requests.clear()
    form = fill_form(page, provider.url, KEY)
    b = page.locator(BLOCK)
    expect(form.locator("[data-role='live-status']")).to_have_attribute("data-calls", "2",
                                                                        timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-run-source", "live", timeout=BOOT_TIMEOUT)
    info = b.locator("[data-role='recording-info']")
    expect(info).to_have_attribute("data-calls", "2")
    expect(info).to_have_attribute("data-model", "fake-model-1")
    headers = provider.requests[0][1]
    assert headers["x-api-key"] == KEY and headers["anthropic-version"]
    assert headers["anthropic-dangerous-direct-browser-access"] == "true"
    assert not [h for h in headers if h.startswith("x-stainless")]
    assert "authorization" not in headers
    with page.expect_download() as download:
        b.locator("button[data-action='download-recording']").focus()
        page.keyboard.press("Enter")
    text = open(download.value.path(), encoding="utf-8").read()
    assert KEY not in text
    recording = json.loads(text)
    replayed = record("agent-whole", "agent_loop", b.get_attribute("data-scenario"),
                      recording=recording)
    b.locator("button[data-action='run']").focus()
    page.keyboard.press("Enter")
    expect(b.locator("[data-role='output']")).to_have_text(shown_output(replayed["stdout"]))
    # the key: in no URL, storage, cookie, console line, page text or server log
    assert KEY not in page.url
    stored = page.evaluate("""async () => JSON.stringify([{...localStorage}, {...sessionStorage},
        document.cookie, (await indexedDB.databases()).map(d => d.name)])""")
    assert KEY not in stored
    assert not [line for line in page.logs if KEY in line]
    assert KEY not in page.evaluate("document.body.innerText")
    assert KEY not in live_server.output()


def test_an_endpoint_the_site_does_not_allow_fails_before_any_request(live_page, provider):
    provider.requests.clear()
    form = fill_form(live_page, "http://127.0.0.1:1", KEY)
    expect(form.locator("[data-role='live-error']")).to_have_attribute("data-kind", "endpoint")
    assert provider.requests == []


@pytest.mark.allow_console_errors
def test_a_refused_key_is_an_auth_error(live_page, provider):
    form = fill_form(live_page, provider.url, "sk-wrong-key")
    error = form.locator("[data-role='live-error']")
    expect(error).to_have_attribute("data-kind", "auth", timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text("invalid x-api-key")
    assert "sk-wrong-key" not in error.inner_text()
