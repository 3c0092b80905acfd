"""Browser test harness: the real server as a subprocess and a real headless Chromium.

A missing browser is a failure with a message, never a skip.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.error import URLError
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest

try:
    from .page_helpers import block, lesson_url, wait_ready
except ImportError:
    from page_helpers import block, lesson_url, wait_ready

REPO = Path(__file__).resolve().parent.parent.parent
DEPLOY = REPO / "deploy" / "nginx"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # fewer processes for the same pages (docs/performance.md, "fourth pass"): the tests'
    # tabs of the site share one renderer (keep_pyodide_compiled counts on it), and the
    # network service and the GPU's software compositing run in the browser process
    "--renderer-process-limit=1", "--in-process-gpu",
    "--enable-features=NetworkServiceInProcess2",
]


def chromium_path() -> str:
    """$LOOPSTEP_CHROMIUM, else Chromium's headless shell, else Chromium (as
    scripts/ensure_chromium.sh finds them)."""
    path = os.environ.get("LOOPSTEP_CHROMIUM") or next(
        (p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(p).is_file()),
        "/usr/bin/chromium-headless-shell")
    if not (Path(path).is_file() and os.access(path, os.X_OK)):
        pytest.fail(
            f"No Chromium at {path}. Run `make test` (it installs Debian's "
            "chromium-headless-shell as root) or set LOOPSTEP_CHROMIUM to a Chromium/Chrome "
            "executable.", pytrace=False)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`loopstep serve` in a subprocess, its log kept for failure reports."""

    def __init__(self, args: list[str], cwd: Path = REPO):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(self.command(args), cwd=cwd, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        self._wait_ready()

    def command(self, args: list[str]) -> list[str]:
        return [sys.executable, "-c", "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                "serve", "--port", str(self.port), *args]

    def _wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                with urlopen(self.url + "/", timeout=1):
                    return
            except (URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)  # polling a subprocess's port, not a browser wait
        pytest.fail(f"server did not answer within {timeout}s:\n{self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class StaticSite(ServerProcess):
    """`loopstep export` (of `lessons`, a lessons root; default the bundled lessons; with
    `options`, e.g. `--live …`) served by Python's plain static file server."""

    def __init__(self, lessons: Path | None = None, options: tuple[str, ...] = ()):
        self.folder = Path(tempfile.mkdtemp(prefix="loopstep-site-"))
        chosen = ["--lessons", str(lessons)] if lessons else []
        subprocess.run([sys.executable, "-c",
                        "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                        "export", str(self.folder), *chosen, *options], cwd=REPO, check=True,
                       capture_output=True)
        super().__init__([], cwd=self.folder)

    def command(self, args: list[str]) -> list[str]:
        return [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1"]

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class NginxSite(StaticSite):
    """`loopstep export` served by nginx with the shipped deploy/nginx/loopstep.conf, as a
    foreground process on a free loopback port with its own prefix, logs and temp dirs.
    An export with live runs ships `nginx-csp.conf`: its policy line replaces the shipped
    one, as docs/live.md tells a host to do."""

    def __init__(self, lessons: Path | None = None, options: tuple[str, ...] = ()):
        self.nginx = nginx_path()
        self.prefix = Path(tempfile.mkdtemp(prefix="loopstep-nginx-"))
        super().__init__(lessons, options)

    def command(self, args: list[str]) -> list[str]:
        conf = self.prefix / "nginx.conf"
        shipped = DEPLOY / "loopstep.conf"
        live_policy = self.folder / "nginx-csp.conf"
        if live_policy.is_file():
            policy = next(line for line in live_policy.read_text("utf-8").splitlines()
                          if line.startswith("add_header Content-Security-Policy"))
            text = "\n".join(policy if line.startswith("add_header Content-Security-Policy")
                             else line for line in shipped.read_text("utf-8").splitlines())
            shipped = self.prefix / "loopstep.conf"
            shipped.write_text(text + "\n", encoding="utf-8")
        conf.write_text(nginx_conf(self.prefix, self.folder, self.port, shipped), encoding="utf-8")
        return [self.nginx, "-p", str(self.prefix), "-c", str(conf), "-e", "stderr"]

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.prefix, ignore_errors=True)


def nginx_path() -> str:
    path = os.environ.get("LOOPSTEP_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    if not (Path(path).is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"No nginx at {path}. Run scripts/ensure_nginx.sh (it installs Debian's nginx "
                    "as root) or set LOOPSTEP_NGINX to an nginx executable.", pytrace=False)
    return path


def nginx_conf(prefix: Path, root: Path, port: int, site_conf: Path = DEPLOY / "loopstep.conf") -> str:
    """A main config around the shipped server-level files (`site_conf` for loopstep.conf),
    brotli where the module exists."""
    brotli = BROTLI_MODULE.is_file()
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""daemon off;
master_process off;
pid {prefix / "nginx.pid"};
error_log stderr warn;
{f"load_module {BROTLI_MODULE};" if brotli else ""}
events {{ worker_connections 256; }}
http {{
    access_log off;
{temp}
    server {{
        listen 127.0.0.1:{port};
        root {root};
        include {site_conf};
        {f'include {DEPLOY / "loopstep-brotli.conf"};' if brotli else ""}
    }}
}}
"""


@pytest.fixture(scope="session")
def site_kind(request) -> str:
    """"server", or "export" for a static export (served by http.server or by nginx)."""
    return "server" if request.config.getoption("--site") == "server" else "export"


@pytest.fixture(scope="session")
def server(request):
    kinds = {"server": lambda: ServerProcess([]), "export": StaticSite, "nginx": NginxSite}
    proc = kinds[request.config.getoption("--site")]()
    yield proc
    proc.stop()
    if request.session.testsfailed:
        print("\n--- server log ---\n" + proc.output()[-8000:])


def site_of(kind: str, lessons: Path | None, options: tuple[str, ...] = ()):
    """The site of one lessons root (None: the bundled lessons), as the --site option asks:
    served by `loopstep serve`, or exported and served by http.server or nginx; `options`
    are given to both `serve` and `export` (e.g. `--live …`)."""
    chosen = ("--lessons", str(lessons)) if lessons else ()
    kinds = {"server": lambda: ServerProcess([*chosen, *options]),
             "export": lambda: StaticSite(lessons, options),
             "nginx": lambda: NginxSite(lessons, options)}
    return kinds[kind]()


@pytest.fixture(scope="session")
def server_url(server) -> str:
    return server.url


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import expect, sync_playwright
    # an assertion retries until it holds: it returns as soon as it does, and the time it
    # may take is a busy machine's, not an idle one's (Playwright's default is 5 s)
    expect.set_options(timeout=15_000)
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser_context(playwright_instance, server, site_kind):
    """One persistent profile for the session, so the Pyodide bundle is cached, and a tab
    that keeps Pyodide compiled (keep_pyodide_compiled)."""
    profile = tempfile.mkdtemp(prefix="loopstep-profile-")
    context = playwright_instance.chromium.launch_persistent_context(
        profile, executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True,
        viewport={"width": 1280, "height": 900},
        locale="zh-CN")   # a Chinese reader: pages without ?lang= are in Chinese (Accept-Language)
    context.set_default_timeout(30_000)
    keep_pyodide_compiled(context, lesson_url(server.url, site_kind))
    yield context
    context.close()
    shutil.rmtree(profile, ignore_errors=True)


def keep_pyodide_compiled(context, url: str) -> None:
    """A tab left open for the session on a lesson page, its runtime ready. Its worker holds
    Pyodide's compiled wasm module, which V8 shares with every worker of the same renderer
    process (the tests' tabs share one: CHROMIUM_ARGS): each test's page takes the module as
    compiled and tiered up so far instead of compiling it again (docs/performance.md,
    "fourth pass"). What a page does stays its own: only compiled code is shared."""
    page = context.new_page()
    page.goto(url)
    wait_ready(block(page, "run_subagent"))


class PageWatch:
    """What a page did that a test must not allow: off-origin requests, console errors."""

    def __init__(self, page, origin: str):
        self.origin = origin
        self.requests: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))

    def check(self, request) -> None:
        """Fail the test on console errors (unless it allows them) or off-origin requests."""
        if "allow_console_errors" not in request.keywords:
            assert not self.page_errors, self.page_errors
            assert not self.console_errors, self.console_errors
        assert not self.off_origin(), self.off_origin()

    def off_origin(self) -> list[str]:
        def origin(url: str) -> str:
            parts = urlsplit(url)
            return f"{parts.scheme}://{parts.netloc}"
        return [u for u in self.requests
                if not u.startswith(("data:", "blob:")) and origin(u) != self.origin]


@contextmanager
def served(lessons: Path, *options: str):
    """`loopstep serve --lessons LESSONS [OPTIONS]`: a test module's own lessons, served."""
    proc = ServerProcess(["--lessons", str(lessons), *options])
    yield proc
    proc.stop()


@contextmanager
def watched_page(browser_context, server_url: str, path: str | None, request):
    """A new tab on the site's `path` (None: left blank); closed afterwards, the test failed
    on its console errors or off-origin requests (PageWatch)."""
    page = browser_context.new_page()
    watch = PageWatch(page, server_url)
    if path is not None:
        page.goto(server_url + path)
    yield page
    page.close()
    watch.check(request)


@pytest.fixture(autouse=True)
def no_remembered_language(request):
    """Each test starts with no language choice remembered (the `loopstep-lang` cookie a
    `?lang=` page sets), so that a page without `?lang=` is in the browser's language."""
    if "browser_context" in request.fixturenames:
        request.getfixturevalue("browser_context").clear_cookies()


@pytest.fixture
def watch_page():
    """Attach a PageWatch to a page made by the test itself."""
    return PageWatch


@pytest.fixture
def page(browser_context, server_url, request):
    page = browser_context.new_page()
    watch = PageWatch(page, server_url)
    page.watch = watch
    yield page
    page.close()
    watch.check(request)


def pytest_configure(config):
    config.addinivalue_line("markers", "allow_console_errors: the test provokes errors on purpose")
