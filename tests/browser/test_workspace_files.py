"""The workspace panel's file view in real Chromium, on the fixture lesson `files` (recorded
live in the page's Python): a binary file shows its size only, a text over 64 KiB its first
64 KiB with a note, a deleted file is listed as deleted; a changed file against the start."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import served, watched_page
from page_helpers import BOOT_TIMEOUT, run_to_end, wait_ready
from loopstep.runtime.recorder import record

FIXTURES = Path(__file__).resolve().parent / "fixture_lessons"


@pytest.fixture(scope="module")
def fixture_server():
    with served(FIXTURES) as proc:
        yield proc


@pytest.fixture
def files_page(browser_context, fixture_server, request):
    with watched_page(browser_context, fixture_server.url, "/lessons/files", request) as page:
        yield page


def open_file(b, path):
    button = b.locator(f'[data-role="workspace"] [data-file="{path}"] button[data-action="open-file"]')
    button.focus()
    b.page.keyboard.press("Enter")
    view = b.locator('[data-role="file-view"]')
    expect(view).to_have_attribute("data-file", path)
    return view


def test_binary_large_deleted_and_changed_files(files_page):
    trace = record("files", "write_files", "normal", roots=[str(FIXTURES)])
    big = next(c[3] for c in trace["workspace"]["changes"] if c[1] == "big.txt")
    b = files_page.locator('[data-loopstep-block="files/write_files"]')
    wait_ready(b)
    run_to_end(b)
    folder = b.locator('[data-role="workspace"]')
    expect(folder.locator("[data-file]")).to_have_count(4, timeout=BOOT_TIMEOUT)
    states = {"big.txt": "created", "data.bin": "created", "old.txt": "deleted",
              "notes.txt": "changed"}
    for path, state in states.items():
        expect(folder.locator(f'[data-file="{path}"]')).to_have_attribute("data-state", state)
        expect(folder.locator(f'[data-file="{path}"]')).to_have_attribute("data-depth", "0")
    view = open_file(b, "data.bin")
    expect(view.locator(".file-view-note")).to_contain_text("8")
    expect(view.locator(".file-view-body")).to_have_text("")
    view = open_file(b, "big.txt")
    expect(view.locator(".file-view-note")).to_contain_text("64 KiB")
    expect(view.locator(".file-view-note")).to_contain_text("90000")
    assert view.locator(".file-view-body").text_content() == big["text"]
    assert len(big["text"]) == 65536 // 3
    view = open_file(b, "old.txt")
    expect(view.locator(".file-view-note")).to_be_visible()
    expect(view.locator(".file-view-body")).to_have_text("")
    view = open_file(b, "notes.txt")
    expect(view.locator(".file-view-body")).to_have_text("kept\nadded\n")
