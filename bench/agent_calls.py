"""Agent-call measures for bench/run.py (section "agent"), side by side in one run.

  1. recording with call capture vs without (``record_packed(agent=True|False)``),
     alternating, in this CPython and in the vendored Pyodide (Node): the million-step
     block (which declares a model call it never makes) and bench/lessons/agent, a loop
     that makes 1,000 model calls and 999 tool calls;
  2. packed trace bytes with vs without capture on every s06 block × preset;
  3. the conversation panel on the lesson page (Chromium): a cursor move between the
     last two calls of the 100-call run (199 and 197 messages), folded and unfolded,
     timed from the click to the panel laid out.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import measures

HERE = Path(__file__).parent
ROOT = HERE.parent
LESSONS = HERE / "lessons"
sys.path.insert(0, str(ROOT))
RUNS = {"million": ("million", "count_up", "normal", 1_100_000),
        "thousand": ("agent", "run_agent", "thousand", 100_000)}


def _pairs(times_with, times_without):
    ratios = [a / b for a, b in zip(times_with, times_without)]
    return {"with_s": measures.summary(times_with), "without_s": measures.summary(times_without),
            "ratio": measures.summary(ratios)}


def cpython(rounds: int) -> dict:
    sys.path.insert(0, str(ROOT))
    import platform
    from loopstep.runtime.recorder import record_packed
    out = {"python": platform.python_version()}
    for key, (lesson, block, scenario, cap) in RUNS.items():
        timings = {True: [], False: []}
        for r in range(rounds):
            for agent in ((True, False) if r % 2 == 0 else (False, True)):
                t0 = time.perf_counter()
                record_packed(lesson, block, scenario, roots=[LESSONS], max_steps=cap, agent=agent)
                timings[agent].append(time.perf_counter() - t0)
        out[key] = _pairs(timings[True], timings[False])
    return out


def pyodide(rounds: dict) -> dict:
    """The same pairs recorded in Pyodide under Node (tests/pyodide_node.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pyodide_node import record_in_pyodide
    from loopstep.runtime.catalog.lessons import load_lesson
    files = {}
    runs = []
    for key, (lesson, block, scenario, cap) in RUNS.items():
        files.update({rel: str(p) for rel, p in load_lesson(lesson, [LESSONS]).files.items()})
        for r in range(rounds[key]):
            for agent in ((True, False) if r % 2 == 0 else (False, True)):
                runs.append({"lesson": lesson, "block": block, "scenario": scenario,
                             "maxSteps": cap, "packed": True, "agent": agent, "key": key})
    try:
        result = record_in_pyodide(tempfile.mkdtemp(prefix="loopstep-agent-"), files, runs,
                                   timeout=3600)
    except AssertionError as error:
        return {"reason": str(error)[-500:]}
    out = {"python": result["python"]}
    for key in RUNS:
        pick = [(run["agent"], ms / 1000) for run, ms in zip(runs, result["timings"])
                if run["key"] == key]
        out[key] = _pairs([s for a, s in pick if a], [s for a, s in pick if not a])
    return out


def growth() -> dict:
    """Packed bytes with ÷ without capture, every s06 block × preset."""
    sys.path.insert(0, str(ROOT))
    from loopstep.runtime.catalog.lessons import load_lesson
    from loopstep.runtime.recorder import record_packed
    lesson = load_lesson("s06")
    rows = {}
    for block in lesson.blocks:
        for preset in block.presets:
            a = len(record_packed("s06", block.id, preset).encode())
            b = len(record_packed("s06", block.id, preset, agent=False).encode())
            rows[f"{block.id}/{preset}"] = {"with": a, "without": b, "ratio": a / b}
    return {"runs": rows, "max_ratio": max(r["ratio"] for r in rows.values())}


PANEL_JS = """async ([n]) => {
  const b = document.querySelector('[data-loopstep-block="agent/run_agent"]');
  const panel = b.querySelector('[data-role="conversation"]');
  const prev = b.querySelector('button[data-action="prev-call"]');
  const next = b.querySelector('button[data-action="next-call"]');
  const times = [];
  const panelTimes = [];
  for (let i = 0; i < n; i++) {
    const button = i % 2 === 0 ? prev : next;
    const t0 = performance.now();
    button.click();
    const own = performance.getEntriesByName("loopstep:conversation").at(-1)?.duration ?? NaN;
    void panel.getBoundingClientRect().height;   // style and layout of the whole block
    times.push(performance.now() - t0);
    panelTimes.push(own);
    if (i % 20 === 19) await new Promise(requestAnimationFrame);
  }
  return {times, panelTimes, messages: panel.querySelectorAll('[data-message]').length,
          visible: [...panel.querySelectorAll('[data-message]')].filter(m => !m.hidden).length};
}"""


def _stats(values):
    ordered = sorted(values)
    return {"median": ordered[len(ordered) // 2], "p95": _p95(values), "max": ordered[-1]}


def _p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def panel(pw, base: str, moves: int) -> dict:
    import browser
    with browser.profile(pw) as context:
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{base}/lessons/agent")
        b = page.locator('[data-loopstep-block="agent/run_agent"]')
        b.locator('select[data-role="scenario"]').select_option("hundred")
        page.wait_for_selector('[data-loopstep-block="agent/run_agent"][data-state="ready"]',
                               timeout=180_000)
        t0 = time.perf_counter()
        b.locator('button[data-action="run"]').click()
        page.wait_for_selector('[data-loopstep-block="agent/run_agent"][data-state="finished"]',
                               timeout=600_000)
        record_s = time.perf_counter() - t0
        page.wait_for_selector('[data-loopstep-block="agent/run_agent"] '
                               'button[data-action="prev-call"]:not([disabled])')
        b.locator('button[data-action="prev-call"]').click()      # the last call
        out = {"record_s": record_s}
        for mode in ("folded", "unfolded"):
            if mode == "unfolded":
                b.locator('[data-role="unfold"]').click()
            got = page.evaluate(PANEL_JS, [moves])
            out[mode] = {"n": len(got["times"]), "messages": got["messages"],
                         "visible": got["visible"], "move": _stats(got["times"]),
                         "panel": _stats(got["panelTimes"])}
        page.close()
    return out


def measure(pw, base: str, quick: bool) -> dict:
    print("agent calls: CPython ...", flush=True)
    out = {"cpython": cpython(2 if quick else 3)}
    print("agent calls: Pyodide ...", flush=True)
    out["pyodide"] = pyodide({"million": 1, "thousand": 1})
    out["growth"] = growth()
    print("agent calls: conversation panel ...", flush=True)
    out["panel"] = panel(pw, base, 60 if quick else 200)
    return out


def rows(agent: dict | None) -> list[tuple[str, str, str, str]]:
    """(measure, value, target, verdict) rows for docs/performance.md."""
    if not agent:
        return []
    out = []
    for engine in ("cpython", "pyodide"):
        data = agent.get(engine) or {}
        if "reason" in data:
            out.append((f"call capture in {engine}", data["reason"], "≤ 1.3×", "not measured"))
            continue
        for key, label in (("million", "the million-step block (declares a model call)"),
                           ("thousand", "a block making 1,000 model calls, 999 tool calls")):
            if key not in data:
                continue
            r, w, wo = data[key]["ratio"], data[key]["with_s"], data[key]["without_s"]
            out.append((f"recording with call capture ÷ without, {label} "
                        f"({'CPython' if engine == 'cpython' else 'Pyodide'} {data['python']})",
                        f"**{r['median']:.2f}×** ({r['min']:.2f}–{r['max']:.2f}); "
                        f"{w['median']:.2f} s vs {wo['median']:.2f} s", "≤ 1.3×",
                        measures_verdict(r["median"] <= 1.3)))
    g = agent.get("growth")
    if g:
        worst = max(g["runs"].items(), key=lambda kv: kv[1]["ratio"])
        out.append(("packed trace with ÷ without call capture, s06 blocks × presets "
                    f"(largest: {worst[0]}, {worst[1]['without']:,} → {worst[1]['with']:,} B)",
                    f"**{g['max_ratio']:.3f}×**", "≤ 1.10×", measures_verdict(g["max_ratio"] <= 1.10)))
    p = agent.get("panel")
    if p:
        for mode in ("folded", "unfolded"):
            v = p[mode]
            own, move = v["panel"], v["move"]
            out.append((f"conversation panel update, cursor move between calls of a "
                        f"{v['messages']}-message conversation, {mode} ({v['visible']} shown; "
                        f"n={v['n']})", f"median {own['median']:.1f} ms, p95 {own['p95']:.1f} ms",
                        "≤ 16 ms p95", measures_verdict(own["p95"] <= 16)))
            out.append((f"the same move, click → block laid out (includes the variables pane "
                        f"rendering the {v['messages']}-message history local)",
                        f"median {move['median']:.1f} ms, p95 {move['p95']:.1f} ms", "", ""))
    return out


def measures_verdict(ok: bool) -> str:
    return "met" if ok else "**not met**"
