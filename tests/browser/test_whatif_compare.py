"""Two runs of a block side by side (contract: "Runs side by side"), in real Chromium.

The expected divergence comes from the golden traces (the same for every Python): the end of the common prefix of the two step sequences by (depth,
line, event), and the locals that differ there in the frames at the shallower depth.
"""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from playwright.sync_api import expect

from page_helpers import (block, choose_option, compare_with, current_lines, open_lesson,
                          run_to_end, wait_ready)

TESTS = Path(__file__).resolve().parent.parent
GOLDEN = TESTS / "golden"
_spec = importlib.util.spec_from_file_location("loopstep_facts", TESTS / "facts.py")
facts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(facts)


def golden(symbol: str, scenario: str) -> dict:
    return json.loads((GOLDEN / f"s06_{symbol}_{scenario}.json").read_text("utf-8"))


def expected_divergence(symbol: str, a_name: str, b_name: str) -> dict:
    a, b = golden(symbol, a_name)["steps"], golden(symbol, b_name)["steps"]
    key = lambda s: (s["depth"], s["line"], s["event"])  # noqa: E731
    k = 0
    while k < len(a) and k < len(b) and key(a[k]) == key(b[k]):
        k += 1
    i, j = min(k, len(a) - 1), min(k, len(b) - 1)
    depth = min(a[i]["depth"], b[j]["depth"])
    while i > 0 and a[i]["depth"] > depth:
        i -= 1
    while j > 0 and b[j]["depth"] > depth:
        j -= 1
    la = facts.locals_at({"steps": a}, i)
    lb = facts.locals_at({"steps": b}, j)
    differing = sorted(n for n in set(la) | set(lb) if la.get(n) != lb.get(n))
    line = lambda steps: str(steps[k]["line"]) if k < len(steps) else ""  # noqa: E731
    return {"step-a": str(k), "step-b": str(k), "line-a": line(a), "line-b": line(b),
            "vars": differing}


def choose(b, name: str):
    comparison = compare_with(b, name)   # drawn: the comparison with `name`, ready
    expect(comparison).to_be_visible()
    return comparison


def test_normal_against_limit_marks_the_divergence_and_the_locals_that_differ(
        page, server_url, site_kind):
    expected = expected_divergence("run_subagent", "normal", "limit")
    assert "max_calls" in expected["vars"]
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    comparison = choose(b, "limit")
    divergence = comparison.locator('[data-role="divergence"]')
    expect(divergence).to_have_count(1)
    for name in ("step-a", "step-b", "line-a", "line-b"):
        expect(divergence).to_have_attribute(f"data-{name}", expected[name])
    names = comparison.locator('[data-role="diff"] [data-var]')
    expect(names).to_have_count(len(expected["vars"]))
    assert sorted(names.evaluate_all("rows => rows.map(r => r.dataset.var)")) == expected["vars"]
    max_calls = comparison.locator('[data-role="diff"] [data-var="max_calls"]')
    expect(max_calls.locator(".diff-a")).to_have_text("3")
    expect(max_calls.locator(".diff-b")).to_have_text("1")
    expect(divergence).to_have_accessible_name(re.compile(expected["line-a"]))

    # activating the divergence moves both cursors to the first differing steps
    divergence.click()
    step_a, step_b = int(expected["step-a"]), int(expected["step-b"])
    expect(b).to_have_attribute("data-state", "paused")
    expect(b.locator('input[data-role="timeline"]')).to_have_value(str(step_a))
    expect(current_lines(b).first).to_have_attribute("data-line", expected["line-a"])
    a_cursor = comparison.locator('button[data-side="a"][aria-current="true"]')
    b_cursor = comparison.locator('button[data-side="b"][aria-current="true"]')
    expect(a_cursor).to_have_attribute("data-step", str(step_a))
    expect(b_cursor).to_have_attribute("data-step", str(step_b))

    # clicking a step of the right run moves the block's cursor to the aligned step
    earlier = comparison.locator('button[data-side="b"][data-step="10"]')
    earlier.click()
    expect(b_cursor).to_have_attribute("data-step", "10")
    expect(a_cursor).to_have_attribute("data-step", "10")
    expect(b.locator('input[data-role="timeline"]')).to_have_value("10")
    # and stepping the block moves the right run's cursor along
    b.locator('button[data-action="step-into"]').click()
    expect(a_cursor).to_have_attribute("data-step", "11")
    expect(b_cursor).to_have_attribute("data-step", "11")
    # a step of the left run
    comparison.locator('button[data-side="a"][data-step="5"]').click()
    expect(b.locator('input[data-role="timeline"]')).to_have_value("5")
    expect(b_cursor).to_have_attribute("data-step", "5")


def test_normal_against_normal_has_no_divergence(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    comparison = choose(b, "normal")
    expect(comparison.locator(".comparison-same")).to_be_visible()
    expect(comparison.locator('[data-role="divergence"]')).to_have_count(0)
    expect(comparison.locator('[data-role="diff"]')).to_have_count(0)
    choose_option(b.locator('select[data-role="compare"]'), "")
    expect(comparison).to_be_hidden()


def test_every_block_compares(page, server_url, site_kind):
    """The other blocks of the page, each compared with another preset."""
    open_lesson(page, server_url, site_kind)
    for symbol, other in [("child_tools", "missing"), ("task_result", "long")]:
        expected = expected_divergence(symbol, "normal", other)
        b = block(page, symbol)
        wait_ready(b)
        run_to_end(b)
        comparison = choose(b, other)
        divergence = comparison.locator('[data-role="divergence"]')
        for name in ("step-a", "step-b", "line-a", "line-b"):
            expect(divergence).to_have_attribute(f"data-{name}", expected[name])
        names = comparison.locator('[data-role="diff"] [data-var]')
        expect(names).to_have_count(len(expected["vars"]))
