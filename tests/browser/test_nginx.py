"""nginx with the shipped deploy/nginx/loopstep.conf serves a `loopstep export`: the right
types, the precompressed copies, the app's security headers and caching, and a block runs.

Under `--site=nginx` the hosting tests run against it; these checks are nginx's own, made
once, in the run against the app (an nginx of their own; not marked `hosting`, since the
runs against the static hosts would only repeat them)."""
import gzip
import http.client
import re
from urllib.parse import urlsplit
from urllib.request import Request, urlopen

import brotli
import pytest
from playwright.sync_api import expect

from loopstep import server as app_server
from loopstep.runtime.recorder import record
from loopstep.web import assets

try:
    from .conftest import NginxSite, BROTLI_MODULE
    from .page_helpers import BOOT_TIMEOUT, run_to_end, shown_output
except ImportError:
    from conftest import NginxSite, BROTLI_MODULE
    from page_helpers import BOOT_TIMEOUT, run_to_end, shown_output

WASM = f"/vendor/pyodide-{assets.PYODIDE_VERSION}/pyodide.asm.wasm"


@pytest.fixture(scope="module")
def nginx(request, server):
    if request.config.getoption("--site") == "nginx":
        yield server
        return
    site = NginxSite()
    yield site
    site.stop()


def get(url: str, encoding: str = "identity"):
    with urlopen(Request(url, headers={"Accept-Encoding": encoding}), timeout=10) as response:
        return response.status, response.headers, response.read()


def test_every_exported_file_has_the_apps_content_type(nginx):
    files = [p for p in nginx.folder.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")]
    assert len(files) > 50
    by_suffix = {}
    for path in files:
        by_suffix.setdefault(path.suffix, path)
    for suffix, path in sorted(by_suffix.items()):
        status, headers, _ = get(nginx.url + "/" + path.relative_to(nginx.folder).as_posix())
        assert status == 200
        assert headers["Content-Type"] == assets.content_type(path), (suffix, headers["Content-Type"])


def test_the_wasm_is_sent_precompressed(nginx):
    plain = (assets.PYODIDE_DIR / "pyodide.asm.wasm").read_bytes()
    _, headers, body = get(nginx.url + WASM, "gzip")
    assert headers["Content-Type"] == "application/wasm"
    assert headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    assert len(body) < len(plain) and gzip.decompress(body) == plain
    _, headers, body = get(nginx.url + WASM)
    assert "Content-Encoding" not in headers and body == plain
    assert BROTLI_MODULE.is_file(), "scripts/ensure_nginx.sh installs the brotli_static module"
    _, headers, body = get(nginx.url + WASM, "br, gzip")
    assert headers["Content-Encoding"] == "br"
    assert brotli.decompress(body) == plain


def test_security_headers_and_caching_match_the_app(nginx):
    for path in ("/", "/lessons/s06/", "/embed/s06/run_subagent/", "/static/js/page.js", WASM,
                 "/no-such-file"):
        request = Request(nginx.url + path)
        try:
            response = urlopen(request, timeout=10)
        except Exception as error:  # a 404 still carries the headers
            response = error
        headers = response.headers
        assert headers["Content-Security-Policy"] == app_server.content_security_policy(None), path
        for name, value in app_server.SECURITY_HEADERS.items():
            assert headers[name] == value, (path, name)
    assert get(nginx.url + WASM)[1]["Cache-Control"] == assets.IMMUTABLE
    boot = f"/vendor/loopstep-boot-{assets.PYODIDE_VERSION}/boot.json"
    assert get(nginx.url + boot)[1]["Cache-Control"] == assets.IMMUTABLE
    for path in ("/lessons/s06/", "/static/js/page.js", "/py/runtime/recorder.py"):
        assert get(nginx.url + path)[1]["Cache-Control"] == assets.REVALIDATE, path
    assert get(nginx.url + "/static/embed.js")[1]["Access-Control-Allow-Origin"] == "*"


def test_a_folders_redirect_names_no_host(nginx):
    """nginx adds the slash of a folder's URL with the path alone (absolute_redirect off),
    never the host a forged Host header names."""
    site = urlsplit(nginx.url)
    conn = http.client.HTTPConnection(site.hostname, site.port, timeout=10)
    try:
        conn.request("GET", "/lessons/s06", headers={"Host": "evil.example"})
        response = conn.getresponse()
        assert response.status == 301 and response.getheader("Location") == "/lessons/s06/"
    finally:
        conn.close()


def test_a_block_runs_to_its_lesson_output_on_nginx(browser_context, nginx, watch_page, request):
    page = browser_context.new_page()
    watch = watch_page(page, nginx.url)
    wasm = []
    page.on("response", lambda r: r.url.endswith("pyodide.asm.wasm") and wasm.append(r))
    page.goto(nginx.url + "/lessons/s06/")
    b = page.locator('[data-loopstep-block="s06/run_subagent"]')
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    run_to_end(b)
    expect(b).to_have_attribute("data-state", "finished")
    expected = shown_output(record("s06", "run_subagent", b.get_attribute("data-scenario"))["stdout"])
    assert b.locator('[data-role="output"]').text_content() == expected
    assert wasm, "the page's worker fetched no wasm"
    headers = wasm[0].all_headers()  # from the network or, cached, as it was received
    assert headers["content-type"] == "application/wasm"
    assert re.fullmatch(r"br|gzip", headers.get("content-encoding", "")), headers
    page.close()
    watch.check(request)
