"""Live runs that do not finish (docs/live.md), driven by keyboard in Chromium against
fake providers on loopback on other ports (so CORS is real): Stop ends a run at once,
and each failure is a named `live-error` — rate-limit (with retry-after), timeout, cors
(the endpoint sends no CORS headers) told apart from network (nothing listening),
bad-response. What ran before the stop or failure stays steppable as a live run: its
output and steps are CPython's replay of the recording the page downloads."""
import json
import re

import pytest
from playwright.sync_api import expect

from loopstep.runtime.recorder import record
from tests.fake_provider import KEY

try:
    from .conftest import PageWatch, ServerProcess, free_port
    from .live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from .page_helpers import BOOT_TIMEOUT, shown_output
except ImportError:
    from conftest import PageWatch, ServerProcess, free_port
    from live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from page_helpers import BOOT_TIMEOUT, shown_output

pytestmark = pytest.mark.allow_console_errors   # failed requests are console errors

PROVIDERS = {
    "held": dict(hold_from=2),                          # the second call waits for release
    "limited": dict(fail=(429, "rate limit reached"), retry_after="17"),
    "no-cors": dict(allow=None),
    "broken": dict(body="<html>502 Bad Gateway</html>"),
    "slow": dict(hold_from=1, hold_for=10.0),
}


@pytest.fixture(scope="module")
def providers():
    made = {name: CorsProvider(TURNS, **options) for name, options in PROVIDERS.items()}
    for fake in made.values():
        fake.__enter__()
    yield made
    for fake in made.values():
        fake.release()
        fake.__exit__(None, None, None)


@pytest.fixture(scope="module")
def dead_url():
    return f"http://127.0.0.1:{free_port()}"   # nothing listens there


@pytest.fixture(scope="module")
def live_server(providers, dead_url):
    endpoints = [arg for url in [*(p.url for p in providers.values()), dead_url]
                 for arg in ("--live-endpoint", url)]
    proc = ServerProcess(["--live", *endpoints, "--live-timeout", "2"])
    yield proc
    proc.stop()


@pytest.fixture
def live_page(browser_context, live_server, providers, dead_url, request):
    page = browser_context.new_page()
    watch = PageWatch(page, live_server.url)
    page.goto(f"{live_server.url}/lessons/agent-whole")
    yield page
    page.close()
    others = (dead_url, *(p.url for p in providers.values()))
    watch.requests = [u for u in watch.requests if not u.startswith(others)]
    watch.check(request)


def downloaded(page, b):
    with page.expect_download() as download:
        b.locator("button[data-action='download-recording']").focus()
        page.keyboard.press("Enter")
    text = open(download.value.path(), encoding="utf-8").read()
    assert KEY not in text
    return json.loads(text)


def expect_steppable(page, b, calls):
    """The block shows the run that ended as a live run of `calls` calls; stepped to the
    end it shows CPython's replay of its recording, over as many steps."""
    expect(b).to_have_attribute("data-run-source", "live", timeout=BOOT_TIMEOUT)
    expect(b.locator("[data-role='recording-info']")).to_have_attribute("data-calls", str(calls))
    recording = downloaded(page, b)
    assert len(recording["calls"]) == calls
    replayed = record("agent-whole", "agent_loop", b.get_attribute("data-scenario"),
                      recording=recording)
    b.locator("button[data-action='run']").focus()
    page.keyboard.press("Enter")
    expect(b).to_have_attribute("data-state", re.compile("^(finished|error)$"),
                                timeout=BOOT_TIMEOUT)
    expect(b.locator("[data-role='output']")).to_have_text(shown_output(replayed["stdout"]))
    timeline = b.locator("input[data-role='timeline']")
    expect(timeline).to_have_attribute("max", str(len(replayed["steps"]) - 1))
    assert len(replayed["steps"]) > 1


def test_stop_ends_a_run_at_once_and_what_ran_is_steppable(live_page, providers):
    page, held = live_page, providers["held"]
    form = fill_form(page, held.url, KEY)
    status = form.locator("[data-role='live-status']")
    expect(status).to_have_attribute("data-calls", "1", timeout=BOOT_TIMEOUT)
    stop = form.locator("button[data-action='stop-live']")
    expect(stop).to_be_enabled()
    stop.focus()
    page.keyboard.press("Enter")        # the second request is still held by the provider
    expect(stop).to_be_disabled()
    expect(form.locator("button[data-action='run-live']")).to_be_enabled()
    expect(form.locator("[data-role='live-error']")).to_be_hidden()
    expect_steppable(page, page.locator(BLOCK), 1)
    assert held.arrived == 2 and len(held.requests) == 1   # the stopped one: unanswered
    held.release()


def test_a_rate_limit_at_the_first_call_shows_retry_after_and_the_steps_before_it(
        live_page, providers):
    page = live_page
    form = fill_form(page, providers["limited"].url, KEY)
    error = form.locator("[data-role='live-error']")
    expect(error).to_have_attribute("data-kind", "rate-limit", timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text("rate limit reached")
    expect(error).to_contain_text("17")
    expect_steppable(page, page.locator(BLOCK), 0)


def test_a_request_past_the_live_timeout_is_a_timeout(live_page, providers):
    form = fill_form(live_page, providers["slow"].url, KEY)
    error = form.locator("[data-role='live-error']")
    expect(error).to_have_attribute("data-kind", "timeout", timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text("2")
    providers["slow"].release()


@pytest.mark.parametrize("which, kind", [("no-cors", "cors"), ("dead", "network")])
def test_a_blocked_answer_is_cors_and_an_unreachable_endpoint_is_network(
        live_page, providers, dead_url, which, kind):
    url = dead_url if which == "dead" else providers[which].url
    form = fill_form(live_page, url, KEY)
    error = form.locator("[data-role='live-error']")
    expect(error).to_have_attribute("data-kind", kind, timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text(url)
    assert KEY not in error.inner_text()


def test_an_answer_not_in_the_providers_json_is_a_bad_response(live_page, providers):
    form = fill_form(live_page, providers["broken"].url, KEY)
    error = form.locator("[data-role='live-error']")
    expect(error).to_have_attribute("data-kind", "bad-response", timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text("502 Bad Gateway")
