"""Live runs as each host serves them (docs/live.md): with `--live --live-endpoint URL` the
agent lesson's block has the live form, and every policy the page runs under (the served
header, the export's meta tag, nginx's header from the export's `nginx-csp.conf`) allows
exactly `'self'` plus the endpoint's origin — a live run from the page reaches the
loopback provider. Without `--live`: no form, `connect-src 'self'` (every export writes
its policy, so behind a plain static file server the page has it too)."""
import re

import pytest
from playwright.sync_api import expect

from tests.fake_provider import KEY

try:
    from .conftest import PageWatch, site_of
    from .live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from .page_helpers import BOOT_TIMEOUT
except ImportError:
    from conftest import PageWatch, site_of
    from live_helpers import BLOCK, TURNS, CorsProvider, fill_form
    from page_helpers import BOOT_TIMEOUT

pytestmark = pytest.mark.hosting   # the policy is served, written into pages, or nginx's


@pytest.fixture(scope="module")
def provider():
    with CorsProvider(TURNS) as fake:
        yield fake


@pytest.fixture(scope="module")
def live_site(request, provider):
    """The bundled lessons' site with live runs against the provider, as --site asks."""
    site = site_of(request.config.getoption("--site"), None,
                   ("--live", "--live-endpoint", provider.url))
    yield site
    site.stop()


def lesson_page(site_url, site_kind):
    return f"{site_url}/lessons/agent-whole" + ("/" if site_kind == "export" else "")


def connect_sources(page, response):
    """The connect-src of every policy the page runs under: header and meta tag."""
    policies = page.locator('meta[http-equiv="Content-Security-Policy"]').evaluate_all(
        "metas => metas.map(m => m.content)")
    header = response.headers.get("content-security-policy")
    policies += [header] if header else []
    return [re.search(r"connect-src ([^;]*)", p).group(1).strip() for p in policies]


def test_a_site_with_live_runs_allows_exactly_its_endpoints(browser_context, live_site,
                                                            provider, site_kind, request):
    page = browser_context.new_page()
    watch = PageWatch(page, live_site.url)
    response = page.goto(lesson_page(live_site.url, site_kind))
    assert set(connect_sources(page, response)) == {f"'self' {provider.url}"}
    provider.requests.clear()
    form = fill_form(page, provider.url, KEY)
    expect(form.locator("[data-role='live-status']")).to_have_attribute("data-calls", "2",
                                                                        timeout=BOOT_TIMEOUT)
    expect(page.locator(BLOCK)).to_have_attribute("data-run-source", "live",
                                                  timeout=BOOT_TIMEOUT)
    assert [path for path, _headers, _body in provider.requests] == ["/v1/messages"] * 2
    page.close()
    watch.requests = [u for u in watch.requests if not u.startswith(provider.url)]
    watch.check(request)


def test_without_live_there_is_no_form_and_no_other_origin(page, server_url, site_kind):
    response = page.goto(lesson_page(server_url, site_kind))
    b = page.locator(BLOCK)
    expect(b.locator("button[data-action='run']")).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(page.locator("form[data-role='live']")).to_have_count(0)
    sources = connect_sources(page, response)
    # a plain static file server sends no policy: the page's meta tag is the one
    assert sources and set(sources) == {"'self'"}, sources
