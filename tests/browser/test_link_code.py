"""Nothing runs from a URL without a click (contract: "Code from a link or a file"): a link's
custom setup or fork is shown as text in [data-role="link-code"] and runs only when the
reader presses run-from-link, on a lesson page and in an embed framed by another origin;
loopstep:finish carries no output of such a run. A preset's link still restores at once."""
from __future__ import annotations

import functools
import http.server
import json
import re
import threading

import pytest
from playwright.sync_api import expect

from axe_audit import assert_no_violations_in_schemes

from page_helpers import (BOOT_TIMEOUT, block, link_fragment, open_lesson, press,
                          run_from_link, run_to_end, wait_ready)
from loopstep.runtime.catalog.lessons import load_lesson

NORMAL_SETUP = load_lesson("s06").setup_text("normal")
MARKER = "链接带来的标记 7f3a"
# a setup that prints the marker; its comment is markup that must stay text
MARKED_SETUP = NORMAL_SETUP + f'# <img src=x data-injected="yes">\nprint("{MARKER}")\n'
CHANGED = '{"stop_reason": "end_turn", "content": [{"type": "text", "text": "改答 <b>x</b>"}]}'

# Every loopstep:pause and loopstep:finish of the page, from before its scripts run.
EVENT_SPY = """
window.loopstepSeen = [];
for (const type of ["loopstep:pause", "loopstep:finish"]) {
  document.addEventListener(type, (e) => window.loopstepSeen.push({ type, detail: e.detail }), true);
}
"""


def seen(page) -> list[dict]:
    return page.evaluate("window.loopstepSeen")


def expect_shown_not_run(page, b, *texts: str) -> None:
    """The block shows the link's code as text and has run nothing of it."""
    panel = b.locator('[data-role="link-code"]')
    for text in texts:
        expect(panel).to_contain_text(text, timeout=BOOT_TIMEOUT)
    expect(panel.locator("[data-injected], b")).to_have_count(0)   # text, never markup
    wait_ready(b)   # a run started by the link would hold the block in running/paused
    expect(b.locator('[data-role="output"]')).to_have_text("")
    expect(b.locator('[data-role="comparison"]')).to_be_hidden()
    expect(b.locator('[data-role="fork-editor"]')).to_be_hidden()
    assert seen(page) == []


def test_a_custom_setup_from_a_link_is_shown_and_runs_only_when_pressed(page, server_url, site_kind):
    page.add_init_script(EVENT_SPY)
    hash = f"#b=run_subagent&s=custom&custom={link_fragment(MARKED_SETUP)}&step=0"
    open_lesson(page, server_url, site_kind, hash=hash)
    b = block(page, "run_subagent")
    expect_shown_not_run(page, b, f'print("{MARKER}")', '<img src=x data-injected="yes">')
    expect(b).to_have_attribute("data-scenario", "normal")
    expect(page).to_have_url(re.compile(r"[#&]custom=[A-Za-z0-9_-]+"))   # the link keeps it
    # where it would run is booted while the reader reads it: the guest, ready, ran nothing
    expect(page.locator('iframe[data-role="guest-runtime"]')).to_have_attribute(
        "data-boot", "snapshot", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).not_to_contain_text(MARKER)

    run_from_link(b)
    expect(b).to_have_attribute("data-scenario", "custom")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_contain_text(MARKER)
    assert [e["type"] for e in seen(page)] == ["loopstep:pause"]
    assert seen(page)[0]["detail"]["step"] >= 0
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    finish = page.evaluate("window.loopstepSeen.find(e => e.type === 'loopstep:finish').detail")
    assert finish["scenario"] == "custom" and finish["block"] == "s06/run_subagent"
    assert "output" not in finish and MARKER not in json.dumps(seen(page), ensure_ascii=False)


def test_dismissing_the_links_code_drops_it_and_runs_nothing(page, server_url, site_kind):
    page.add_init_script(EVENT_SPY)
    open_lesson(page, server_url, site_kind,
                hash=f"#b=run_subagent&s=custom&custom={link_fragment(MARKED_SETUP)}&step=0")
    b = block(page, "run_subagent")
    expect_shown_not_run(page, b, MARKER)
    dismiss = b.locator('[data-role="link-code"] button[data-action="dismiss-link-code"]')
    dismiss.focus()
    page.keyboard.press("Enter")
    expect(b.locator('[data-role="link-code"]')).to_have_count(0)
    expect(page).not_to_have_url(re.compile("custom="))
    expect(b.locator('select[data-role="scenario"] option[value="custom"]')).to_have_count(0)
    run_to_end(b)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： answered\n")
    finish = seen(page)[-1]
    assert finish["type"] == "loopstep:finish" and finish["detail"]["output"] == "完成： answered\n"


@pytest.mark.parametrize("step", [None, 5])
def test_a_fork_from_a_link_is_shown_and_runs_only_when_pressed(page, server_url, site_kind, step):
    page.add_init_script(EVENT_SPY)
    hash = f"#b=run_subagent&s=normal&fork=model%3A2~{link_fragment(CHANGED)}"
    open_lesson(page, server_url, site_kind, hash=hash + ("" if step is None else f"&step={step}"))
    b = block(page, "run_subagent")
    expect_shown_not_run(page, b, "model:2", "改答 <b>x</b>")

    run_from_link(b)
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison.locator(".comparison-title")).to_contain_text("分叉 model:2", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="fork-text"]')).to_have_text(CHANGED)
    timeline = b.locator('input[data-role="timeline"]')
    if step is None:   # no step: the block's run is shown to its end, no output sent
        expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
        finish = page.evaluate("window.loopstepSeen.find(e => e.type === 'loopstep:finish').detail")
        assert "output" not in finish
    else:
        expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
        expect(timeline).to_have_value(re.compile(r"^\d+$"))
        assert int(timeline.input_value()) >= step
    expect(page).to_have_url(re.compile(r"[#&]fork=model%3A2~"))


def test_a_link_with_a_setup_and_a_fork_shows_both_and_passes_the_audit(page, server_url, site_kind):
    page.add_init_script(EVENT_SPY)
    # it scrolls; a bidi control in it is shown, not obeyed
    long_setup = MARKED_SETUP + "# \u202eevil\n" + "".join(f"# 第 {n} 行\n" for n in range(200))
    open_lesson(page, server_url, site_kind, hash=f"#b=run_subagent&s=custom&custom={link_fragment(long_setup)}"
                f"&fork=model%3A2~{link_fragment(CHANGED)}")
    b = block(page, "run_subagent")
    expect_shown_not_run(page, b, MARKER, "# 第 199 行", "model:2", "改答 <b>x</b>")
    texts = b.locator('[data-role="link-code"] .link-code-text')
    expect(texts).to_have_count(2)
    expect(texts.first.locator('.invisible[data-label="U+202E"]')).to_have_count(1)
    assert texts.first.evaluate("e => e.scrollHeight > e.clientHeight && getComputedStyle(e).overflowY")
    assert_no_violations_in_schemes(page, "code from a link",
                                    within='[data-loopstep-block="s06/run_subagent"] [data-role="link-code"]')


def test_a_preset_link_still_restores_and_pauses_by_itself(page, server_url, site_kind):
    page.add_init_script(EVENT_SPY)
    open_lesson(page, server_url, site_kind, hash="#b=run_subagent&s=limit&bp=15&step=0")
    b = block(page, "run_subagent")
    expect(b).to_have_attribute("data-scenario", "limit")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="link-code"]')).to_have_count(0)
    expect(b.locator('button[data-gutter="15"]')).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("window.loopstepSeen.some(e => e.type === 'loopstep:pause')")


FRAMING_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>a page elsewhere</title><link rel="icon" href="data:,"></head>
<body>
<iframe id="embed" style="width: 100%; height: 900px; border: 0" src="{src}"></iframe>
<script>
  window.received = [];
  window.addEventListener("message", (e) => window.received.push(e.data));
</script>
</body></html>
"""


@pytest.fixture
def framing_host(tmp_path):
    """A page server of another origin: `serve(html)` gives the URL of `html` on it."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"

    def serve(html: str) -> str:
        (tmp_path / "host.html").write_text(html, encoding="utf-8")
        return f"{origin}/host.html"
    yield origin, serve
    httpd.shutdown()


@pytest.mark.hosting
def test_an_embed_framed_with_code_in_its_fragment_runs_nothing_and_sends_no_output(
        browser_context, server_url, site_kind, framing_host, watch_page):
    origin, serve = framing_host
    path = "/embed/s06/run_subagent" + ("/" if site_kind == "export" else "")
    src = (f"{server_url}{path}?origin={origin}"
           f"#b=run_subagent&s=custom&custom={link_fragment(MARKED_SETUP)}&step=0")
    page = browser_context.new_page()
    watch = watch_page(page, server_url)
    page.goto(serve(FRAMING_PAGE.replace("{src}", src)))
    b = page.frame_locator("#embed").locator('[data-loopstep-block="s06/run_subagent"]')
    panel = b.locator('[data-role="link-code"]')
    expect(panel).to_contain_text(f'print("{MARKER}")', timeout=BOOT_TIMEOUT)
    wait_ready(b)
    expect(b.locator('[data-role="output"]')).to_have_text("")
    page.wait_for_function("window.received.some(m => m.type === 'loopstep:resize')")
    assert {m["type"] for m in page.evaluate("window.received")} == {"loopstep:resize"}

    run_from_link(b)
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_contain_text(MARKER)
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    page.wait_for_function("window.received.some(m => m.type === 'loopstep:finish')")
    received = page.evaluate("window.received")
    finish = next(m for m in received if m["type"] == "loopstep:finish")
    assert finish["scenario"] == "custom" and "output" not in finish
    assert MARKER not in json.dumps(received, ensure_ascii=False)
    assert not watch.page_errors, watch.page_errors
    page.close()
