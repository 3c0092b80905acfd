"""A run that would print 80 MB, in the page: its longest main-thread tasks.

    python bench/run.py --only flood

bench/lessons/flood: a function that prints 80,000 lines of 1,000 characters. The recorder
stops it at the output cap (1,000,000 characters) with a partial run of 2,000 steps. In
headless Chromium, a fresh page per round in one profile (the runtime's files in its HTTP
cache), once the page's runtime is ready:

- **debug**: Debug pressed → the block paused with the cap named in its status;
- **stepping**: Step over, then the timeline's End, then Continue → the block finished with
  the whole kept output shown (1,000,000 characters).

Each phase's longest task on the page's main thread (the Long Tasks API reports tasks of
50 ms or more; 0 when there was none). Goal: ≤ 200 ms each, so the page stays responsive
(tests/browser/test_page_flood.py checks only that it never freezes).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parent / "tests" / "browser"))

import browser  # noqa: E402
import measures  # noqa: E402
from page_helpers import WATCH_LONG_TASKS, long_tasks  # noqa: E402

BLOCK = '[data-loopstep-block="flood/report"]'
GOAL_MS = 200
KEPT = 1_000_000            # the output cap: what the finished partial run shows
STEPPED = 7 + 998 * 1001    # "report\n" and 998 lines: the output at the timeline's end
TIMEOUT_S = 300

PRESS = """([block, action]) => {
  document.querySelector(block).querySelector(`button[data-action="${action}"]`).click();
}"""


def _wait(page, check: str, arg, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not page.evaluate(check, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the flooding print: {what}")
        time.sleep(0.02)


def _output_is(page, n: int, what: str) -> None:
    _wait(page, "([b, n]) => document.querySelector(b).querySelector('[data-role=output]')"
                ".textContent.length === n", [BLOCK, n], what)


def _longest(page, since: float) -> float:
    return max((t[1] for t in long_tasks(page, since)), default=0)


def _once(context, base: str) -> dict:
    page = context.new_page()
    try:
        page.add_init_script(WATCH_LONG_TASKS)
        page.goto(f"{base}/lessons/flood")
        _wait(page, "() => document.querySelector('[data-role=\"runtime\"]')"
                    "?.dataset.state === 'ready'", None, "the runtime never got ready")
        since = page.evaluate("performance.now()")
        page.evaluate(PRESS, [BLOCK, "debug"])
        _wait(page, "(b) => { const root = document.querySelector(b); return root.dataset.state"
                    " === 'paused' && root.querySelector('[data-role=status]').textContent"
                    ".includes('1,000,000'); }", BLOCK, "Debug never paused at the cap")
        debug = _longest(page, since)
        since = page.evaluate("performance.now()")
        page.evaluate(PRESS, [BLOCK, "step-over"])
        _output_is(page, len("report\n"), "Step over never showed the first line")
        page.locator(BLOCK).locator('input[data-role="timeline"]').press("End")
        _output_is(page, STEPPED, "the timeline's End never showed the output")
        page.evaluate(PRESS, [BLOCK, "continue"])
        browser.wait_state(page, BLOCK, "finished", TIMEOUT_S)
        _output_is(page, KEPT, "the finished run never showed the kept output")
        return {"debug_ms": debug, "stepping_ms": _longest(page, since)}
    finally:
        page.close()


def section(pw, base: str, rounds: int = 5) -> dict:
    """bench/run.py's "flood" section."""
    got = []
    with browser.profile(pw) as context:
        _once(context, base)   # the runtime's files into the profile's cache
        for _ in range(rounds):
            got.append(_once(context, base))
    return {"goal_ms": GOAL_MS, "rounds": rounds,
            **{key: measures.summary([g[key] for g in got]) for key in ("debug_ms", "stepping_ms")}}


def rows(result: dict | None) -> list[tuple[str, str, str, str]]:
    """(measure, value, target, verdict) rows of docs/performance.md."""
    if not result:
        return []
    goal = result["goal_ms"]
    out = []
    for key, what in (("debug_ms", "Debug → paused at the cap"),
                      ("stepping_ms", "Step over, the timeline's End, Continue → the kept "
                                      "1,000,000 characters shown")):
        s = result[key]
        out.append((f"a run that would print 80 MB, the page's longest main-thread task "
                    f"(n={result['rounds']}): {what}",
                    f"{s['median']:.0f} ms ({s['min']:.0f}–{s['max']:.0f})", f"≤ {goal} ms",
                    "met" if s["median"] <= goal else "**not met**"))
    return out
