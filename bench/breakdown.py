"""Where the boot time goes: the lesson page against the bare boot.js page, side by side.

    python bench/breakdown.py [--rounds 5] [--trace DIR]

Cold loads (a fresh profile each), alternating /lessons/s06 and /bench/fast.html (and
the stock page for the ratio); from each load: the `loopstep:*` performance marks of
the page and its worker (on the page's timeline, ms since navigation start), the
navigation milestones, first contentful paint, and when each script, style and Python
file arrived. Prints medians per milestone and writes bench/breakdown.json.

--trace DIR also records one Chromium trace (CDP Tracing) per page into DIR and adds,
per thread (page main thread, Python worker), the busy time between navigation and ready
by kind of work (script compile/evaluate, HTML parse, style and layout, paint, wasm).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import browser  # noqa: E402
import run  # noqa: E402
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
            "start": median_of(samples, lambda s: _res(s, key, "start")),
            "end": median_of(samples, lambda s: _res(s, key, "end")),
            "bytes": r["bytes"]}
    threads = [s["threads"] for s in samples if "threads" in s]
    if threads:
        out["threads"] = threads[0]
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", default="stock,lesson,boot.js")
    parser.add_argument("--trace", type=Path, help="write one Chromium trace per page here")
    parser.add_argument("--out", type=Path, default=HERE / "breakdown.json")
    args = parser.parse_args(argv)
    names = args.pages.split(",")
    from playwright.sync_api import sync_playwright

    port = run.free_port()
    base = f"http://127.0.0.1:{port}"
    server = run.start_server(port)
    samples = {name: [] for name in names}
    try:
        with sync_playwright() as pw:
            for i in range(args.rounds):
                for name in names:
                    with browser.profile(pw) as context:
                        trace = args.trace if (args.trace and i == args.rounds - 1) else None
                        if trace:
                            trace.mkdir(parents=True, exist_ok=True)
                        samples[name].append(load(context, base, name, trace))
                print(f"round {i + 1}: " + ", ".join(
                    f"{n} {samples[n][-1]['ready']:.0f}" for n in names), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    result = {name: summarise(rows) for name, rows in samples.items()}
    result["samples_ready"] = {n: [round(s["ready"]) for s in rows] for n, rows in samples.items()}
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    for name in names:
        show(name, result[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
