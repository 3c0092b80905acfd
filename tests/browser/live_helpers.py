"""Shared by the live-run browser tests (docs/live.md): the fake provider answering the
page's origin's CORS (or not), held or broken on purpose, and the live form filled by
keyboard."""
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import expect

from tests.fake_provider import FakeProvider

try:
    from .page_helpers import BOOT_TIMEOUT, choose_option, type_text
except ImportError:
    from page_helpers import BOOT_TIMEOUT, choose_option, type_text

BLOCK = '[data-loopstep-block="agent-whole/agent_loop"]'
TURNS = [[("tool", "bash", {"command": "ls"})], "All done."]


class QuietServer(ThreadingHTTPServer):
    """A loopback server that does not print a client's hang-up (a stopped or timed-out
    request the provider answers late)."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class CorsProvider(FakeProvider):
    """The fake provider answering the page's origin's CORS preflight and requests.

    ``allow=None`` sends no CORS headers (the browser blocks the answer); ``hold_from=N``
    keeps the N-th request and later ones waiting until ``release()`` (or ``hold_for``
    seconds); ``body`` answers every request with that text (status 200) instead."""

    def __init__(self, turns, allow="*", hold_from=None, hold_for=60.0, body=None, **options):
        super().__init__(turns, **options)
        self.server.server_close()
        self.released = threading.Event()
        self.arrived = 0     # requests received, answered or not
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args):
                pass

            def end_headers(self):
                if allow is not None:
                    self.send_header("access-control-allow-origin", allow)
                    self.send_header("access-control-allow-headers", "*, authorization")
                    self.send_header("access-control-expose-headers", "retry-after")
                super().end_headers()

            def do_OPTIONS(self):
                self.send_response(204)
                self.end_headers()

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                provider.arrived += 1
                if hold_from is not None and provider.arrived >= hold_from:
                    provider.released.wait(hold_for)
                if body is not None:
                    provider.requests.append((self.path, dict(self.headers), raw))
                    data = body.encode()
                    self.send_response(200)
                    self.send_header("content-type", "text/html")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                provider.answer(self, raw)

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def release(self):
        self.released.set()


def fill_form(page, base_url, key, provider="anthropic", scope=None):
    """Fill the block's live form by keyboard and press its run button (Enter)."""
    form = (scope or page).locator(f"{BLOCK} form[data-role='live']")
    expect(form).to_be_visible(timeout=BOOT_TIMEOUT)
    choose_option(form.locator("select[name='provider']"), provider)
    type_text(form.locator("input[name='base-url']"), base_url)
    type_text(form.locator("input[name='model']"), "fake-model-1")
    type_text(form.locator("input[name='key']"), key)
    form.locator("button[data-action='run-live']").focus()
    page.keyboard.press("Enter")
    return form
