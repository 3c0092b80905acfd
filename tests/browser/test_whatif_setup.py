"""What if: a reader edits a block's setup in the CodeMirror editor and runs it as
scenario "custom" (contract: "Runs side by side"). Real Chromium, served or exported."""
from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from page_helpers import (BOOT_TIMEOUT, action, block, lesson_url, open_lesson, press,
                          replace_in_editor, run_from_link, run_to_end, wait_ready)
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.web import assets

LESSON = load_lesson("s06")
NORMAL_SETUP = LESSON.setup_text("normal")
ENTRY = LESSON.block("run_subagent").entry


def source_text(b) -> list[str]:
    return b.locator("[data-line]").all_text_contents()


def open_editor(b):
    press(b, "edit-setup")
    editor = b.locator('[data-role="setup-editor"]')
    expect(editor).to_be_visible()
    expect(action(b, "edit-setup")).to_have_attribute("aria-expanded", "true")
    return editor.locator('[data-role="setup-text"]')


def edit(b, old: str, new: str, before: str = NORMAL_SETUP) -> str:
    """Replace `old` by `new` in the editor's text (`before`), typing; returns the new text."""
    assert before.count(old) == 1
    replace_in_editor(b, old, new)
    return before.replace(old, new)


def run_broken_setup(page, server_url, site_kind, old: str, new: str, error_type: str):
    """Run run_subagent with `old` replaced by `new` in its setup; the error names the
    first line that changed. Returns the block, the setup-error element and that line."""
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    open_editor(b)
    edited = edit(b, old, new)
    line = next(n for n, (x, y) in enumerate(zip(edited.split("\n"), NORMAL_SETUP.split("\n")), 1)
                if x != y)
    press(b, "run-custom")
    error = b.locator('[data-role="setup-error"]')
    expect(error).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text(error_type)
    expect(error).to_contain_text(f"{line}")
    return b, error, line


def requests_of(page) -> list[tuple[str, str, str]]:
    seen = []
    page.on("request", lambda r: seen.append((r.url, repr(r.headers), r.post_data or "")))
    return seen


def test_custom_setup_runs_comes_back_from_the_url_and_never_reaches_the_server(
        page, server_url, site_kind):
    seen = requests_of(page)
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    function_before = source_text(b)
    text_box = open_editor(b)
    expect(text_box).to_have_attribute("contenteditable", "true")
    expect(text_box).to_contain_text("if index<2:")
    expect(text_box).to_have_accessible_name(re.compile(r"\S"))
    edited = edit(b, "index<2", "index<9")
    press(b, "run-custom")
    expect(b).to_have_attribute("data-scenario", "custom")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： call_limit\n")
    expect(b.locator('[data-role="setup-code"]')).to_have_text(edited + ENTRY)
    expect(b.locator('select[data-role="scenario"]')).to_have_value("custom")
    assert source_text(b) == function_before
    expect(page).to_have_url(re.compile(r"#b=run_subagent&s=custom&custom=[A-Za-z0-9_-]+$"))
    fragment = page.url.split("custom=", 1)[1]

    page.reload()
    b = block(page, "run_subagent")
    # the link's setup is shown, not run, until the reader runs it
    expect(b.locator('[data-role="link-code"]')).to_contain_text("if index<9:", timeout=BOOT_TIMEOUT)
    wait_ready(b)
    expect(b).to_have_attribute("data-scenario", "normal")
    run_from_link(b)
    expect(b).to_have_attribute("data-scenario", "custom")
    expect(b.locator('[data-role="setup-code"]')).to_have_text(edited + ENTRY)
    run_to_end(b)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： call_limit\n")
    assert source_text(b) == function_before
    text_box = open_editor(b)
    expect(text_box).to_contain_text("if index<9:")

    assert len(seen) > 10
    for url, headers, body in seen:
        for secret in ("index<9", "index%3C9", fragment):
            assert secret not in url and secret not in headers and secret not in body, url


def test_a_syntax_error_shows_its_line_and_reset_restores_the_presets(page, server_url, site_kind):
    b, error, line = run_broken_setup(page, server_url, site_kind, "index<2:", "index<2",
                                      "SyntaxError")
    expect(b).to_have_attribute("data-state", "error")
    expect(b.locator('[data-role="status"]')).to_contain_text(str(line))
    # the block stays usable: the editor still edits, every run button still works
    for name in ("debug", "run", "run-custom", "reset", "edit-setup"):
        expect(action(b, name)).to_be_enabled()
    fixed = edit(b, "index<2", "index<1:", before=NORMAL_SETUP.replace("if index<2:", "if index<2"))
    press(b, "run-custom")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(error).to_be_hidden()
    expect(b.locator('[data-role="setup-code"]')).to_have_text(fixed + ENTRY)

    press(b, "reset")
    expect(b).to_have_attribute("data-scenario", "normal")
    expect(b).to_have_attribute("data-state", "ready")
    scenario = b.locator('select[data-role="scenario"]')
    expect(scenario).to_have_value("normal")
    expect(scenario.locator('option[value="custom"]')).to_have_count(0)
    expect(b.locator('[data-role="setup-code"]')).to_have_text(NORMAL_SETUP + ENTRY)
    expect(b.locator('[data-role="setup-text"]')).to_contain_text("if index<2:")
    expect(page).not_to_have_url(re.compile("custom="))
    run_to_end(b)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： answered\n")


def test_an_error_raised_on_a_setup_line_names_it_and_a_bad_url_loses_nothing(
        page, server_url, site_kind):
    b, _, line = run_broken_setup(page, server_url, site_kind, "QUESTION=",
                                  "tools = undefined_name\nQUESTION=", "NameError")
    expect(b.locator('[data-role="output"]')).to_contain_text(f'File "s06/setup.py", line {line}')

    url = page.url.split("#")[0] + "#b=run_subagent&s=custom&custom=not-a-setup"
    page.goto("about:blank")
    page.goto(url)
    b = block(page, "run_subagent")
    expect(b.locator('[data-role="setup-error"]')).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(b).to_have_attribute("data-scenario", "normal")
    wait_ready(b)
    run_to_end(b)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： answered\n")


def test_the_editor_is_a_keyboard_code_editor_under_the_pages_csp(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "child_tools")
    wait_ready(b)
    action(b, "edit-setup").focus()
    page.keyboard.press("Enter")
    text_box = b.locator('[data-role="setup-text"]')
    expect(text_box).to_be_focused()
    # line numbers and Python highlighting, styled (the styles reached the shadow root)
    editor = b.locator('[data-role="setup-editor"]')
    expect(editor.locator(".cm-lineNumbers .cm-gutterElement", has_text=re.compile(r"^3$"))).to_be_visible()
    keyword = editor.locator(".cm-line", has_text="from copy import deepcopy").locator("span").first
    expect(keyword).to_have_css("font-weight", "600")
    # Tab indents, undo restores
    page.keyboard.press("Control+Home")
    page.keyboard.press("Tab")
    expect(text_box).to_contain_text("    scenario = 'normal'")
    page.keyboard.press("Control+z")
    expect(editor.locator(".cm-line").first).to_have_text("scenario = 'normal'")
    # Escape then Tab leaves the editor, to the run button
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(action(b, "run-custom")).to_be_focused()
    page.keyboard.press("Enter")
    expect(b).to_have_attribute("data-scenario", "custom")
    expect(b).to_have_attribute("data-state", re.compile("finished"), timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： 只读工具已选出\n")


def test_the_editor_is_not_loaded_before_it_is_opened(page, server_url, site_kind):
    loaded = []
    page.on("request", lambda r: loaded.append(r.url))
    open_lesson(page, server_url, site_kind)
    b = block(page, "task_result")
    wait_ready(b)
    run_to_end(b)
    lazy = ("codemirror.mjs", "whatif.js", "setup-editor.js", "comparison.js", "align.js")
    assert not [u for u in loaded if Path(u).name in lazy]
    expect(open_editor(b)).to_be_visible()   # the CodeMirror view: its module has arrived
    assert [u for u in loaded if Path(u).name == "codemirror.mjs"]


def test_edit_setup_waits_for_the_runtime(page, server_url, site_kind):
    held = []
    page.route(f"**{assets.PYODIDE_URL}pyodide.asm.wasm", lambda route: held.append(route))
    loaded = []
    page.on("request", lambda r: loaded.append(r.url))
    wasm = lambda r: r.url.split("?")[0].endswith("pyodide.asm.wasm")  # noqa: E731
    # with shipped traces the runtime starts after the page's load event: wait for it
    with page.expect_request(wasm, timeout=BOOT_TIMEOUT):
        page.goto(lesson_url(server_url, site_kind))
    b = block(page, "run_subagent")
    expect(b).to_have_attribute("data-state", "loading", timeout=BOOT_TIMEOUT)
    expect(action(b, "edit-setup")).to_be_disabled()
    expect(action(b, "run-custom")).to_be_disabled()
    assert held, "the wasm request was not held"
    assert not [u for u in loaded if Path(u).name in ("codemirror.mjs", "whatif.js")]
    action(b, "edit-setup").click(force=True)
    expect(b.locator('[data-role="setup-editor"]')).to_be_hidden()
