"""docs/performance.md from bench/results.json (see bench/run.py) and bench/notes.md."""
from __future__ import annotations

from pathlib import Path

import flood
import questions_bench
import agent_calls
import recordings
import scale
import scale_page
import guest
import navigation
import shipped

NOTES = Path(__file__).parent / "notes.md"

MB = 1_000_000
LESSON_GOAL = 0.45  # the lesson page's ready time ÷ the stock boot's, cold and warm


def _ms(s):
    if not s or s.get("median") is None:
        return "–"
    return f"{s['median']:.0f} ms ({s['min']:.0f}–{s['max']:.0f})"


def _num(s, fmt="{:,.0f}", scale=1.0):
    if not s or s.get("median") is None:
        return "–"
    f = lambda v: fmt.format(v * scale)  # noqa: E731
    return f"{f(s['median'])} ({f(s['min'])}–{f(s['max'])})"


def _met(ok):
    return "met" if ok else ("**not met**" if ok is not None else "not measured")


def rows(results: dict) -> list[tuple[str, str, str, str]]:
    """(measure, value, target, verdict) rows."""
    out = []
    boot = results.get("boot")
    if boot:
        for mode in ("cold", "warm"):
            b = boot[mode]
            stock = b["stock.html"]
            out.append((f"boot, {mode}: stock Pyodide (bare page)", _ms(stock["ms"]), "", ""))
            for name, label in (("lesson", "the s06 lesson page, until its runtime is ready"),
                                ("snapshot.html", "boot.js, always the snapshot"),
                                ("trimmed.html", "boot.js, never the snapshot")):
                if name not in b:
                    continue
                v = b[name]
                goal = LESSON_GOAL if name == "lesson" else 0.6
                out.append((f"boot, {mode}: {label}; path {', '.join(v['paths'])}; "
                            "ready to record", f"{_ms(v['ms'])} = **{v['ratio']:.2f}×** stock",
                            f"≤ {goal}× stock", _met(v["ratio"] <= goal)))
            if "fast-hints.html" in b:
                h, base = b["fast-hints.html"], b["snapshot.html"]
                out.append((f"boot, {mode}: always the snapshot + preload hints in the document",
                            f"{_ms(h['ms'])} = {h['ratio']:.2f}× stock; "
                            f"{_num(h['bytes'], '{:.2f} MB', 1 / MB)}", "(hint helps?)",
                            "helps" if h["ms"]["median"] < base["ms"]["median"] else
                            "does not help"))
        cold, warm = boot["cold"], boot["warm"]
        labels = (("stock.html", "stock"), ("lesson", "the s06 lesson page"),
                  ("snapshot.html", "boot.js, always the snapshot"),
                  ("trimmed.html", "boot.js, never the snapshot"))
        labels = tuple((n, label) for n, label in labels if n in cold)
        for name, label in labels:
            out.append((f"bytes, cold, {label} (transferSize, all requests)",
                        _num(cold[name]["bytes"], "{:.2f} MB", 1 / MB),
                        "≤ 5.8 MB" if name != "stock.html" else "",
                        _met(cold[name]["bytes"]["median"] <= 5.8 * MB)
                        if name != "stock.html" else ""))
        for name, label in labels:
            w = warm[name]
            fetched = ", ".join(w["runtime_fetched"]) or "none"
            out.append((f"bytes, warm, {label}: runtime (/vendor/) re-fetched",
                        f"{_num(w['runtime_bytes'], '{:,.0f} B')}; files: {fetched}",
                        "0 B" if name != "stock.html" else "",
                        _met(w["runtime_bytes"]["max"] == 0) if name != "stock.html" else ""))
    trace = results.get("trace")
    if trace:
        out.append((f"recording in the worker ({trace['steps']:,} steps, {trace['backend']}, "
                    f"Python {trace['python']})", _num(trace["steps_per_s"], "{:,.0f} steps/s"),
                    "≥ 100,000 steps/s", _met(trace["steps_per_s"]["median"] >= 100_000)))
        out.append(("packed trace (what the worker posts) per step",
                    _num(trace["json_bytes_per_step"], "{:.1f} B"),
                    "≤ 100 B/step", _met(trace["json_bytes_per_step"]["median"] <= 100)))
        out.append(("wasm heap growth per recorded step (Python objects)",
                    _num(trace["heap_growth_per_step"], "{:.0f} B"), "", ""))
        out.append(("recorder overhead in Pyodide (recorded ÷ untraced)",
                    _num(trace["overhead"], "{:.0f}×"), "", ""))
    cp = results.get("cpython")
    if cp:
        out.append((f"recording in CPython {cp['python']} ({cp['steps']:,} steps)",
                    _num(cp["steps_per_s"], "{:,.0f} steps/s"), "", ""))
        out.append((f"recorder overhead in CPython {cp['python']}",
                    _num(cp["overhead"], "{:.0f}×"), "", ""))
    load = results.get("load")
    if load and load.get("status") == "ok":
        out.append((f"load: {load['connections']} connections, {load['seconds']} s "
                    f"({load['requests']:,} requests, {load['requests_per_s']:,.0f}/s, "
                    f"{load['megabytes']:,.0f} MB)",
                    f"p50 {load['p50_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms, "
                    f"{load['errors']} errors", "0 errors", _met(load["errors"] == 0)))
    elif load:
        out.append(("load run", load.get("reason") or load.get("status"), "0 errors", "–"))
    ui = results.get("ui")
    if ui and "debug_to_cursor_ms" in ui:
        d, m = ui["debug_to_cursor_ms"], ui["million"]
        out.append((f"Debug → cursor painted, s06 child_tools, once ready (n={d['n']})",
                    f"median {d['median']:.1f} ms, p95 {d['p95']:.1f} ms", "≤ 50 ms median",
                    _met(d["median"] <= 50)))
        out.append((f"recording {m['steps']:,} steps on the lesson page, Debug → paused",
                    f"{m['record_s']:.1f} s", "", ""))
        for key, label in (("jump_ms", "slider jump to a random step"),
                           ("step_ms", "step over / step back")):
            v, h = m[key], m[key]["handled"]
            out.append((f"{label} at {m['steps']:,} steps (n={v['n']}): input handled, "
                        "DOM updated", f"median {h['median']:.1f} ms, p95 {h['p95']:.1f} ms",
                        "≤ 16 ms p95", _met(h["p95"] <= 16)))
            out.append((f"{label}: until the next frame is painted (includes waiting for it)",
                        f"median {v['median']:.1f} ms, p95 {v['p95']:.1f} ms", "", ""))
    elif ui:
        out.append(("Debug → cursor; step/slider at 1M steps", ui.get("reason", "–"),
                    "≤ 50 ms median; ≤ 16 ms p95", "not measured"))
    out += _align_rows(results.get("align"))
    out += _caps_rows(results.get("caps")) + _replay_rows(results.get("replay"))
    out += _origin_rows(results.get("origins"))
    out += questions_bench.rows(results.get("questions"))
    out += agent_calls.rows(results.get("agent"))
    out += shipped.rows(results.get("shipped"))
    out += navigation.rows(results.get("navigation"))
    out += guest.rows(results.get("guest"))
    out += recordings.rows(results.get("recordings"))
    out += scale.rows(results.get("scale"))
    out += scale_page.rows((results.get("scale") or {}).get("page"))
    out += flood.rows(results.get("flood"))
    return out


def _caps_rows(caps: dict | None) -> list[tuple[str, str, str, str]]:
    if not caps or "seconds" not in caps:
        return []
    base = caps["seconds"]["count_up"]
    out = [(f"a finished run of {caps['outcome']['count_up']['steps']:,} steps, recorded "
            f"(CPython {caps['python']})", _ms1(_scaled(base, 1000)), "", "")]
    for key, label in (("spin", f"a loop that never ends, stopped at the {caps['max_steps']:,}-step cap"),
                       ("one_line", "a one-line loop that never ends, stopped by the event cap")):
        s, r = caps["seconds"][key], caps["ratio"][key]
        out.append((f"{label}: time to stop vs the finished run", f"{_ms1(_scaled(s, 1000))} = "
                    f"**{r['median']:.2f}×**", "≤ 3×", _met(r["median"] <= 3)))
    return out


def _replay_rows(replay: dict | None) -> list[tuple[str, str, str, str]]:
    if not replay or "jump_ms" not in replay:
        return [("replay jumps", replay.get("reason", "–"), "", "not measured")] if replay else []
    j, f = replay["jump_ms"], replay["from_start_ms"]
    return [(f"locals at a random step of a {replay['steps']:,}-step trace: replay.js vs "
             "rebuilt from step 0", f"{j['median']:.3f} ms vs {f['median']:.3f} ms = "
             f"**{j['median'] / f['median']:.3f}×**", "≤ 5 ms", _met(j["median"] <= 5))]


def _origin_rows(origins: dict | None) -> list[tuple[str, str, str, str]]:
    if not origins or "move_ms" not in origins:
        return [("message origins per cursor move", origins.get("reason", "–"), "≤ 16 ms p95",
                 "not measured")] if origins else []
    m = origins["move_ms"]
    return [(f"message origins, tool runs, changed-after-send and the boundary per cursor move, "
             f"{origins['most_messages']} messages (n={origins['moves']})",
             f"median {m['median']:.3f} ms, p95 {m['p95']:.3f} ms", "≤ 16 ms p95",
             _met(m["p95"] <= 16))]


def _scaled(s: dict, factor: float) -> dict:
    return {k: (v * factor if k != "n" else v) for k, v in s.items()}


def _align_rows(align: dict | None) -> list[tuple[str, str, str, str]]:
    if not align or "cases" not in align:
        return [("align two 10,000-step runs", align.get("reason", "–"), "≤ 100 ms",
                 "not measured")] if align else []
    out = []
    for name, c in align["cases"].items():
        a, t = c["align_ms"], c["table_ms"]
        out.append((f"align two {align['steps']:,}-step runs side by side ({name}; "
                    f"{c['matches']:,} matched, LCS {c['lcs']:,}): align.js vs the O(N·M) LCS table",
                    f"{_ms1(a)} vs {_ms1(t)} = **{a['median'] / t['median']:.3f}×**", "≤ 100 ms",
                    _met(a["median"] <= 100)))
    return out


def _ms1(s):
    return f"{s['median']:.1f} ms ({s['min']:.1f}–{s['max']:.1f})"


def _breakdown(result: dict | None) -> str:
    if not result:
        return ""
    import breakdown  # bench/ is on sys.path when run.py writes the document

    return "\n## Where the lesson page's boot time goes\n\n" + breakdown.markdown(result)


def table(results: dict) -> str:
    lines = ["| measure | value: median (min–max) | target | verdict |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows(results)]
    return "\n".join(lines)


def markdown(results: dict) -> str:
    m = results["machine"]
    quick = " (quick run: fewer rounds, not for the record)" if results.get("quick") else ""
    boot_n = ""
    if results.get("boot"):
        boot_n = str(results["boot"]["cold"]["stock.html"]["ms"]["n"])
    kept = results.get("kept")
    if kept:
        dates, machines = kept["dates"], kept["machines"]
        runs = [(date, [name for name in kept["sections"] if dates[name] == date])
                for date in sorted(set(dates.values()))]

        def on(date):
            machine = machines.get(date) or {}
            return f"{machine.get('nproc', '?')} CPUs, {machine.get('cpu', '?')}"

        quick += "; " + "; ".join(
            (f"the sections {', '.join(names)} are" if len(names) > 1 else
             f"the section {names[0]} is") + f" kept from the run of {date} (on {on(date)})"
            for date, names in runs)
    return f"""# Performance

Measured by `python bench/run.py` (`make bench`) on {results['started']}{quick}, in one run,
alternating A/B; every value is the median with min–max over the rounds
({boot_n or '–'} boots per variant and mode).

Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory_gb']} GB RAM, {m['os']};
{m['chromium']} headless; Python {m['python']} (server, CPython measures);
Node {m['node']}; Pyodide {m['pyodide']}.

{table(results)}

## What is measured

- **boot**: milliseconds from navigation start to the worker's "ready" message, in
  headless Chromium against the real server on 127.0.0.1. *Stock* is a bare page whose
  module worker only runs `loadPyodide` from `/vendor/pyodide-<version>/`. *boot.js* is a
  page whose module worker boots through `web/static/js/boot/boot.js` (default: the memory
  snapshot, stored as a delta against the wasm's data segments, with the trimmed `.pyc`
  standard library from `/vendor/loopstep-boot-<version>/` loaded on first need), writes the
  recorder and lesson files and imports `runtime.recorder`, i.e. it is ready to record.
  *Cold*: a fresh browser profile for every load. *Warm*: a reader's second visit, the
  load after a first, unmeasured one in a fresh profile and browser.
- **bytes**: the sum of `PerformanceResourceTiming.transferSize` of the document's and the
  worker's requests (0 for a cache hit, headers only for a revalidation).
- **recording**: `loopstep.runtime.recorder.record` of `bench/lessons/million` (a loop that runs
  1,000,000 statements) inside the bench worker, timed with `time.perf_counter`; JSON
  bytes per step of the compact `json.dumps` the page receives; *untraced* is the same
  entry code run by `exec` without the recorder.
- **load**: `wrk -t2 -c100 -d30s` rotating over the s06 lesson page, a presets API call
  and `pyodide.asm.wasm` (brotli accepted), against `loopstep serve` with its access log on.

- **align**: `bench/align.mjs` in Node: `align(stepKeys(a), stepKeys(b))` of
  `web/static/js/model/align.js` on two synthetic 10,000-step loop runs, alternating with the
  textbook O(N·M) table that only computes the longest common subsequence's length.
- **caps**: `loopstep.runtime.recorder.record` of `bench/lessons/caps` in this CPython: an endless
  loop cut at 5,000 steps and a one-line endless loop cut by the events-per-step cap,
  alternating with a finished run of just under 5,000 steps.
- **replay**: `bench/replay_jump.mjs` in Node: `replay(trace).locals(i)` at 200 spread
  steps of a synthetic 1,000,000-step trace, against applying every step's bindings
  from step 0.
- **origins**: `bench/origins.mjs` in Node: a subagent conversation of 102 model calls that
  ends with 201 messages sent; at random cursor steps, the shown call's view, every
  message's origin step and every tool_result's tool run (`web/static/js/model/origins.js`),
  the changed-after-send step and `boundary()` (`web/static/js/model/boundary.js`).
- **recordings**: `bench/recordings.py`: `bench/lessons/sdkloop` (100 model calls through
  the stand-in Anthropic client, 99 tool calls, a 199-message history) recorded with the
  setup's `reply` answering (scripted) and replayed from a recording of the same run (every
  request compared with the recorded one), alternating, in this CPython (settrace) and in
  the vendored Pyodide under Node (sys.monitoring, the worker's Python). Same steps, so the
  time ratio is the steps/s ratio; the first round in Pyodide warms up.
- **scale** (runs at scale): `bench/scale.py`: `bench/lessons/scale`, an agent loop whose
  tool returns 8 KB per call, at 25, 100, 300 and 1,000 model calls: the file `loopstep
  record` writes against the loopback fake provider (its size beside the run's distinct
  content: every distinct message, request field, response and tool execution once), the
  seconds `loopstep record` takes, and the run replayed from that file (loaded and
  replayed, as `loopstep trace --recording`) against the same run scripted, alternating;
  each with its growth factor from the previous length. A length whose file would pass
  1.5 GB is not recorded. Then, in this process's CPU seconds: the recorder's cost per
  step beside a history of 6, 60 and 600 messages that 20,000 steps leave as they are
  (the lesson's `keep_history`: the run with them less the run without, per step; the
  sizes alternating), and the scripted 1,000-call run ÷ the 100-call one, alternating.
  In the page (`bench/scale_page.py`), at 25, 100 and 300 calls, a fresh page per length
  and round in one profile: the recording input focused first (as a reader does before the
  file dialog opens: that boots the guest runtime, waited for before any timer), then the
  preset's scripted run (Run → finished, drawn to its end) and the file chosen → its run
  shown, its steps there to step (at its end when no breakpoint paused it, else Continue
  pressed at once) → drawn to its end, and the page's JS heap after both (CDP
  `Performance.getMetrics` after a GC; the workers' not in it).
- **flood**: `bench/flood.py`: `bench/lessons/flood`, a function that would print 80 MB,
  stopped by the recorder at the output cap (1,000,000 characters) with a partial run of
  2,000 steps; a fresh page per round in one profile, after one page that fills its cache:
  the page's longest main-thread task (the Long Tasks API, tasks of 50 ms or more; 0 when
  none) from Debug to the block paused with the cap named, and over Step over, the
  timeline's End and Continue to the whole kept output shown.
- **navigation**: `bench/navigation.py`: from navigation start to the frame painted after
  `s06/run_subagent` paused on line 15, driven from outside the page by Playwright as a
  reader gets there: *clicks* (the gutter, then Debug, each as soon as Playwright finds it
  clickable) or a *link* holding the paused position (`#b=run_subagent&s=normal&bp=15&step=6`,
  the URL the clicks leave); alternating per round with the stock page; first and third
  visit, unthrottled and under CPU ×4 + fast 4G. Phases on the page's clock: the document's,
  the page's sheet's and script's last bytes, first contentful paint, the page wired
  (`loopstep:init`), the two clicks, paused, painted; and the page main thread's busy time by
  kind from one traced load (bench/tracing.py). Beside them, unthrottled, the same clicks
  on less: a page holding only the two buttons (`bench/pages/buttons.html`, the driver's
  own time) and the lesson page without its runtime (`?runtime=lazy`), each also as a
  fraction of the same rounds' stock boot, and what the goal leaves the page once the
  driver's own time is spent.

{questions_bench.DESCRIPTION}
Raw numbers: `bench/results.json`.
{_breakdown(results.get("breakdown"))}
{NOTES.read_text() if NOTES.is_file() else ""}"""
