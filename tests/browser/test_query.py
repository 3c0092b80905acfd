"""`?lang=` and `?scenario=` work the same on the server and on a static export."""
import pytest
from playwright.sync_api import expect


pytestmark = pytest.mark.hosting   # the query (?lang=, ?scenario=) on the app and on static files

def test_lang_query_gives_english_labels(page, server_url):
    page.goto(f"{server_url}/lessons/s06?lang=en")
    block = page.locator('[data-loopstep-block="s06/child_tools"]')
    expect(block.locator('button[data-action="debug"]')).to_have_text("Debug")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(block).to_have_attribute("data-state", "ready", timeout=60_000)


def test_embed_scenario_and_lang_query(page, server_url):
    page.goto(f"{server_url}/embed/s06/task_result?scenario=limit&lang=en")
    block = page.locator('[data-loopstep-block="s06/task_result"]')
    expect(block.locator('select[data-role="scenario"]')).to_have_value("limit")
    expect(block).to_have_attribute("data-scenario", "limit")
    expect(block.locator('button[data-action="run"]')).to_have_text("Run")
    expect(block).to_have_attribute("data-state", "ready", timeout=60_000)
    block.locator('button[data-action="run"]').click()
    expect(block.locator('[data-role="output"]')).to_have_text(
        '完成： {"status": "call_limit", "summary": "已达子循环预算，尚未得出结论。", "calls": 1}\n')
