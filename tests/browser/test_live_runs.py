"""Live runs from the page (docs/live.md), against the loopback fake provider on another
port (so CORS is real), driven by keyboard in Chromium: a full run stepped as a live run,
the provider's headers only, an endpoint the site does not allow, a refused key, and the
key nowhere but in the requests' auth header; the downloaded run, loaded back into a fresh
page, replays the same output. The output is compared with CPython's replay of the same
recording."""
import json

import pytest
from playwright.sync_api import expect

from loopstep.runtime.recorder import record
from tests.fake_provider import KEY

try:
    from .conftest import PageWatch, ServerProcess
    from .live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from .page_helpers import BOOT_TIMEOUT, shown_output
except ImportError:
    from conftest import PageWatch, ServerProcess
    from live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from page_helpers import BOOT_TIMEOUT, shown_output


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


def test_a_live_run_is_stepped_downloaded_and_leaves_the_key_nowhere(live_page, provider,
                                                                     live_server, tmp_path):
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
    saved = tmp_path / "live.json"
    download.value.save_as(saved)
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
    # the round trip: a fresh page loads the file back and replays the same output
    page.reload()
    b.locator('input[type=file][data-role="recording-file"]').set_input_files(str(saved))
    expect(b).to_have_attribute("data-run-source", "recorded", timeout=BOOT_TIMEOUT)
    expect(b.locator("[data-role='recording-info']")).to_have_attribute("data-model",
                                                                        "fake-model-1")
    b.locator("button[data-action='run']").focus()
    page.keyboard.press("Enter")
    expect(b.locator("[data-role='output']")).to_have_text(shown_output(replayed["stdout"]),
                                                           timeout=BOOT_TIMEOUT)
    expect(b.locator("[data-role='recording-error']")).to_be_hidden()


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


def test_a_live_run_has_a_worker_of_its_own_that_ends_with_the_run(live_page, provider):
    """The clean room: the key goes to a worker started for this run, which has run nothing
    else (no reader's code, no other run) and is dropped once the run has ended."""
    page = live_page
    provider.requests.clear()
    # the page's own worker first: the next one to start is the run's
    expect(page.locator("[data-role='runtime']")).to_have_attribute("data-state", "ready",
                                                                    timeout=BOOT_TIMEOUT)
    with page.expect_event("worker", timeout=BOOT_TIMEOUT) as started:
        form = fill_form(page, provider.url, KEY)
    room = started.value
    assert room.evaluate("self.name") == "loopstep-live"
    with room.expect_event("close", timeout=BOOT_TIMEOUT):
        expect(form.locator("[data-role='live-status']")).to_have_attribute(
            "data-calls", "2", timeout=BOOT_TIMEOUT)
    expect(page.locator(BLOCK)).to_have_attribute("data-run-source", "live",
                                                  timeout=BOOT_TIMEOUT)
    assert room not in page.workers
    assert provider.requests and provider.requests[0][1]["x-api-key"] == KEY
