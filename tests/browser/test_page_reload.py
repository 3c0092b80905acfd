"""`loopstep serve --reload` in the browser (issue 36): an open lesson page reloads itself
with an edit of its lesson, and a bad lesson's page shows the error, then the lesson
once it is fixed. Its own server on a lessons folder the test writes."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import PageWatch, ServerProcess
except ImportError:
    from conftest import PageWatch, ServerProcess

FIXTURES = Path(__file__).resolve().parent / "fixture_lessons"
FIXED_SETUP = "def model(messages):\n    return 1\n\n\ndef run_tool(block):\n    return 1\n"


@pytest.fixture
def lessons(tmp_path):
    shutil.copytree(FIXTURES / "runaway", tmp_path / "runaway")
    shutil.copytree(FIXTURES / "runaway", tmp_path / "broken")
    toml = tmp_path / "broken" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8").replace("runaway/", "broken/"), "utf-8")
    (tmp_path / "broken" / "setup.py").write_text("def model(messages):\n    return {'a': 1\n",
                                                  "utf-8")
    return tmp_path


@pytest.fixture
def reloading(lessons):
    proc = ServerProcess(["--reload", "--lessons", str(lessons)])
    yield proc
    proc.stop()


def test_an_open_page_follows_an_edit_of_its_lesson(browser_context, reloading, lessons,
                                                     request):
    page = browser_context.new_page()
    watch = PageWatch(page, reloading.url)
    page.goto(reloading.url + "/lessons/runaway?lang=en")
    expect(page.locator("h1")).to_have_text("Runaway loops")
    toml = lessons / "runaway" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8").replace('"Runaway loops"', '"Loops, edited"'), "utf-8")
    expect(page.locator("h1")).to_have_text("Loops, edited", timeout=20_000)
    page.close()
    watch.check(request)


@pytest.mark.allow_console_errors   # the error page's own status, 500: checked below
def test_a_bad_lessons_page_shows_its_error_then_the_fixed_lesson(browser_context, reloading,
                                                                   lessons, request):
    page = browser_context.new_page()
    watch = PageWatch(page, reloading.url)
    page.goto(reloading.url + "/lessons/broken")
    error = page.locator('[data-role="lesson-error"]')
    expect(error).to_contain_text("setup.py:2:12: SyntaxError: '{' was never closed")
    assert "loopstep: lesson broken is not served" in reloading.output()
    (lessons / "broken" / "setup.py").write_text(FIXED_SETUP, "utf-8")
    expect(page.locator('[data-loopstep-block="broken/agent_loop"]')).to_be_visible(timeout=20_000)
    expect(error).to_have_count(0)
    page.close()
    watch.check(request)
    assert not watch.page_errors, watch.page_errors
    assert all("500" in text for text in watch.console_errors), watch.console_errors
