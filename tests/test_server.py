"""Tests of the HTTP surface: pages, lesson data, static files, errors, headers.

Most go through the in-process test client; path traversal goes to a real server
with raw request targets, since the test client normalises `/../` away."""
import base64
import hashlib
import http.client
import json
import re
import threading
from html.parser import HTMLParser

import pytest
import uvicorn
from fastapi.testclient import TestClient

from loopstep import server
from loopstep.web import assets, page_data

BLOCKS = ("child_tools", "run_subagent", "task_result")


@pytest.fixture(scope="module")
def client():
    return TestClient(server.create_app())


class LineCollector(HTMLParser):
    """Collects the text of every [data-line] element, per block."""

    def __init__(self):
        super().__init__()
        self.block = None
        self.lines: dict[str, dict[int, str]] = {}
        self.current = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-loopstep-block" in attrs:
            self.block = attrs["data-loopstep-block"]
            self.lines[self.block] = {}
        if self.current is not None:
            self.depth += 1
        elif "data-line" in attrs:
            self.current = int(attrs["data-line"])
            self.lines[self.block][self.current] = ""
            self.depth = 0

    def handle_endtag(self, tag):
        if self.current is None:
            return
        if self.depth == 0:
            self.current = None
        else:
            self.depth -= 1

    def handle_data(self, data):
        if self.current is not None:
            self.lines[self.block][self.current] += data


def test_index_links_the_lesson(client):
    r = client.get("/")
    assert r.status_code == 200
    assert 'href="/lessons/s06"' in r.text


def test_lesson_page_renders_each_block_line_by_line(client):
    r = client.get("/lessons/s06")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    parser = LineCollector()
    parser.feed(r.text)
    lesson = client.get("/api/lessons/s06").json()
    for block in lesson["blocks"]:
        shown = parser.lines[f"s06/{block['symbol']}"]
        expected = block["code"].split("\n")
        assert [shown[i + 1] for i in range(len(expected))] == expected
    assert set(parser.lines) == {f"s06/{b}" for b in BLOCKS}


def test_lesson_page_in_english(client):
    r = client.get("/lessons/s06?lang=en")
    assert ">Debug<" in r.text and ">调试<" not in r.text
    # issue 36: the explicit choice is remembered; without one the browser's language rules
    assert ">Debug<" in client.get("/lessons/s06").text
    client.cookies.clear()
    assert ">调试<" in client.get("/lessons/s06").text
    english = {"Accept-Language": "en-GB,en;q=0.9"}
    assert ">Debug<" in client.get("/lessons/s06", headers=english).text
    assert ">调试<" in client.get("/lessons/s06?lang=zh", headers=english).text
    assert ">调试<" in client.get("/lessons/s06", headers=english).text   # remembered
    client.cookies.clear()


@pytest.mark.parametrize("header,lang", [
    ("en-US,en;q=0.9", "en"), ("zh-CN,zh;q=0.9,en;q=0.8", "zh"), ("fr,en;q=0.5,zh;q=0.4", "en"),
    ("en;q=0.2,zh;q=0.9", "zh"), ("de", "zh"), ("", "zh"), (None, "zh"), ("en;q=oops", "zh"),
    ("*", "zh"), ("EN-us", "en"),
])
def test_the_page_language_of_an_accept_language_header(header, lang):
    assert page_data.accepted_lang(header) == lang


def test_wasm_is_served_with_its_type_and_immutable(client):
    r = client.get(f"{assets.PYODIDE_URL}pyodide.asm.wasm", headers={"accept-encoding": "identity"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/wasm"
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.content[:4] == b"\0asm"


def test_precompressed_copy_is_chosen_by_accept_encoding(client):
    url = f"{assets.PYODIDE_URL}pyodide.asm.wasm"
    plain = client.get(url, headers={"accept-encoding": "identity"})
    br = client.get(url, headers={"accept-encoding": "gzip, br"})
    assert br.headers["content-encoding"] == "br" and br.headers["vary"] == "Accept-Encoding"
    assert br.content == plain.content  # the client decodes the brotli body
    gz = client.get(url, headers={"accept-encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip" and gz.content == plain.content


def test_module_scripts_have_a_javascript_type(client):
    r = client.get(f"{assets.PYODIDE_URL}pyodide.mjs")
    assert r.headers["content-type"].startswith("text/javascript")


def test_lessons_api_lists_presets(client):
    lessons = client.get("/api/lessons").json()["lessons"]
    s06 = next(lesson for lesson in lessons if lesson["id"] == "s06")
    assert {p["name"] for p in s06["presets"]} >= {"normal", "missing", "limit", "forbidden", "long"}
    presets = {b["symbol"]: b["presets"] for b in s06["blocks"]}
    assert presets == {"child_tools": ["normal", "missing"],
                       "run_subagent": ["normal", "missing", "limit", "forbidden", "invalid"],
                       "task_result": ["normal", "limit", "long"]}


def test_preset_api_gives_the_setup_for_that_scenario(client):
    r = client.get("/api/lessons/s06/blocks/run_subagent/presets/limit")
    assert r.status_code == 200
    body = r.json()
    assert body["zh"] and body["en"]
    assert body["setup"].startswith("scenario = 'limit'\n")
    assert "run_subagent(task,tools,ask" in body["setup"]


@pytest.mark.parametrize("url,reason", [
    ("/api/lessons/nope", "unknown lesson: nope"),
    ("/lessons/nope", "unknown lesson: nope"),
    ("/api/lessons/s06/blocks/nope", "unknown block: s06/nope"),
    ("/api/lessons/s06/blocks/child_tools/presets/limit", "unknown preset for s06/child_tools: limit"),
    ("/embed/s06/child_tools?scenario=nope", "unknown preset for s06/child_tools: nope"),
    ("/embed/s06/nope", "unknown block: s06/nope"),
])
def test_unknown_things_are_404_with_a_json_reason(client, url, reason):
    r = client.get(url)
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {"detail": reason}


@pytest.mark.parametrize("method,url", [("POST", "/"), ("PUT", "/api/lessons"),
                                        ("DELETE", "/lessons/s06"), ("POST", "/api/lessons/s06")])
def test_only_get_and_head(client, method, url):
    assert client.request(method, url).status_code == 405


def test_no_endpoint_accepts_a_body(client):
    spec = client.app.openapi()
    for path, ops in spec["paths"].items():
        assert set(ops) <= {"get", "head"}, path


@pytest.fixture(scope="module")
def live_url():
    """The app behind a real HTTP server, so that raw request paths reach it unchanged."""
    config = uvicorn.Config(server.create_app(), host="127.0.0.1", port=0, log_level="warning")
    live = uvicorn.Server(config)
    thread = threading.Thread(target=live.run, daemon=True)
    thread.start()
    ready = threading.Event()
    while not live.started and thread.is_alive():
        ready.wait(0.02)  # waiting for the server thread to bind its socket
    assert live.started, "the test server did not start"
    host, port = live.servers[0].sockets[0].getsockname()[:2]
    yield host, port
    live.should_exit = True
    thread.join(10)


def raw_get(live_url, target: str) -> tuple[int, dict, bytes]:
    """GET `target` sent byte for byte: no client-side normalisation of '..' or '%2e'."""
    conn = http.client.HTTPConnection(*live_url, timeout=10)
    try:
        conn.putrequest("GET", target, skip_accept_encoding=True)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


TRAVERSALS = [
    "/static/../server.py", "/static/%2e%2e/server.py", "/static/%2E%2E/server.py",
    "/static/..%2fserver.py", "/static/..%2Fserver.py", "/static/.%2e/server.py",
    "/static/..\\server.py", "/static/..%5cserver.py", "/static/%5c..%5cserver.py",
    "/static/js/../../../server.py", "/static/js/..%2f..%2f..%2fserver.py",
    "/vendor/../server.py", "/vendor/%2e%2e/%2e%2e/server.py", "/vendor/..%2f..%2fpyproject.toml",
    "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/%2f%2fetc/passwd",
    "/py/lessons/../../server.py", "/py/lessons/%2e%2e/server.py",
    "/py/lessons/s06/%2e%2e/%2e%2e/server.py", "/py/lessons/s06/..%5c..%5cserver.py",
    "/py/runtime/../server.py", "/py/runtime/%2e%2e%2fserver.py", "/py/runtime/..%5crecorder.py",
    "/static/css%00.css", "/static/js/page.js%00.png",
    f"{assets.PYODIDE_URL}pyodide.asm.wasm.br",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_traversal_never_escapes(live_url, target):
    status, headers, body = raw_get(live_url, target)
    assert status in (400, 404), (status, body[:200])
    assert b"create_app" not in body and b"root:" not in body and b"[build-system]" not in body
    if status == 404:
        assert headers["content-type"] == "application/json" and b'"detail"' in body


def test_the_raw_client_reaches_files(live_url):
    """The traversal cases above would pass against a server that answers nothing."""
    status, headers, body = raw_get(live_url, "/static/js/page.js")
    assert status == 200 and b"import" in body
    status, _, body = raw_get(live_url, "/py/runtime/recorder.py")
    assert status == 200 and b"def record" in body


def test_security_headers_on_every_response(client):
    for url in ("/", "/lessons/s06", "/api/lessons", "/api/lessons/nope",
                f"{assets.PYODIDE_URL}pyodide.mjs"):
        headers = client.get(url).headers
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "'wasm-unsafe-eval'" in csp
        assert "frame-ancestors" not in csp


def test_frame_ancestors_can_be_restricted():
    client = TestClient(server.create_app(frame_ancestors="https://a.example"))
    assert client.get("/").headers["content-security-policy"].endswith(
        "; frame-ancestors https://a.example")
    # the guest runtime's frame sits in a page that sits in the host: framed as they are
    assert client.get(server.GUEST_FRAME).headers["content-security-policy"].endswith(
        "; frame-ancestors 'self' https://a.example")


def test_the_guest_frame_has_a_policy_of_its_own(client):
    """No request of its own, no eval, workers from blobs only; framed wherever the pages are
    (by default anywhere: an embed's guest frame has the host page among its ancestors)."""
    policy = client.get(server.GUEST_FRAME).headers["content-security-policy"]
    assert policy == server.GUEST_CSP
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["connect-src"] == "'none'" and directives["default-src"] == "'none'"
    assert "unsafe-eval" not in directives["script-src"].replace("wasm-unsafe-eval", "")
    assert "frame-ancestors" not in directives
    meta = client.get(server.GUEST_FRAME).text
    assert f'content="{server.GUEST_CSP}"' in meta  # the same, for a host that sends no header


@pytest.mark.parametrize("path,location,lands", [
    ("/lessons/s06/", "../s06", "/lessons/s06"),
    ("/lessons/s06/?lang=en", "../s06?lang=en", "/lessons/s06"),
    ("/embed/s06/run_subagent/en", "./en/", "/embed/s06/run_subagent/en/"),
    ("/api/lessons/s06/", "../s06", "/api/lessons/s06"),
    ("/api/lessons/", "../lessons", "/api/lessons")])
def test_redirects_are_relative_whatever_the_host_header_says(client, path, location, lands):
    response = client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert response.is_redirect and response.headers["location"] == location
    followed = client.get(path, follow_redirects=True)
    assert followed.status_code == 200 and followed.url.path == lands
    assert followed.history and followed.url.host == "testserver"


def test_worker_python_files_are_served(client):
    assert "/py/bundles/runtime.bin" in client.get("/lessons/s06").text
    assert "def record(" in client.get("/py/runtime/recorder.py").text
    r = client.get("/py/lessons/s06/core/runtime.py")
    assert r.status_code == 200 and "def child_tools(tools):" in r.text


def test_templates_have_no_inline_style_and_one_inline_script_allowed_by_its_hash(client):
    response = client.get("/lessons/s06")
    html = response.text
    assert " style=" not in html and "<style" not in html
    inline = []
    for tag, body in re.findall(r"(<script[^>]*>)(.*?)</script>", html, re.S):
        if ' src="' not in tag and 'type="application/json"' not in tag:
            inline.append(body)
    assert inline == [assets.EARLY_SCRIPT]   # the head's early boot script, verbatim
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in response.headers["content-security-policy"]
    assert html.index("loopstep-runtime") < html.index(assets.EARLY_SCRIPT) < html.index("<body")
    # the page's script: its modules in one file (tests/test_page_bundle.py)
    assert re.search(r"<script[^>]* src=\"/static/js/bundle/page-\w+\.js\"", html)


def test_the_boot_set_is_cached_for_good_under_its_version(client):
    """The fast boot set's files are served as immutable; the page names the set's version
    (a digest of its SHA256SUMS), which boot.js puts on their URLs: a rebuilt set is a
    new URL, never a stale cached file."""
    html = client.get("/lessons/s06").text
    island = json.loads(re.search(r'id="loopstep-runtime">(.*?)</script>', html, re.S).group(1))
    sums = (assets.BOOT_DIR / "SHA256SUMS").read_bytes()
    assert island["pyodide"]["bootVersion"] == hashlib.sha256(sums).hexdigest()[:16]
    url = island["pyodide"]["bootURL"] + "snapshot.bin?v=" + island["pyodide"]["bootVersion"]
    response = client.get(url)
    assert response.status_code == 200
    assert "immutable" in response.headers["cache-control"]


def test_files_revalidate_answer_head_and_open_static_to_other_origins(client):
    url = "/static/js/page.js"
    first = client.get(url)
    assert first.headers["cache-control"] == "no-cache"
    assert first.headers["access-control-allow-origin"] == "*"
    again = client.get(url, headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    head = client.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == first.headers["content-length"]
    assert "access-control-allow-origin" not in client.get("/py/runtime/recorder.py").headers
    assert client.post(url).status_code == 405


def test_files_of_a_lesson_are_served_only_when_listed(client):
    assert client.get("/py/lessons/s06/lesson.toml").headers["content-type"].startswith("text/plain")
    r = client.get("/py/lessons/s06/nothere.py")
    assert r.status_code == 404 and r.json() == {"detail": "not found: s06/nothere.py"}
    r = client.get("/py/runtime/__init__.pyc")
    assert r.status_code == 404 and r.json() == {"detail": "not found: __init__.pyc"}
