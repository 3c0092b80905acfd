"""A lesson folder added to a lessons directory is served and runs, with no code change.

It runs against its own `loopstep serve --lessons DIR` (the point is the server
discovering a folder it was pointed at), so it is none of the `hosting` tests: against
each host it would run this same server again. Each host serving a lesson folder's files
is test_other_lessons.py's (a `hosting` test)."""
import pytest
from playwright.sync_api import expect

try:
    from .conftest import PageWatch, ServerProcess
    from .page_helpers import choose_option
except ImportError:
    from conftest import PageWatch, ServerProcess
    from page_helpers import choose_option
from tiny_lesson import make_lesson


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory):
    root = make_lesson(tmp_path_factory.mktemp("lessons"))
    proc = ServerProcess(["--lessons", str(root)])
    yield proc
    proc.stop()


def test_a_new_lesson_folder_runs_in_the_browser(browser_context, tiny_server, request):
    page = browser_context.new_page()
    watch = PageWatch(page, tiny_server.url)
    page.goto(f"{tiny_server.url}/lessons/tiny")
    block = page.locator('[data-loopstep-block="tiny/double"]')
    expect(block.locator('[data-line="2"]')).to_have_text("    twice = n * 2")
    expect(block).to_have_attribute("data-state", "ready", timeout=90_000)
    block.locator('button[data-gutter="3"]').click()
    block.locator('button[data-action="debug"]').click()
    expect(block).to_have_attribute("data-state", "paused")
    expect(block.locator('[data-var="twice"] [data-role="value"]')).to_have_text("42")
    expect(page.locator('[data-stage="double"]')).to_have_attribute("aria-current", "true")
    choose_option(block.locator('select[data-role="scenario"]'), "large")
    block.locator('button[data-action="run"]').click()
    expect(block.locator('[data-role="output"]')).to_have_text("1000\n")
    page.close()
    watch.check(request)
