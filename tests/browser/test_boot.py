"""The lesson page boots the bundled Pyodide in a module worker, from its own origin only."""

import pytest
from playwright.sync_api import expect

from loopstep.web import assets, bundles, module_graph


# `hosting` (also run on the export and on nginx): the tests of the bundled Pyodide and the
# boot set as files (types, paths, the worker's origin); the rest are the worker's own choices.

def ready(page):
    """The runtime panel once Python is ready (the stock boot, the slowest, within 90 s)."""
    runtime = page.locator('[data-role="runtime"]')
    expect(runtime).to_have_attribute("data-state", "ready", timeout=90_000)
    return runtime


def runs_child_tools(page):
    """Run s06 child_tools in the worker (the page opened at LIVE): the lesson's output."""
    block = page.locator('[data-loopstep-block="s06/child_tools"]')
    block.locator('button[data-action="run"]').click()
    expect(block.locator('[data-role="output"]')).to_have_text("完成： 只读工具已选出\n")
    expect(block).to_have_attribute("data-trace", "live")


# every run recorded by the worker, none from the shipped traces
LIVE = "/lessons/s06?trace=live"


@pytest.mark.hosting
@pytest.mark.allow_console_errors
def test_code_and_gutter_are_there_before_python(page, server_url):
    page.route("**/vendor/**", lambda route: route.abort())  # Python never arrives
    page.goto(f"{server_url}/lessons/s06")
    block = page.locator('[data-loopstep-block="s06/child_tools"]')
    expect(block.locator('[data-line="1"]')).to_have_text("def child_tools(tools):")
    expect(block.locator('button[data-gutter="7"]')).to_be_visible()
    expect(block.locator("[data-line]")).to_have_count(8)


@pytest.mark.hosting
def test_page_reaches_ready_with_pyodide_in_a_worker(page, server_url):
    page.goto(f"{server_url}/lessons/s06")
    blocks = page.locator("[data-loopstep-block]")
    expect(blocks).to_have_count(3)
    for i in range(3):
        expect(blocks.nth(i)).to_have_attribute("data-state", "ready", timeout=60_000)
    runtime = page.locator('[data-role="runtime"]')
    expect(runtime).to_have_attribute("data-state", "ready")
    progress = runtime.locator("progress")
    assert progress.evaluate("p => p.value >= p.max")
    # the worker of the page's bundle (one file: scripts/build_page.py), started from a blob
    # of the page's origin that imports it (so that it keeps the page's policy)
    worker = f"/static/js/{module_graph.worker_script()}"
    assert module_graph.worker_script().startswith("bundle/worker-")
    (started,) = page.workers
    assert started.url.startswith(f"blob:{server_url}/"), started.url
    assert started.evaluate("self.name") == "loopstep-python"
    assert any(u.endswith(worker) for u in page.watch.requests), page.watch.requests
    assert page.evaluate("typeof globalThis.loadPyodide") == "undefined"
    assert not any("pyodide.asm" in r for r in page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.initiatorType === 'script')"
        ".map(e => e.name)"))
    assert not page.watch.off_origin()


@pytest.mark.hosting
def test_the_fast_boot_is_used(page, server_url):
    page.goto(f"{server_url}/lessons/s06")
    runtime = ready(page)
    assert runtime.get_attribute("data-boot") in ("snapshot", "trimmed")


@pytest.mark.hosting
def test_a_broken_fast_boot_set_falls_back_to_the_stock_boot(page, server_url):
    def corrupt(route):
        route.fulfill(status=200, body=b"not a zip", content_type="application/zip")
    page.route(f"**/{assets.BOOT_DIR.name}/**", corrupt)
    page.goto(f"{server_url}{LIVE}")
    runtime = ready(page)
    expect(runtime).to_have_attribute("data-boot", "stock")
    runs_child_tools(page)


RUNTIME = bundles.runtime_modules()


def serving_other_recorder(page, files: dict[str, bytes] | None = None):
    """The s06 page says it serves other recorder sources than those the snapshot imported:
    its runtime config carries the digest of `files` (default: a digest of no files, the
    bundle it serves unchanged), so that the worker fetches the recorder's files and
    imports it from them."""
    digest = assets.files_digest(files) if files else "0" * 64

    def document(route):
        response = route.fetch()
        route.fulfill(response=response,
                      body=response.text().replace(bundles.runtime_digest(), digest))
    page.route("**/lessons/s06?*", document)


def test_the_snapshot_recorder_is_kept_without_fetching_its_files(page, server_url):
    """The page serves the recorder the snapshot imported (the same digest): the worker
    neither fetches its sources nor its precompiled modules."""
    fetched = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(f"{server_url}{LIVE}")
    runtime = ready(page)
    expect(runtime).to_have_attribute("data-recorder", "snapshot")
    expect(runtime).to_have_attribute("data-compiled", "0")
    runs_child_tools(page)
    assert not [u for u in fetched if u.endswith(f"/{bundles.RUNTIME}") or "/static/pyc/" in u]


@pytest.mark.hosting
def test_the_recorder_is_imported_precompiled(page, server_url):
    """Imported from the page's files, every module of the recorder comes precompiled
    (web/static/pyc), none is compiled."""
    serving_other_recorder(page)
    page.goto(f"{server_url}{LIVE}")
    runtime = ready(page)
    expect(runtime).to_have_attribute("data-recorder", "files")
    expect(runtime).to_have_attribute("data-compiled", str(len(RUNTIME)))
    expect(runtime).to_have_attribute("data-stale", "")
    runs_child_tools(page)


def test_the_recorder_comes_with_the_snapshot(page, server_url):
    """The snapshot has imported the recorder (scripts/build_boot.mjs, `make build`): a snapshot boot
    keeps it, as the page serves the sources it was imported from."""
    page.goto(f"{server_url}{LIVE}")
    runtime = ready(page)
    expect(runtime).to_have_attribute("data-boot", "snapshot")
    expect(runtime).to_have_attribute("data-recorder", "snapshot")
    runs_child_tools(page)


def test_a_module_changed_since_it_was_precompiled_runs_from_its_source(page, server_url):
    """The precompiled recorder is checked against the sources the page serves: a changed
    source is compiled and used, the rest still come precompiled."""
    changed = "trace/values.py"
    files = bundles.runtime_files()
    files[f"runtime/{changed}"] += b"\n# changed after it was precompiled\n"

    def edited(route):
        route.fulfill(status=200, body=bundles.pack(files), content_type="application/octet-stream")
    page.route(f"**/py/bundles/{bundles.RUNTIME}", edited)
    serving_other_recorder(page, files)
    page.goto(f"{server_url}{LIVE}")
    runtime = ready(page)
    expect(runtime).to_have_attribute("data-stale", f"/loopstep/runtime/{changed}")
    # nor is the recorder the snapshot imported from the unchanged source kept
    expect(runtime).to_have_attribute("data-recorder", "files")
    runs_child_tools(page)


@pytest.mark.parametrize("body", [pytest.param(b"", marks=pytest.mark.hosting), b"not a bundle"])
def test_without_the_precompiled_recorder_the_sources_are_compiled(page, server_url, body):
    page.route("**/static/pyc/**", lambda route: route.fulfill(
        status=404 if not body else 200, body=body, content_type="application/octet-stream"))
    serving_other_recorder(page)
    page.goto(f"{server_url}{LIVE}")
    runtime = ready(page)
    expect(runtime).to_have_attribute("data-recorder", "files")
    expect(runtime).to_have_attribute("data-compiled", "0")
    runs_child_tools(page)
