"""The reader's panels on a recorded preset (fixture lesson `recorded`: "real" answers its
model calls from real.json, "imported" from imported.json, whose tool outputs answer
read_note): watches, a variable's history, the comparison with another preset, message
origins and event breakpoints, each compared with the same run recorded in CPython."""
import pytest
from playwright.sync_api import expect

try:
    from .page_helpers import (BOOT_TIMEOUT, add_watch, choose_option, current_lines,
                               expect_paused_at, press, run_to_end, select_scenario,
                               toggle_breakpoint, wait_ready, watch_value)
    from .test_recorded_runs import BLOCK, cpython, recorded_page, recorded_server  # noqa: F401
except ImportError:
    from page_helpers import (BOOT_TIMEOUT, add_watch, choose_option, current_lines,
                              expect_paused_at, press, run_to_end, select_scenario,
                              toggle_breakpoint, wait_ready, watch_value)
    from test_recorded_runs import BLOCK, cpython, recorded_page, recorded_server  # noqa: F401

AFTER_CREATE = 5     # messages.append({"role": "assistant", "content": response.content})


def line_steps(trace, line):
    return [i for i, step in enumerate(trace["steps"]) if step["line"] == line
            and step["event"] == "line"]


def marks(b, kind):
    return b.locator(f'[data-role="timeline-marks"] [data-mark="{kind}"]')


def timeline(b):
    return b.locator('input[data-role="timeline"]')


def test_a_watch_and_a_variables_history_on_a_recorded_preset(recorded_page):
    expected = cpython()
    sent = [len(call["messages"]) for call in expected["agent"]["calls"]]
    stops = line_steps(expected, AFTER_CREATE)
    assert len(stops) == len(sent) == 2
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    add_watch(b, "len(messages)")
    toggle_breakpoint(b, AFTER_CREATE)
    press(b, "debug")
    expect_paused_at(b, AFTER_CREATE)
    expect(watch_value(b, "len(messages)")).to_have_text(str(sent[0]))
    press(b, "continue")
    expect_paused_at(b, AFTER_CREATE)
    expect(timeline(b)).to_have_value(str(stops[1]))
    expect(watch_value(b, "len(messages)")).to_have_text(str(sent[1]))
    # the history of `response`: each recorded answer, where it was assigned
    changes = [i for i, step in enumerate(expected["steps"][:stops[1] + 1])
               if "response" in step.get("set", {})]
    assert len(changes) == 2
    b.locator('[data-var="response"] button[data-action="history"]').click()
    history = b.locator('[data-role="history"]')
    expect(history).to_have_attribute("data-var", "response")
    rows = history.locator("[data-change]")
    expect(rows).to_have_count(2)
    for row, step in zip((rows.nth(0), rows.nth(1)), changes):
        expect(row).to_have_attribute("data-step", str(step))
        # the line of the statement that assigned it: the frame's step before
        frame = expected["steps"][step]["frame"]
        ran = next(s for s in reversed(expected["steps"][:step]) if s["frame"] == frame)
        expect(row).to_have_attribute("data-line", str(ran["line"]))
    rows.nth(0).focus()
    rows.nth(0).press("Enter")
    expect(timeline(b)).to_have_value(str(changes[0]))


def divergence(a, b):
    """The first step where two runs part (the comparison's rule, tests/facts.py's
    alignment): the end of the common prefix by (depth, line, event)."""
    key = lambda s: (s["depth"], s["line"], s["event"])  # noqa: E731
    k = 0
    while k < len(a) and k < len(b) and key(a[k]) == key(b[k]):
        k += 1
    return k


def test_the_comparison_with_another_preset(recorded_page):
    real, imported = cpython()["steps"], cpython(scenario="imported")["steps"]
    k = divergence(real, imported)
    assert 0 < k < min(len(real), len(imported))
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    choose_option(b.locator('select[data-role="compare"]'), "imported")
    comparison = b.locator('[data-role="comparison"]')
    expect(comparison).to_be_visible()
    expect(comparison.locator(".comparison-title")).to_be_visible(timeout=BOOT_TIMEOUT)
    found = comparison.locator('[data-role="divergence"]')
    expect(found).to_have_count(1)
    expect(found).to_have_attribute("data-line-a", str(real[k]["line"]))
    expect(found).to_have_attribute("data-line-b", str(imported[k]["line"]))
    found.click()
    expect(b).to_have_attribute("data-state", "paused")
    expect(timeline(b)).to_have_value(found.get_attribute("data-step-a"))
    expect(b).to_have_attribute("data-run-source", "recorded")


def test_message_origins_on_a_recorded_preset(recorded_page):
    expected = cpython(scenario="imported")
    agent = expected["agent"]
    tools = [tool["step"] for tool in agent["tools"]]
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, "imported")
    run_to_end(b)
    marks(b, "model").nth(1).click()
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    expect(timeline(b)).to_have_value(str(agent["calls"][1]["step"]))
    conversation = b.locator('[data-role="conversation"]')
    results = conversation.locator('[data-message] [data-part][data-kind="tool_result"]')
    expect(results).to_have_count(2)
    for n, step in enumerate(tools):   # each recorded result: its tool call's step
        marks(b, "model").nth(1).click()
        button = results.nth(n).locator('button[data-action="part-origin"]')
        button.focus()
        recorded_page.keyboard.press("Enter")
        expect(timeline(b)).to_have_value(str(step))
        expect(current_lines(b).first).to_have_attribute("data-line", "11")   # the handler call
    marks(b, "model").nth(1).click()
    answer = conversation.locator('[data-message][data-author="assistant"]').first
    answer.locator('button[data-action="message-origin"]').click()
    expect(timeline(b)).to_have_value(str(agent["calls"][0]["step"]))


def add_event_breakpoint(page, b, kind, value):
    form = b.locator('form[data-role="event-breakpoint"]')
    choose_option(form.locator('select[name="kind"]'), kind)
    form.locator('input[name="value"]').click()
    page.keyboard.type(value)
    page.keyboard.press("Enter")
    expect(b.locator(f'[data-event-bp="{kind}:{value}"]')).to_have_count(1)


@pytest.mark.parametrize("scenario", ["real", "imported"])
def test_event_breakpoints_stop_at_recorded_calls(recorded_page, scenario):
    agent = cpython(scenario=scenario)["agent"]
    stops = sorted([tool["step"] for tool in agent["tools"]] + [agent["calls"][1]["step"]])
    b = recorded_page.locator(BLOCK)
    wait_ready(b)
    select_scenario(b, scenario)
    add_event_breakpoint(recorded_page, b, "tool", "read_note")
    add_event_breakpoint(recorded_page, b, "model", "2")
    press(b, "debug")
    for step in stops:
        expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
        expect(timeline(b)).to_have_value(str(step))
        press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished")
