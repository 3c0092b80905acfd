"""Questions (breakpoint conditions, watches) and value history for bench/run.py (section "questions").

1. Recording the million-statement lesson with 3 watch expressions and a conditional
   breakpoint vs without them, alternating in one bench worker (Pyodide, in headless
   Chromium), and the same in this CPython: the speed ratio (goal ≥ 0.5×).
2. Opening the value history of `i` (changed on every round of the loop, 333,333 times)
   on the million-step lesson page: from the click to the frame after the history
   is in the DOM (goal ≤ 50 ms), the first opening (which indexes the trace) and
   later ones.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
LESSONS = HERE / "lessons"

# count_up: 4 while i < rounds, 5 total += i, 6 i += 1 (lines of the displayed function)
QUESTIONS = {"watches": ["total", "i * 2", "len(str(total))"],
          "breakpoints": [{"line": 5, "condition": "i % 1000 == 999"}]}

OPEN_HISTORY = """
async ({block, name, n}) => {
  const root = document.querySelector(block);
  const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const times = [];
  for (let k = 0; k < n; k++) {
    root.querySelector('[data-role="history"] .history-close')?.click();
    await painted();
    const button = root.querySelector(`[data-var="${name}"] button[data-action="history"]`);
    const t0 = performance.now();
    button.click();
    while (!root.querySelector('[data-role="history"] [data-change]')) {
      await new Promise(requestAnimationFrame);
    }
    await painted();
    times.push(performance.now() - t0);
  }
  const panel = root.querySelector('[data-role="history"]');
  return {times, changes: Number(panel.querySelector(".history-title").textContent.match(/[\\d,]+/g).pop().replace(/,/g, "")),
          rows_in_dom: panel.querySelectorAll("[data-change]").length};
}
"""


def _summary(values):
    import measures
    return measures.summary(values)


def browser_records(pw, base: str, max_steps: int, rounds: int) -> dict:
    import browser
    with browser.profile(pw) as context:
        page = context.new_page()
        page.goto(f"{base}/bench/fast.html", wait_until="commit")
        browser.wait_ready(page, 180_000)
        # one unmeasured recording of each first: the first run after the boot executes
        # on V8's baseline wasm code, before the hot functions are optimised
        page.evaluate(f"bench.ask({{type: 'record', maxSteps: {max_steps // 10}}})")
        page.evaluate("(p) => bench.ask({type: 'record', maxSteps: %d, questions: p})"
                      % (max_steps // 10), QUESTIONS)
        plain, probed = [], []
        for _ in range(rounds):
            plain.append(page.evaluate(f"bench.ask({{type: 'record', maxSteps: {max_steps}}})"))
            probed.append(page.evaluate("(p) => bench.ask({type: 'record', maxSteps: %d, questions: p})"
                                        % max_steps, QUESTIONS))
        page.close()
    speed = lambda r: r["steps"] / r["record_s"]  # noqa: E731
    return {"steps": plain[0]["steps"], "plain_steps_per_s": _summary([speed(r) for r in plain]),
            "probed_steps_per_s": _summary([speed(r) for r in probed]),
            "ratio": _summary([speed(b) / speed(a) for a, b in zip(plain, probed)])}


def cpython_records(max_steps: int, rounds: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from loopstep.runtime.recorder import record_packed
    plain, probed = [], []
    for _ in range(rounds):
        for probes, out in ((None, plain), (QUESTIONS, probed)):
            t0 = time.perf_counter()
            text = record_packed("million", "count_up", "normal", roots=[LESSONS],
                                 max_steps=max_steps, questions=probes)
            out.append(json.loads(text)["count"] / (time.perf_counter() - t0))
    return {"plain_steps_per_s": _summary(plain), "probed_steps_per_s": _summary(probed),
            "ratio": _summary([b / a for a, b in zip(plain, probed)])}


def history_open(pw, base: str, n: int) -> dict:
    import browser
    with browser.profile(pw) as context:
        page = context.new_page()
        page.goto(f"{base}/lessons/million")
        block = '[data-loopstep-block="million/count_up"]'
        browser.wait_state(page, block, "ready")
        page.click(f'{block} button[data-gutter="6"]')   # i += 1
        page.click(f'{block} button[data-action="debug"]')
        browser.wait_state(page, block, "paused", timeout_s=300)
        page.evaluate("""(block) => {   // the cursor to the last step: i changed all along
          const slider = document.querySelector(block + ' input[data-role="timeline"]');
          slider.value = slider.max;
          slider.dispatchEvent(new Event("input", {bubbles: true}));
        }""", block)
        page.locator(f'{block} [data-var="i"] button[data-action="history"]').wait_for()
        result = page.evaluate(OPEN_HISTORY, {"block": block, "name": "i", "n": n})
        page.close()
    times = result["times"]
    return {"changes": result["changes"], "rows_in_dom": result["rows_in_dom"],
            "first_ms": times[0], "again_ms": _summary(times[1:])}


def section(pw, base: str, max_steps: int, rounds: int) -> dict:
    return {"browser": browser_records(pw, base, max_steps, rounds),
            "cpython": cpython_records(min(max_steps, 300_000), rounds),
            "history": history_open(pw, base, 10 if rounds > 1 else 4),
            "questions": QUESTIONS}


def rows(p: dict | None) -> list[tuple[str, str, str, str]]:
    if not p or "browser" not in p:
        return []
    b, c, h = p["browser"], p["cpython"], p["history"]

    def ratio(s):
        return f"{s['median']:.2f}× ({s['min']:.2f}×–{s['max']:.2f}×)"
    slowest = max(h["first_ms"], h["again_ms"]["max"] or 0)
    return [
        (f"recording {b['steps']:,} steps with 3 watches and a conditional breakpoint ÷ "
         "without, in the worker", ratio(b["ratio"]) + f"; {b['probed_steps_per_s']['median']:,.0f}"
         f" vs {b['plain_steps_per_s']['median']:,.0f} steps/s", "≥ 0.5×",
         "met" if b["ratio"]["median"] >= 0.5 else "not met"),
        ("the same in this CPython", ratio(c["ratio"]), "", ""),
        (f"value history of a local changed {h['changes']:,} times: click → painted "
         f"({h['rows_in_dom']} rows in the DOM)",
         f"first {h['first_ms']:.1f} ms (indexes the trace), then median "
         f"{h['again_ms']['median']:.1f} ms", "≤ 50 ms", "met" if slowest <= 50 else "not met"),
    ]


DESCRIPTION = """- **questions**: `bench/questions_bench.py`: the million-statement lesson recorded in the
  bench worker alternately without and with the watches `total`, `i * 2`,
  `len(str(total))` and a breakpoint on line 5 with the condition `i % 1000 == 999`
  (speeds as steps/s, the ratio per pair), and the same in this CPython on 300,000 steps;
  then, on the million-step lesson page paused after the loop, opening the value history
  of `i` from the click to the next painted frame (the first opening builds the history
  index of the trace; the list is virtualised).
"""
