"""Where the boot time goes: the lesson page against the bare boot.js page, side by side.

    python bench/breakdown.py [--rounds 5] [--pages lesson,boot.js,stock] [--trace DIR]

`make bench` runs it as its "breakdown" section (bench/run.py). Cold loads (a fresh
profile each), alternating /lessons/s06 and /bench/fast.html; from each load: the `loopstep:*` performance marks of
the page and its worker (on the page's timeline, ms since navigation start), the
navigation milestones, first contentful paint, and when each script, style and Python
file arrived. Prints medians per milestone.

--trace DIR also records one Chromium trace (CDP Tracing) per page into DIR and adds,
per thread (page main thread, Python worker), the busy time between navigation and ready
by kind of work (script compile/evaluate, HTML parse, style and layout, paint, wasm).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import browser  # noqa: E402
import tracing  # noqa: E402

PAGES = {"lesson": "/lessons/s06", "boot.js": "/bench/fast.html", "stock": "/bench/stock.html"}
READY = "() => window.__loopstep_ready || (window.bench && window.bench.ready)"

# Runs in the page once it is ready: marks, navigation, paint and resource timings.
TIMELINE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const marks = Object.fromEntries(performance.getEntriesByType("mark")
    .filter((m) => m.name.startsWith("loopstep:")).map((m) => [m.name.slice(9), m.startTime]));
  const paint = Object.fromEntries(performance.getEntriesByType("paint")
    .map((p) => [p.name, p.startTime]));
  const resources = performance.getEntriesByType("resource").map((r) => ({
    name: new URL(r.name).pathname, type: r.initiatorType, start: r.startTime,
    end: r.responseEnd, bytes: r.transferSize }));
  return {marks, paint, resources, nav: {responseEnd: nav.responseEnd,
    domInteractive: nav.domInteractive, domContentLoaded: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd}};
}"""


def load(context, base: str, name: str, trace_to: Path | None = None) -> dict:
    page = context.new_page()
    try:
        page.add_init_script(browser.READY_PROBE)
        recorder = tracing.start(context, page) if trace_to else None
        page.goto(base + PAGES[name], wait_until="commit")
        deadline = time.monotonic() + 180
        while not page.evaluate(READY):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{name}: not ready")
            time.sleep(0.01)
        ready = page.evaluate(READY)
        ready_ms = ready["ms"] if isinstance(ready, dict) else ready
        data = page.evaluate(TIMELINE)
        data["ready"] = ready_ms
        if recorder:
            events = recorder.stop(trace_to / f"{name.replace('.', '_')}.json")
            data["threads"] = tracing.busy(events, ready_ms)
        return data
    finally:
        page.close()


def median_of(samples: list[dict], key) -> float | None:
    values = [v for v in (key(s) for s in samples) if v is not None]
    return round(statistics.median(values), 1) if values else None


def summarise(samples: list[dict]) -> dict:
    names = sorted({m for s in samples for m in s["marks"]},
                   key=lambda m: median_of(samples, lambda s: s["marks"].get(m)) or 0)
    out = {"ready": median_of(samples, lambda s: s["ready"]),
           "marks": {m: median_of(samples, lambda s, m=m: s["marks"].get(m)) for m in names},
           "nav": {k: median_of(samples, lambda s, k=k: s["nav"][k]) for k in samples[0]["nav"]},
           "paint": {k: median_of(samples, lambda s, k=k: s["paint"].get(k))
                     for k in ("first-paint", "first-contentful-paint")},
           "resources": {}}
    for r in samples[0]["resources"]:
        key = r["name"]
        out["resources"][key] = {
            "type": r["type"],
            "start": median_of(samples, lambda s, key=key: _res(s, key, "start")),
            "end": median_of(samples, lambda s, key=key: _res(s, key, "end")),
            "bytes": r["bytes"]}
    return out


def _res(sample: dict, name: str, field: str):
    return next((r[field] for r in sample["resources"] if r["name"] == name), None)


def show(name: str, data: dict) -> None:
    print(f"\n== {name}: ready {data['ready']} ms")
    for k, v in data["nav"].items():
        print(f"   nav {k:<28} {v}")
    for k, v in data["paint"].items():
        print(f"   paint {k:<26} {v}")
    for k, v in data["marks"].items():
        print(f"   mark {k:<27} {v}")
    for k, v in sorted(data["resources"].items(), key=lambda kv: kv[1]["end"] or 0):
        print(f"   {v['type']:<14} {v['start']:>7} → {v['end']:>7}  {v['bytes']:>8} B  {k}")
    for thread, kinds in data.get("threads", {}).items():
        print(f"   thread {thread}: " + ", ".join(f"{k} {v:.0f}" for k, v in kinds.items()))


def measure(pw, base: str, rounds: int, names=("lesson", "boot.js"),
            trace_dir: Path | None = None) -> dict:
    """Cold loads alternating `names`, `rounds` times; then, with `trace_dir`, one more
    traced load of each (not in the medians: tracing slows the page down)."""
    samples = {name: [] for name in names}
    for i in range(rounds):
        for name in names:
            with browser.profile(pw) as context:
                samples[name].append(load(context, base, name))
        print(f"  breakdown round {i + 1}: " + ", ".join(
            f"{n} {samples[n][-1]['ready']:.0f} ms" for n in names), flush=True)
    result = {name: summarise(rows) for name, rows in samples.items()}
    if trace_dir:
        trace_dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            with browser.profile(pw) as context:
                result[name]["threads"] = load(context, base, name, trace_dir)["threads"]
    result["rounds"] = rounds
    return result


MILESTONES = (
    ("nav", "responseEnd", "document received"),
    ("marks", "early-evaluated", "early boot script evaluated (lesson page only)"),
    ("marks", "boot-asked", "worker created, asked to boot"),
    ("marks", "worker:evaluated", "worker script evaluated"),
    ("marks", "worker:pyodide-imported", "pyodide.mjs imported"),
    ("marks", "boot:manifest-checked", "boot set checked (boot.json, SHA256SUMS)"),
    ("paint", "first-contentful-paint", "first contentful paint"),
    ("marks", "page-started", "page script started (lesson page only)"),
    ("marks", "worker:pyodide-booted", "Pyodide booted (trimmed or snapshot)"),
    ("marks", "worker:files-written", "recorder and lesson files written"),
    ("marks", "worker:recorder-imported", "runtime.recorder imported"),
    ("marks", "ready", "ready on the page"),
)


def markdown(result: dict) -> str:
    """The milestone table (medians, ms since navigation start) and the traced busy time."""
    lesson, bare = result["lesson"], result["boot.js"]
    lines = [f"Cold, medians of {result['rounds']} loads each, alternating; ms since navigation "
             "start (`bench/breakdown.py`).", "",
             "| milestone | lesson page | boot.js page | lesson − boot.js |", "|---|---|---|---|"]
    for group, key, label in MILESTONES:
        a, b = lesson[group].get(key), bare[group].get(key)
        cell = lambda v: "–" if v is None else f"{v:.0f}"  # noqa: E731
        diff = f"{a - b:+.0f}" if a is not None and b is not None else ""
        lines.append(f"| {label} | {cell(a)} | {cell(b)} | {diff} |")
    traced = [(name, thread, kinds) for name in ("lesson", "boot.js")
              for thread, kinds in result[name].get("threads", {}).items()]
    if traced:
        kinds = ("busy (all tasks)", "script", "style+layout", "paint", "html")
        lines += ["", "One traced cold load per page (Chromium trace, CDP `Tracing`): ms of work "
                  "per thread from navigation start to ready, outermost events only.", "",
                  "| page | thread | " + " | ".join(kinds) + " |",
                  "|---|---|" + "---|" * len(kinds)]
        for name, thread, row in traced:
            lines.append(f"| {name} | {thread} | " +
                         " | ".join(f"{row.get(k, 0):.0f}" for k in kinds) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", default="lesson,boot.js")
    parser.add_argument("--trace", type=Path, help="write one Chromium trace per page here")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) /
                        "loopstep-breakdown.json")
    args = parser.parse_args(argv)
    names = tuple(args.pages.split(","))
    from playwright.sync_api import sync_playwright

    import run  # the bench server

    port = run.free_port()
    server = run.start_server(port)
    try:
        with sync_playwright() as pw:
            result = measure(pw, f"http://127.0.0.1:{port}", args.rounds, names, args.trace)
    finally:
        server.terminate()
        server.wait(timeout=30)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    for name in names:
        show(name, result[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
