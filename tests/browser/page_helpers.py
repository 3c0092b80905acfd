"""Small helpers shared by the debugger page's browser tests (test_page_*.py)."""
from __future__ import annotations

import base64
import math
import re
import zlib

from playwright.sync_api import expect

BOOT_TIMEOUT = 90_000
SGR = re.compile("\033\\[[0-9;]*m")  # terminal colour codes: the page shows them as styles
LESSON = "s06"


def lesson_url(server_url: str, site_kind: str = "server", lang: str = "zh", hash: str = "") -> str:
    """The s06 lesson page, served by the app or by a static export."""
    if site_kind == "export":
        path = f"/lessons/{LESSON}/" + ("en/" if lang == "en" else "")
    else:
        path = f"/lessons/{LESSON}" + ("?lang=en" if lang == "en" else "")
    return server_url + path + hash


def block(page, symbol: str):
    return page.locator(f'[data-loopstep-block="{LESSON}/{symbol}"]')


def open_lesson(page, server_url, site_kind="server", lang="zh", hash="") -> None:
    page.goto(lesson_url(server_url, site_kind, lang, hash))
    for b in ("child_tools", "run_subagent", "task_result"):
        expect(block(page, b)).not_to_have_attribute("data-state", "idle", timeout=BOOT_TIMEOUT)


DRAWN = re.compile(r"^(\d+|end)$")


def drawn(b) -> str:
    """Wait until block `b` shows a step drawn whole (`data-drawn`: its panes and every view
    its run brings, run-views.js) and return that step ("end" once the run ended)."""
    expect(b).to_have_attribute("data-drawn", DRAWN, timeout=BOOT_TIMEOUT)
    return b.get_attribute("data-drawn")


def press_and_draw(b, name: str) -> str:
    """Press the block's button `name` from the keyboard and wait until the step the cursor
    moved to is drawn whole (a `data-drawn` other than before); returns that step."""
    before = b.get_attribute("data-drawn")
    press(b, name)
    moved = DRAWN if before is None else re.compile(rf"^(?!{re.escape(before)}$)(\d+|end)$")
    expect(b).to_have_attribute("data-drawn", moved, timeout=BOOT_TIMEOUT)
    return b.get_attribute("data-drawn")


def wait_ready(b) -> None:
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)


def action(b, name: str):
    return b.locator(f'button[data-action="{name}"]')


def press(b, name: str) -> None:
    """Activate the block's button `name` from the keyboard, as a reader can: no pointer, so a
    view that a lazily loaded chunk lays out a moment later cannot move it from under a click."""
    button = action(b, name)
    expect(button).to_be_enabled(timeout=BOOT_TIMEOUT)
    button.press("Enter")


def gutter(b, line: int):
    return b.locator(f'button[data-gutter="{line}"]')


def toggle_breakpoint(b, line: int) -> None:
    gutter(b, line).click()
    expect(gutter(b, line)).to_have_attribute("aria-pressed", "true")


def pause_at(b, line: int) -> None:
    """Set a breakpoint on `line`, press Debug and wait for the cursor there."""
    toggle_breakpoint(b, line)
    press(b, "debug")
    expect_paused_at(b, line)


def value(b, name: str):
    """The value cell of local `name` in the variables pane."""
    return b.locator(f'[data-role="variables"] [data-var="{name}"] [data-role="value"]')


def current_lines(b):
    return b.locator('[data-line][aria-current="step"]')


def expect_paused_at(b, line: int) -> None:
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(current_lines(b).first).to_have_attribute("data-line", str(line))
    expect(b.locator('[data-role="status"]')).to_contain_text(str(line))


def select_scenario(b, name: str) -> None:
    choose_option(b.locator('select[data-role="scenario"]'), name)
    expect(b).to_have_attribute("data-scenario", name)


def choose_option(select, value: str) -> None:
    """Choose option `value` of a closed <select> with the arrow keys, as a reader does."""
    values = select.locator("option").evaluate_all("options => options.map(o => o.value)")
    select.focus()
    steps = values.index(value) - values.index(select.input_value())
    for _ in range(abs(steps)):
        select.press("ArrowDown" if steps > 0 else "ArrowUp")
    expect(select).to_have_value(value)


def compare_with(b, name: str):
    """Choose run `name` in the block's compare picker with the arrow keys (each option on
    the way is chosen in turn: the last choice wins) and wait until the comparison with that
    run is drawn: its title names the run and it is `ready`. Returns the comparison."""
    select = b.locator('select[data-role="compare"]')
    label = select.locator(f'option[value="{name}"]').text_content()
    choose_option(select, name)
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison.locator(".comparison-title")).to_have_text(
        re.compile(re.escape(f"↔ {label}") + "$"), timeout=BOOT_TIMEOUT)
    expect(comparison).to_have_attribute("data-state", "ready")
    return comparison


def slide_to(timeline, step: int) -> int:
    """Move the timeline to `step` with the keyboard, as a reader does: Home, PageUp (a
    tenth of the slider, the browser's big step) while that stays short of `step`, then
    ArrowRight until there. The cursor settles on the next step it can rest on, so it may
    pass `step` (or rest beyond 0 after Home); returns where it rests, the step Home and
    ArrowRight alone would reach (a big step lands at or before it)."""
    timeline.focus()
    timeline.press("Home")
    at = int(timeline.input_value())
    big = math.ceil((int(timeline.get_attribute("max")) - int(timeline.get_attribute("min") or 0)) / 10)
    while at < step:
        timeline.press("PageUp" if at + big <= step else "ArrowRight")
        after = int(timeline.input_value())
        assert after > at, f"the timeline did not move on from {at}"
        at = after
    return at


def type_text(field, text: str) -> None:
    """Replace the text of an input with `text`, typed key by key."""
    field.focus()
    field.press("Control+a")
    field.press("Delete")
    field.page.keyboard.type(text)
    expect(field).to_have_value(text)


def replace_in_editor(b, old: str, new: str) -> None:
    """In block `b`'s setup editor (CodeMirror), find `old` with its search panel (Ctrl+F,
    Enter, Escape: the match stays selected) and type `new` over it."""
    keyboard = b.page.keyboard
    text_box = b.locator('[data-role="setup-text"]')
    text_box.focus()
    keyboard.press("Control+f")
    expect(b.locator('.cm-search input[name="search"]')).to_be_focused()
    keyboard.type(old)
    keyboard.press("Enter")
    keyboard.press("Escape")
    expect(text_box).to_be_focused()
    keyboard.type(new)


def edit_breakpoint(b, line, condition="", hits="", log=""):
    """Open the editor from the keyboard (Shift+Enter on the gutter), type and save (Enter)."""
    gutter(b, line).focus()
    gutter(b, line).press("Shift+Enter")
    form = b.locator('form[data-role="breakpoint-editor"]')
    expect(form).to_be_visible()
    expect(form.locator('input[name="condition"]')).to_be_focused()
    for name, text in (("condition", condition), ("hits", hits), ("log", log)):
        type_text(form.locator(f'input[name="{name}"]'), text)
    b.page.keyboard.press("Enter")
    expect(form).to_have_count(0)
    expect(gutter(b, line)).to_have_attribute("aria-pressed", "true")


def add_watch(b, expression):
    form = b.locator('form[data-role="watch"]')
    type_text(form.locator('input[name="expression"]'), expression)
    b.page.keyboard.press("Enter")
    expect(b.locator(f'[data-role="watches"] [data-watch="{expression}"]')).to_have_count(1)


def watch_value(b, expression):
    return b.locator(f'[data-role="watches"] [data-watch="{expression}"] [data-role="value"]')


def run_to_end(b) -> None:
    """Press Run and wait until the block finished or reported an error."""
    press(b, "run")
    expect(b).to_have_attribute("data-state", re.compile(r"^(finished|error)$"), timeout=BOOT_TIMEOUT)


def shown_output(stdout: str) -> str:
    """The output text a block shows for what the program printed: colour codes become styles."""
    return SGR.sub("", stdout)


def link_fragment(text: str) -> str:
    """A text as a link's fragment carries a custom setup or a fork's JSON
    (whatif/setup-url.js: deflate-raw, then base64url)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = deflate.compress(text.encode("utf-8")) + deflate.flush()
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def run_from_link(b) -> None:
    """Run the code a link brought to block `b` (its [data-role="link-code"] panel shows
    it, nothing of it has run): the panel's button, from the keyboard; the panel goes."""
    panel = b.locator('[data-role="link-code"]')
    button = panel.locator('button[data-action="run-from-link"]')
    expect(button).to_be_visible(timeout=BOOT_TIMEOUT)
    button.focus()
    b.page.keyboard.press("Enter")
    expect(panel).to_have_count(0)


# Every long task a page runs, from its start (the Long Tasks API reports tasks ≥ 50 ms):
# an init script, then `long_tasks`. The entries the observer has not yet handed to its
# callback are taken too (`takeRecords`), so a task that ended just before is counted.
WATCH_LONG_TASKS = """
window.loopstepLongTasks = [];
window.loopstepKeepTasks = (entries) => {
  for (const e of entries) window.loopstepLongTasks.push([e.startTime, e.duration]);
};
window.loopstepTaskObserver = new PerformanceObserver((list) => {
  window.loopstepKeepTasks(list.getEntries());
});
window.loopstepTaskObserver.observe({ type: "longtask", buffered: true });
"""
LONG_TASKS = """(since) => {
  window.loopstepKeepTasks(window.loopstepTaskObserver.takeRecords());
  return window.loopstepLongTasks.filter((t) => t[0] >= since);
}"""


def long_tasks(page, since: float = 0) -> list:
    """The long tasks (start, duration in ms) of a page watched by WATCH_LONG_TASKS that
    started at or after `since` (its clock, `performance.now()`)."""
    return page.evaluate(LONG_TASKS, since)
