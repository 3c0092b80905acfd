"""A lesson folder added to a lessons directory is served and runs, with no code change.

It runs against its own `loopstep serve --lessons DIR` (also in the export pass: the
point is the server discovering a folder it was pointed at)."""
import pytest
from playwright.sync_api import expect

try:
    from .conftest import PageWatch, ServerProcess
except ImportError:
    from conftest import PageWatch, ServerProcess

SOURCE = "def double(n):\n    twice = n * 2\n    return twice\n"
TOML = """
title.zh = "小例子"
title.en = "A tiny lesson"
summary.zh = "把数翻倍。"
summary.en = "Doubles a number."
setup = "tiny/setup.py"
modules = ["tiny/code.py"]
[[presets]]
name = "small"
zh = "小数"
en = "Small"
[[presets]]
name = "large"
zh = "大数"
en = "Large"
[[blocks]]
symbol = "double"
source = "tiny/code.py"
presets = ["small", "large"]
entry = "print(double(n))\\n"
[[stages]]
id = "double"
zh = "翻倍"
en = "Double"
lines = [{ block = "double", from = 2, to = 3 }]
"""


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("lessons")
    (root / "tiny").mkdir()
    (root / "tiny" / "lesson.toml").write_text(TOML, encoding="utf-8")
    (root / "tiny" / "code.py").write_text(SOURCE, encoding="utf-8")
    (root / "tiny" / "setup.py").write_text("n = 21 if scenario == 'small' else 500\n",
                                            encoding="utf-8")
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
    block.locator('select[data-role="scenario"]').select_option("large")
    block.locator('button[data-action="run"]').click()
    expect(block.locator('[data-role="output"]')).to_have_text("1000\n")
    page.close()
    watch.check(request)
