"""A lesson folder written like an author would: a generator whose loop runs inside
`with` and `try/finally` with `continue`, markup in its values and output, and (preset
"over") an error that leaves the generator uncaught (`fixture_lessons/agentgen`).

The CLI's output equals what this CPython prints running the same programs plainly,
the page's output what the page's CPython (the vendored Pyodide, under Node) prints, and at a breakpoint inside the resumed generator the variables pane shows
every local with the text of its CPython repr. Runs against its own `loopstep serve
--lessons fixture_lessons` in both passes.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

try:
    from .conftest import served, watched_page
    from .page_helpers import BOOT_TIMEOUT, press, run_to_end, select_scenario, toggle_breakpoint
except ImportError:
    from conftest import served, watched_page
    from page_helpers import BOOT_TIMEOUT, press, run_to_end, select_scenario, toggle_breakpoint

from tests.pyodide_node import record_in_pyodide
from loopstep.runtime.catalog.lessons import load_lesson

TESTS = Path(__file__).resolve().parents[1]
LESSONS = TESTS / "browser" / "fixture_lessons"
LESSON, BLOCK = "agentgen", "run_turns"
BREAK = 8   # `spent += cost`, inside with/try; its second hit is after the first resume

_spec = importlib.util.spec_from_file_location("loopstep_oracle", TESTS / "oracle.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)


def locals_at(line):
    """{name: repr} of the displayed function's locals each time CPython is about to
    run `line` (relative to the def) in the "over" preset."""
    lesson = load_lesson(LESSON, [LESSONS])
    block = lesson.block(BLOCK)
    seen = []

    def tracer(frame, event, arg):
        if frame.f_code.co_name != BLOCK or frame.f_code.co_filename != block.source:
            return None
        if event == "line" and frame.f_lineno - block.def_line + 1 == line:
            seen.append({name: repr(value) for name, value in frame.f_locals.items()})
        return tracer

    sys.settrace(tracer)
    try:
        oracle.plain_run(LESSON, BLOCK, "over", [LESSONS])
    finally:
        sys.settrace(None)
    return seen


@pytest.fixture(scope="module")
def pyodide_prints(tmp_path_factory):
    """What the same programs print run plainly in the page's CPython (the vendored
    Pyodide under Node): tracebacks are formatted by the interpreter's version."""
    lesson = load_lesson(LESSON, [LESSONS])
    files = {rel: str(path) for rel, path in lesson.files.items()}
    files["oracle_support/oracle.py"] = str(TESTS / "oracle.py")
    code = ("import json, sys\nsys.path.insert(0, '/loopstep/lessons/oracle_support')\n"
            "import oracle\n"
            f"json.dumps({{s: oracle.plain_run({LESSON!r}, {BLOCK!r}, s, ['/loopstep/lessons'])"
            " for s in ('calm', 'over')})")
    done = record_in_pyodide(tmp_path_factory.mktemp("plain"), files, [], code=code, timeout=300)
    return json.loads(done["value"])


def cli_stdout(scenario):
    done = subprocess.run([sys.executable, "-m", "loopstep.runtime.cli", "trace", f"{LESSON}/{BLOCK}",
                           "--scenario", scenario, "--lessons", str(LESSONS)],
                          capture_output=True, text=True, timeout=120,
                          cwd=TESTS.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\nstdout:\n", 1)[1]


@pytest.mark.parametrize("scenario", ["calm", "over"])
def test_the_cli_prints_what_cpython_prints(scenario):
    printed = oracle.plain_run(LESSON, BLOCK, scenario, [LESSONS])
    assert ("Traceback" in printed) == (scenario == "over")
    assert cli_stdout(scenario) == printed


@pytest.fixture(scope="module")
def author_server():
    with served(LESSONS) as proc:
        yield proc


@pytest.fixture
def lesson_page(browser_context, author_server, request):
    with watched_page(browser_context, author_server.url, f"/lessons/{LESSON}", request) as page:
        b = page.locator(f'[data-loopstep-block="{LESSON}/{BLOCK}"]')
        expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        yield b


@pytest.mark.parametrize("scenario", ["calm", "over"])
def test_the_page_prints_what_cpython_prints(lesson_page, pyodide_prints, scenario):
    printed = pyodide_prints[scenario]
    select_scenario(lesson_page, scenario)
    run_to_end(lesson_page)
    expect(lesson_page).to_have_attribute("data-state", "error" if scenario == "over" else "finished")
    output = lesson_page.locator('[data-role="output"]')
    expect(output).to_contain_text(printed.rstrip("\n").split("\n")[-1])
    assert output.text_content() == printed


def test_a_resumed_generator_shows_every_local(lesson_page):
    hits = locals_at(BREAK)
    assert len(hits) >= 2
    resumed = hits[1]
    assert set(resumed) == {"script", "budget", "spent", "turn", "cost", "meter"}
    select_scenario(lesson_page, "over")
    toggle_breakpoint(lesson_page, BREAK)
    press(lesson_page, "debug")
    expect(lesson_page).to_have_attribute("data-state", "paused")
    press(lesson_page, "continue")
    expect(lesson_page.locator('[data-var="turn"] [data-role="value"]')).to_have_text(resumed["turn"])
    variables = lesson_page.locator('[data-role="variables"] [data-var]')
    expect(variables).to_have_count(len(resumed))
    for name, text in resumed.items():
        expect(lesson_page.locator(f'[data-role="variables"] [data-var="{name}"] '
                                   '[data-role="value"]')).to_have_text(text)
