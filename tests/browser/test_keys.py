"""Every key reaches the editor it is typed into: the page's debugger keys (F8, F10, F11,
Shift+F11, `[`, `]`) never step while the reader types in the setup editor (CodeMirror in
a shadow root), the breakpoint editor, the watch input or a picker, and still act
everywhere else. Real Chromium, keyboard only."""
from playwright.sync_api import expect

try:
    from .page_helpers import (BOOT_TIMEOUT, action, block, expect_paused_at,
                               open_lesson, pause_at, wait_ready, watch_value)
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, action, block, expect_paused_at,
                              open_lesson, pause_at, wait_ready, watch_value)
from loopstep.runtime.catalog.lessons import load_lesson

LESSON = load_lesson("s06")
NORMAL_SETUP = LESSON.setup_text("normal")
ENTRY = LESSON.block("run_subagent").entry
F_KEYS = ("F8", "F10", "F11", "Shift+F11")
EXTEND_LINE = 13   # warnings.extend(report['warnings'])
RETURN_LINE = 17   # return outcome


def timeline(b):
    return b.locator('input[type=range][data-role="timeline"]')


def model_call_steps(b) -> list[str]:
    marks = b.locator('[data-role="timeline-marks"] [data-mark="model"]')
    expect(marks).to_have_count(3, timeout=BOOT_TIMEOUT)
    return marks.evaluate_all("marks => marks.map(m => m.dataset.step)")


def status(b):
    return b.locator('[data-role="status"]')


def expect_still(b, step: str, said: str) -> None:
    """The cursor has not moved (a page key acts at once, in its keydown handler)."""
    expect(b).to_have_attribute("data-state", "paused")
    expect(timeline(b)).to_have_value(step)
    expect(status(b)).to_have_text(said)


def test_brackets_braces_and_f_keys_typed_in_the_setup_editor_are_text(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    pause_at(b, 3)
    calls = model_call_steps(b)
    page.keyboard.press("]")                     # outside the editor: the first model call
    expect(timeline(b)).to_have_value(calls[0])
    said = status(b).inner_text()

    action(b, "edit-setup").focus()
    page.keyboard.press("Enter")
    text_box = b.locator('[data-role="setup-text"]')
    expect(text_box).to_be_focused()
    page.keyboard.press("Control+End")           # the empty line after the setup
    page.keyboard.type("x = [1, 2]")
    for key in F_KEYS:
        page.keyboard.press(key)
    page.keyboard.type("\ny = {'k': (3, [4])}\n")
    expect_still(b, calls[0], said)
    expect(text_box).to_contain_text("x = [1, 2]")
    expect(text_box).to_contain_text("y = {'k': (3, [4])}")
    # the editor's search panel is part of the editor too
    page.keyboard.press("Control+f")
    search = b.locator('.cm-search input[name="search"]')
    expect(search).to_be_focused()
    page.keyboard.type("[1, 2]")
    for key in F_KEYS:
        page.keyboard.press(key)
    expect(search).to_have_value("[1, 2]")
    page.keyboard.press("Escape")
    expect(text_box).to_be_focused()
    expect_still(b, calls[0], said)

    # Escape then Tab leaves the editor: on the run button, [ and ] move between calls again
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(action(b, "run-custom")).to_be_focused()
    page.keyboard.press("]")
    expect(timeline(b)).to_have_value(calls[1])
    page.keyboard.press("[")
    expect(timeline(b)).to_have_value(calls[0])
    page.keyboard.press("Enter")                 # run the typed setup
    expect(b).to_have_attribute("data-scenario", "custom")
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="setup-code"]')).to_have_text(
        NORMAL_SETUP + "x = [1, 2]\ny = {'k': (3, [4])}\n" + ENTRY)


def test_the_breakpoint_editor_the_watch_input_and_the_pickers_keep_their_keys(
        page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    pause_at(b, RETURN_LINE)   # every page key would move the cursor from here
    calls = model_call_steps(b)
    at = timeline(b).input_value()
    said = status(b).inner_text()

    watch = b.locator('form[data-role="watch"] input[name="expression"]')
    watch.focus()
    page.keyboard.type("sorted(restricted)[0]")
    for key in F_KEYS:
        page.keyboard.press(key)
    expect(watch).to_have_value("sorted(restricted)[0]")
    expect_still(b, at, said)
    page.keyboard.press("Enter")                 # the run is recorded again, the cursor kept
    expect(watch_value(b, "sorted(restricted)[0]")).to_have_text("'read_file'", timeout=BOOT_TIMEOUT)
    expect_still(b, at, said)

    b.locator(f'button[data-gutter="{EXTEND_LINE}"]').focus()
    page.keyboard.press("Shift+Enter")
    form = b.locator('form[data-role="breakpoint-editor"]')
    for name, text in (("condition", "[w for w in warnings] == []"), ("hits", "1"),
                       ("log", "first={sorted(restricted)[0]}")):
        field = form.locator(f'input[name="{name}"]')
        expect(field).to_be_focused()   # the editor opens on the condition; Tab moves on
        page.keyboard.type(text)
        for key in F_KEYS:
            page.keyboard.press(key)
        expect(field).to_have_value(text)
        expect_still(b, at, said)
        page.keyboard.press("Tab")
    expect(form.locator('button[type="submit"]')).to_be_focused()
    page.keyboard.press("Enter")                 # save
    expect(form).to_have_count(0)
    gutter = b.locator(f'button[data-gutter="{EXTEND_LINE}"]')
    expect(gutter).to_have_attribute("data-condition", "[w for w in warnings] == []")
    expect(b.locator('[data-role="log"] [data-log-line]')).to_have_text(["first=read_file"],
                                                                        timeout=BOOT_TIMEOUT)
    expect_still(b, at, said)

    # the pickers: a page key there is not a command
    for role in ("scenario", "compare"):
        select = b.locator(f'select[data-role="{role}"]')
        before = select.input_value()
        select.focus()
        for key in (*F_KEYS, "[", "]"):
            page.keyboard.press(key)
        expect(select).to_have_value(before)
        expect_still(b, at, said)

    # the timeline takes no typed text: the page keys act there
    timeline(b).focus()
    page.keyboard.press("[")
    expect(timeline(b)).to_have_value(calls[-1])
    page.keyboard.press("F8")
    expect_paused_at(b, RETURN_LINE)
