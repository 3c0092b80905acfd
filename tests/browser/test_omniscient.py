"""Omniscient views in real Chromium: value history, breakpoint conditions, hit counts,
logpoints, watches and their URL round trip (docs/design.md, "Questions and answers")."""
import re

from playwright.sync_api import expect

from loopstep.web import assets

try:
    from .page_helpers import (BOOT_TIMEOUT, WATCH_LONG_TASKS, add_watch, block, edit_breakpoint,
                               expect_paused_at, gutter, lesson_url, long_tasks, open_lesson, press,
                               select_scenario, toggle_breakpoint, value,
                               wait_ready, watch_value)
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, WATCH_LONG_TASKS, add_watch, block, edit_breakpoint,
                              expect_paused_at, gutter, lesson_url, long_tasks, open_lesson, press,
                              select_scenario, toggle_breakpoint, value,
                              wait_ready, watch_value)

RESTRICTED_LINE = 7   # restricted = child_tools(tools)
EXTEND_LINE = 13      # warnings.extend(report['warnings'])
CALL_LINE = 15        # outcome = run_loop(lambda history: ask(history, restricted), execute,
RETURN_LINE = 17      # return outcome
OUTPUT = "完成： answered"


def test_history_of_outcome_and_restricted(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    toggle_breakpoint(b, RETURN_LINE)
    press(b, "debug")
    expect_paused_at(b, RETURN_LINE)
    b.locator('[data-var="outcome"] button[data-action="history"]').click()
    history = b.locator('[data-role="history"]')
    expect(history).to_have_attribute("data-var", "outcome")
    changes = history.locator("[data-change]")
    expect(changes).to_have_count(1)
    expect(changes.first).to_have_attribute("data-line", str(CALL_LINE))
    expect(changes.first.locator('[data-role="value"]')).to_contain_text("'status': 'answered'")
    step = changes.first.get_attribute("data-step")
    expect(b.locator('[data-var="outcome"] [data-role="changed-at"]')).to_contain_text(
        str(int(step) + 1))

    b.locator('[data-var="restricted"] button[data-action="history"]').click()
    expect(history).to_have_attribute("data-var", "restricted")
    expect(history.locator("[data-change]")).to_have_count(1)
    expect(history.locator("[data-change]").first).to_have_attribute(
        "data-line", str(RESTRICTED_LINE))

    # from elsewhere, activating outcome's change puts the cursor on `return outcome`
    b.locator('[data-var="outcome"] button[data-action="history"]').click()
    expect(history).to_have_attribute("data-var", "outcome")
    press(b, "step-back")
    expect(b.locator('input[data-role="timeline"]')).not_to_have_value(step)
    history.locator("[data-change]").first.focus()
    history.locator("[data-change]").first.press("Enter")
    expect_paused_at(b, RETURN_LINE)
    expect(b.locator('input[data-role="timeline"]')).to_have_value(step)


def test_condition_stops_only_in_limit(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    edit_breakpoint(b, CALL_LINE, condition="max_calls == 1")
    expect(gutter(b, CALL_LINE)).to_have_attribute("data-condition", "max_calls == 1")
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_contain_text(OUTPUT)
    expect(b.locator('[data-role="breakpoint-error"]')).to_have_count(0)

    select_scenario(b, "limit")   # s06 resets the breakpoints and their details on a switch
    expect(gutter(b, CALL_LINE)).to_have_attribute("aria-pressed", "false")
    expect(b.locator("button[data-gutter][data-condition]")).to_have_count(0)
    edit_breakpoint(b, CALL_LINE, condition="max_calls == 1")
    expect(gutter(b, CALL_LINE)).to_have_attribute("data-condition", "max_calls == 1")
    press(b, "debug")
    expect_paused_at(b, CALL_LINE)
    expect(value(b, "max_calls")).to_have_text("1")


def test_condition_that_raises_shows_its_error(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    edit_breakpoint(b, RESTRICTED_LINE, condition="undefined_name > 0")
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    error = b.locator('[data-role="breakpoint-error"]')
    expect(error).to_contain_text("NameError")
    expect(error).to_contain_text("undefined_name")
    expect(b.locator('[data-role="output"]')).to_have_text(OUTPUT + "\n")


def test_hit_count_stops_at_the_second_iteration(page, server_url, site_kind):
    page.goto(server_url + ("/lessons/s01/" if site_kind == "export" else "/lessons/s01"))
    b = page.locator('[data-loopstep-block="s01/run_loop"]')
    wait_ready(b)
    select_scenario(b, "call_limit")
    edit_breakpoint(b, 11, hits="2")     # emit(f"模型调用 {number}") inside the for loop
    expect(gutter(b, 11)).to_have_attribute("data-hits", "2")
    press(b, "debug")
    expect_paused_at(b, 11)
    expect(value(b, "number")).to_have_text("2")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)


def test_logpoint_writes_its_own_lane(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    edit_breakpoint(b, EXTEND_LINE, log="tool calls so far: {len(warnings)}")
    expect(gutter(b, EXTEND_LINE)).to_have_attribute("data-log", "tool calls so far: {len(warnings)}")
    press(b, "debug")   # a logpoint does not stop
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    lines = b.locator('[data-role="log"] [data-log-line]')
    expect(lines).to_have_count(2)
    expect(lines.first).to_have_text("tool calls so far: 0")
    expect(b.locator('[data-role="output"]')).to_have_text(OUTPUT + "\n")


def test_watches_errors_values_and_no_side_effects(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    add_watch(b, "len(restricted)")
    add_watch(b, "restricted.clear()")
    toggle_breakpoint(b, RESTRICTED_LINE)
    press(b, "debug")
    expect_paused_at(b, RESTRICTED_LINE)
    expect(watch_value(b, "len(restricted)")).to_contain_text("NameError")
    press(b, "step-over")
    expect(watch_value(b, "len(restricted)")).to_have_text("1")
    expect(b.locator('[data-watch="len(restricted)"]')).to_have_attribute("data-changed", "true")
    expect(watch_value(b, "restricted.clear()")).to_contain_text("not evaluated")
    expect(value(b, "restricted")).to_contain_text("'read_file'")
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_have_text(OUTPUT + "\n")


def test_url_round_trip(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    select_scenario(b, "limit")
    edit_breakpoint(b, CALL_LINE, condition="max_calls == 1", hits="1")
    edit_breakpoint(b, EXTEND_LINE, log="n={len(warnings)}")
    add_watch(b, "len(restricted)")
    press(b, "debug")
    expect_paused_at(b, CALL_LINE)
    expect(page).to_have_url(re.compile(r"step=\d+.*w=len"))
    url = page.url
    page.goto("about:blank")
    page.goto(url)
    b = block(page, "run_subagent")
    expect_paused_at(b, CALL_LINE)
    expect(gutter(b, CALL_LINE)).to_have_attribute("data-condition", "max_calls == 1")
    expect(gutter(b, CALL_LINE)).to_have_attribute("data-hits", "1")
    expect(gutter(b, EXTEND_LINE)).to_have_attribute("data-log", "n={len(warnings)}")
    expect(watch_value(b, "len(restricted)")).to_have_text("1")


def test_a_link_of_70000_watches_keeps_the_first_50_and_says_so(page, server_url, site_kind):
    """Watches are de-duplicated with a set and capped (model/questions.js MAX_WATCHES): a
    link of 70,000 opens at once with 50 of them and a note; the form refuses a 51st."""
    page.add_init_script(WATCH_LONG_TASKS)
    watches = "&".join(f"w=len(restricted)%2B{k}" for k in range(70_000))
    open_lesson(page, server_url, site_kind, hash=f"#b=run_subagent&{watches}&w=len(restricted)%2B0")
    b = block(page, "run_subagent")
    expect(b.locator('[data-role="watches"] [data-watch]')).to_have_count(50)
    note = b.locator('[data-role="watch-note"]')
    expect(note).to_have_text("每个代码块最多 50 个监视表达式：另有 69950 个没有加入")
    # a quadratic de-duplication froze the page ~30 s; what is left is linear, most of it
    # the browser's own cost of a megabyte-long URL (about a second, on a busy machine two)
    assert max((t[1] for t in long_tasks(page)), default=0) < 8_000
    wait_ready(b)
    toggle_breakpoint(b, RESTRICTED_LINE)
    press(b, "debug")
    expect_paused_at(b, RESTRICTED_LINE)
    expect(page).to_have_url(re.compile(r"step=\d+"))
    assert page.url.count("&w=") == 50   # the link written back holds the 50
    press(b, "step-over")
    expect(watch_value(b, "len(restricted)+49")).to_have_text("50")
    form = b.locator('form[data-role="watch"]')
    form.locator('input[name="expression"]').focus()
    page.keyboard.type("len(tools)")
    page.keyboard.press("Enter")
    expect(note).to_have_text("每个代码块最多 50 个监视表达式：另有 69951 个没有加入")
    expect(form.locator('input[name="expression"]')).to_have_value("len(tools)")
    b.locator('button[data-unwatch="len(restricted)+0"]').press("Enter")
    expect(note).to_be_hidden()
    form.locator('input[name="expression"]').focus()
    page.keyboard.press("Enter")
    expect(b.locator('[data-role="watches"] [data-watch="len(tools)"]')).to_have_count(1)


def test_questions_asked_while_the_run_is_recorded_apply_to_that_run(page, server_url, site_kind):
    """A watch, a condition and a logpoint added while the block is `running` are not lost:
    the run shown answers them. Debug is pressed while the runtime's WebAssembly is held,
    so the block stays `running` until the test lets it go (every run recorded live: a
    shipped trace would be shown at once)."""
    held = []
    page.route(f"**{assets.PYODIDE_URL}pyodide.asm.wasm", lambda route: held.append(route))
    with page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        page.goto(lesson_url(server_url, site_kind) + "?trace=live")
    b = block(page, "run_subagent")
    expect(b).to_have_attribute("data-state", "loading", timeout=BOOT_TIMEOUT)
    toggle_breakpoint(b, RESTRICTED_LINE)
    toggle_breakpoint(b, RETURN_LINE)
    press(b, "debug")
    expect(b).to_have_attribute("data-state", "running")
    add_watch(b, "len(restricted)")
    edit_breakpoint(b, RESTRICTED_LINE, condition="len(tools) > 99")  # never true
    edit_breakpoint(b, EXTEND_LINE, log="n={len(warnings)}")
    expect(b).to_have_attribute("data-state", "running")   # nothing recorded yet
    assert held, "the wasm request was not held"
    for route in held:
        route.continue_()
    expect_paused_at(b, RETURN_LINE)   # the condition applied: line 7 did not stop
    expect(watch_value(b, "len(restricted)")).to_have_text("1")
    lines = b.locator('[data-role="log"] [data-log-line]')
    expect(lines).to_have_count(2)
    expect(lines.first).to_have_text("n=0")
    expect(b.locator('[data-role="breakpoint-error"]')).to_have_count(0)
