"""A two-page MkDocs site with a `loopstep` fence, built with mkdocs and served on its own
port, shows a live block from the loopstep site that runs."""
import functools
import http.server
import subprocess
import sys
import threading

import pytest
from playwright.sync_api import expect

from loopstep.runtime.recorder import record

try:
    from .page_helpers import BOOT_TIMEOUT, shown_output
except ImportError:
    from page_helpers import BOOT_TIMEOUT, shown_output

pytestmark = pytest.mark.hosting   # embed.js loaded cross-origin: the host's CORS headers

MKDOCS_YML = """site_name: Agent lessons
theme:
  name: mkdocs
  highlightjs: false
nav:
  - Home: index.md
  - Subagents: subagents.md
markdown_extensions:
  - fenced_code
  - loopstep:
      origin: {origin}
"""
INDEX = "# Agent lessons\n\nThe subagent lesson: [Subagents](subagents.md).\n"
LESSON = """# Subagents

A child agent runs with a restricted tool set and a turn budget.

```loopstep s06/run_subagent scenario=limit lang=en
```

When the budget runs out, the parent gets a fixed summary.
"""


def build_site(folder, origin: str):
    docs = folder / "docs"
    docs.mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(MKDOCS_YML.format(origin=origin), encoding="utf-8")
    (docs / "index.md").write_text(INDEX, encoding="utf-8")
    (docs / "subagents.md").write_text(LESSON, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"],
                            cwd=folder, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return folder / "site"


@pytest.fixture
def docs_url(tmp_path, request, server, server_url):
    """The built site on a port of its own. Python's http.server sends no CORS header, which
    embed.js (a module from another origin) needs: against that export the site sits inside it."""
    if request.config.getoption("--site") == "export":
        build_site(tmp_path, server_url)
        target = server.folder / "docs-site"
        (tmp_path / "site").rename(target)
        yield server_url + "/docs-site/"
        return
    site = build_site(tmp_path, server_url)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


def test_a_built_mkdocs_page_shows_a_live_block(browser_context, server_url, docs_url):
    page = browser_context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(docs_url)
    page.get_by_role("link", name="Subagents").first.click()
    expect(page.locator("h1")).to_have_text("Subagents")
    host = page.locator('div[data-loopstep="s06/run_subagent"]')
    expect(host.locator("iframe")).to_have_count(1)
    assert host.locator("iframe").get_attribute("src").startswith(server_url + "/embed/s06/run_subagent/en/")
    b = page.frame_locator('div[data-loopstep] iframe').locator('[data-loopstep-block="s06/run_subagent"]')
    expect(b).to_have_attribute("data-scenario", "limit", timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    page.evaluate("""() => { window.finished = null;
        document.querySelector('[data-loopstep]').addEventListener('loopstep:finish',
            (e) => { window.finished = e.detail; }); }""")
    b.locator('button[data-action="run"]').click()
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expected = record("s06", "run_subagent", "limit")["stdout"]
    expect(b.locator('[data-role="output"]')).to_have_text(shown_output(expected), use_inner_text=True)
    page.wait_for_function("() => window.finished !== null")
    assert page.evaluate("window.finished.scenario") == "limit"
    assert not errors, errors
    page.close()
