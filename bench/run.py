"""Side-by-side benchmarks of loopstep against the stock Pyodide boot, in one run.

    python bench/run.py [--quick] [--only boot,breakdown,trace,cpython,load,ui,align]

Starts the real server (bench/serve.py: `server.main(["serve", ...])` plus the bench
pages) and headless Chromium (LOOPSTEP_CHROMIUM or /usr/bin/chromium), then measures,
alternating A/B, medians with min/max:
  1. boot: bench page via web/static/js/boot/boot.js (ready = runtime.recorder imported) vs a
     bare page that only boots the vendored Pyodide stock in a module worker; cold
     (fresh profile per load) and warm (a fresh profile's second load);
  2. long traces: the bench/lessons/million block (1,000,000 statements) recorded in the
     worker: steps/s, JSON bytes/step, wasm heap growth/step;
  3. recorder overhead vs the same code untraced, in Pyodide and in this CPython;
  4. bytes transferred cold and warm (PerformanceResourceTiming.transferSize);
  5. a load run: 100 connections for 30 s against a lesson page, the presets API, the wasm;
  6. align: two 10,000-step runs aligned side by side (web/static/js/model/align.js, in Node)
     against the textbook O(N·M) longest-common-subsequence table;
  7. caps: how soon the step and event caps stop a loop that never ends (CPython);
  8. replay: jumps into a million-step trace vs rebuilding the locals from step 0 (Node);
  9. breakdown: where the lesson page's boot time goes against the boot.js page, milestone
     by milestone, and per thread from a Chromium trace (bench/breakdown.py).
 10. agent: recording with model/tool call capture vs without, packed growth on s06, the
     conversation panel's cursor moves (bench/agent_calls.py).
 11. origins: message origins and the subagent boundary per cursor move on a 201-message
     conversation (bench/origins.mjs, in Node).
 12. shipped: Debug pressed by the page itself as soon as it is wired, from navigation to the
     cursor painted (bench/shipped.py); navigation: the same path with the reader's clicks
     driven from outside, phase by phase (bench/navigation.py); both against a stock boot,
     unthrottled and under CPU ×4 + fast 4G.
 13. guest: a link's custom setup run by the guest runtime (booted first) beside a preset's
     run with a question in the page's worker (bench/guest.py).
 14. scale: runs at scale, 25 to 1,000 model calls with 8 KB tool outputs: the recording
     file's size, `loopstep record`'s time, replayed ÷ scripted (bench/scale.py); in the
     page at 25 to 300 calls: the file chosen → first step and → end beside the page's
     scripted run, and the page's heap (bench/scale_page.py).
 15. flood: a run that would print 80 MB, stopped at the output cap: the page's longest
     main-thread task while it shows and steps the partial run (bench/flood.py).
Writes bench/results.json and docs/performance.md; with --only, the sections not measured
are kept from the previous bench/results.json (and named as such in the document).
"""
from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import breakdown  # noqa: E402
import flood  # noqa: E402
import agent_calls  # noqa: E402
import browser  # noqa: E402
import guest  # noqa: E402
import measures  # noqa: E402
import navigation  # noqa: E402
import questions_bench  # noqa: E402
import recordings  # noqa: E402
import scale  # noqa: E402
import scale_page  # noqa: E402
import shipped  # noqa: E402
import report  # noqa: E402

sys.path.insert(0, str(ROOT))
from loopstep.web.assets import PYODIDE_URL  # noqa: E402

LOAD_PATHS = ["/lessons/s06", "/api/lessons/s06/blocks/run_subagent/presets/normal",
              PYODIDE_URL + "pyodide.asm.wasm"]
FULL_STEPS = 1_100_000
SECTIONS = ("boot", "breakdown", "trace", "cpython", "load", "ui", "align", "caps", "replay",
            "questions", "agent", "origins", "shipped", "navigation", "recordings", "guest",
            "scale", "flood")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, max_steps: int | None = None) -> subprocess.Popen:
    """bench/serve.py on `port`; `max_steps` raises the pages' step cap (the million-step
    lesson's page; a page then has no shipped traces, made under the default cap)."""
    roots = [ROOT / "runtime" / "lessons", ROOT / "stubs", HERE / "lessons"]
    cmd = [sys.executable, str(HERE / "serve.py"), "--port", str(port)]
    if max_steps is not None:
        cmd += ["--max-steps", str(max_steps)]
    for root in roots:
        cmd += ["--lessons", str(root)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server exited: " + proc.stderr.read().decode()[-2000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/bench/config.json", timeout=2).is_success:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start")


def boot_section(pw, base: str, rounds: int, hints: bool) -> dict:
    variants = ("stock.html", browser.LESSON_PAGE, "snapshot.html", "trimmed.html") + (
        ("fast-hints.html",) if hints else ())
    out = {}
    for mode in ("cold", "warm"):
        samples = browser.boot_ab(pw, base, rounds, variants, warm=(mode == "warm"))
        out[mode] = {name: {"ms": measures.summary([s["ms"] for s in rows]),
                            "bytes": measures.summary([s["bytes"]["total"] for s in rows]),
                            "runtime_bytes": measures.summary(
                                [s["bytes"]["runtime"] for s in rows]),
                            "runtime_fetched": sorted({n for s in rows
                                                       for n in s["bytes"]["runtime_fetched"]}),
                            "paths": sorted({s["path"] for s in rows}),
                            "fallbacks": sorted({f for s in rows for f in s["fallbacks"]}),
                            "samples_ms": [round(s["ms"]) for s in rows]}
                     for name, rows in samples.items()}
        stock = out[mode]["stock.html"]["ms"]["median"]
        for name in variants[1:]:
            out[mode][name]["ratio"] = out[mode][name]["ms"]["median"] / stock
    return out


def trace_section(pw, base: str, max_steps: int, rounds: int) -> dict:
    data = browser.long_trace(pw, base, max_steps, rounds)
    records = data["records"]
    steps = records[0]["steps"]
    plain_full = data["untraced_s"]
    scale = min(1.0, steps / (3 * 333_333 + 5))
    return {
        "python": data["python"], "backend": records[0]["backend"], "steps": steps,
        "status": records[0]["status"],
        "record_s": measures.summary([r["record_s"] for r in records]),
        "json_s": measures.summary([r["json_s"] for r in records]),
        "steps_per_s": measures.summary([r["steps"] / r["record_s"] for r in records]),
        "json_bytes_per_step": measures.summary([r["json_bytes"] / r["steps"] for r in records]),
        "heap_growth_per_step": measures.summary(
            [r["heap_growth"] / r["steps"] for r in records]),
        "untraced_s": measures.summary([p * scale for p in plain_full]),
        "overhead": measures.summary([r["record_s"] / (p * scale)
                                      for r, p in zip(records, plain_full)]),
    }


def keep_previous(results: dict, only: set, path: Path) -> None:
    """Sections not measured this time: the previous run's, listed in results["kept"]."""
    previous = json.loads(path.read_text()) if path.is_file() else {}
    kept = [name for name in SECTIONS if name not in only and name in previous]
    for name in kept:
        results[name] = previous[name]
    if kept:
        # each section's run: a section the previous run kept too is from an earlier one
        older = previous.get("kept", {})
        dates = {name: older["dates"][name] if name in older.get("sections", ())
                 else previous.get("started") for name in kept}
        machines = {**older.get("machines", {}), previous.get("started"): previous.get("machine")}
        results["kept"] = {"sections": kept, "dates": dates,
                           "machines": {date: machines.get(date) for date in set(dates.values())}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="few rounds, 100,000 steps, 5 s load run (while developing)")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--no-hints", action="store_true", help="skip the preload-hint variant")
    parser.add_argument("--out", type=Path, default=HERE / "results.json")
    parser.add_argument("--doc", type=Path, default=ROOT / "docs" / "performance.md")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    if "load" in only:
        measures.wrk_path()  # fail now, not after the browser measures
    rounds = 2 if args.quick else 5
    max_steps = 100_000 if args.quick else FULL_STEPS
    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    results = {"quick": args.quick, "started": time.strftime("%Y-%m-%d %H:%M:%S"),
               "machine": measures.machine(browser.chromium_path())}
    server = start_server(port)
    # the million-step lesson's page records past the pages' default cap (10,000 steps)
    big = big_base = None
    if only & {"ui", "questions"}:
        big_port = free_port()
        big = start_server(big_port, max_steps)
        big_base = f"http://127.0.0.1:{big_port}"
    try:
        with sync_playwright() as pw:
            if "boot" in only:
                print("boot A/B (cold, warm) ...", flush=True)
                results["boot"] = boot_section(pw, base, rounds, not args.no_hints)
            if "breakdown" in only:
                print("boot breakdown: the lesson page against the boot.js page ...", flush=True)
                with tempfile.TemporaryDirectory(prefix="loopstep-trace-") as traces:
                    results["breakdown"] = breakdown.measure(pw, base, rounds,
                                                             trace_dir=Path(traces))
            if "trace" in only:
                print(f"long trace ({max_steps} steps) in the browser ...", flush=True)
                results["trace"] = trace_section(pw, base, max_steps, 1 if args.quick else 3)
            if "ui" in only:
                results["ui"] = browser.measure_ui(pw, base, args.quick, million_base=big_base)
            if "questions" in only:
                print("questions (conditions, logpoints, watches) and value history ...", flush=True)
                results["questions"] = questions_bench.section(pw, big_base, max_steps,
                                                         2 if args.quick else 5)
            if "agent" in only:
                results["agent"] = agent_calls.measure(pw, base, args.quick)
            if "shipped" in only:
                print("Debug from the shipped traces vs a stock boot ...", flush=True)
                results["shipped"] = shipped.section(pw, base, 2 if args.quick else 5,
                                                     1 if args.quick else 3)
            if "guest" in only:
                print("a guest's run (custom setup) vs a preset's run with a question ...", flush=True)
                results["guest"] = guest.section(pw, base, 2 if args.quick else 5)
            if "navigation" in only:
                print("navigation → paused, the reader's clicks, vs a stock boot ...", flush=True)
                results["navigation"] = navigation.section(pw, base, 2 if args.quick else 5,
                                                           1 if args.quick else 3)
            if "scale" in only:
                print("runs at scale in the page: 25 to 300 model calls ...", flush=True)
                scale_in_page = scale_page.section(pw, base, rounds=1 if args.quick else 3)
            if "flood" in only:
                print("a run that would print 80 MB, in the page ...", flush=True)
                results["flood"] = flood.section(pw, base, 2 if args.quick else 5)
        if "cpython" in only:
            print("CPython overhead ...", flush=True)
            results["cpython"] = measures.cpython_overhead(max_steps, 1 if args.quick else 3)
        if "load" in only:
            print("load run ...", flush=True)
            results["load"] = measures.load_run(port, LOAD_PATHS, 5 if args.quick else 30)
        if "align" in only:
            print("align two 10,000-step runs ...", flush=True)
            results["align"] = measures.align_bench(3 if args.quick else 9)
        if "caps" in only:
            print("step caps ...", flush=True)
            results["caps"] = measures.step_caps(3 if args.quick else 9)
        if "replay" in only:
            print("replay jumps in a million steps ...", flush=True)
            results["replay"] = measures.replay_jumps(3 if args.quick else 9)
        if "recordings" in only:
            print("a recorded run replayed vs scripted (CPython, Pyodide) ...", flush=True)
            results["recordings"] = recordings.section(3 if args.quick else 9)
        if "scale" in only:
            print("runs at scale: 25 to 1,000 model calls × 8 KB outputs ...", flush=True)
            results["scale"] = scale.section(quick=args.quick)
            results["scale"]["page"] = scale_in_page
        if "origins" in only:
            print("message origins per cursor move ...", flush=True)
            results["origins"] = measures.origin_moves(500 if args.quick else 2000)
    finally:
        for proc in (server, big):
            if proc:
                proc.terminate()
                proc.wait(timeout=30)
    keep_previous(results, only, args.out)
    args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    text = report.markdown(results)
    args.doc.write_text(text)
    print(report.table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
