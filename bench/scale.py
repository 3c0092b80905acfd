"""Runs at scale: a recording's size, its making and its replay against the run's length.

    python bench/scale.py [--calls 25,100,300,1000] [--quick]

bench/lessons/scale: an agent loop on the stand-in Anthropic client whose tool returns
8 KB (a source file) per call, at 25, 100, 300 and 1,000 model calls (presets ``c25`` …;
the lesson raises its model-call cap to 1,000). For each length:

- **record**: ``loopstep record`` (its ``main``, in this process) against the loopback
  fake provider (tests/fake_provider.py) answering what the setup's ``reply`` answers:
  seconds, and the file's size beside the run's distinct content (every distinct message,
  request field, response and tool execution once: runtime/recording/compact.py
  ``distinct_bytes``);
- **replayed ÷ scripted**: the same run scripted (``reply`` answers) and replayed from that
  file (``load`` + ``record``, as ``loopstep trace --recording`` does), alternating, in this
  process's CPU seconds (``time.process_time``: the machine's other work disturbs it less
  than the wall clock, which is reported beside it); the median of the pairs' ratios.

Each measure also as its growth factor from the previous length (×4 calls from 25 to 100,
×3 to 300, ×3.3 to 1,000: linear cost grows by those factors, quadratic by their squares).
A length whose file would pass ``MAX_FILE`` (estimated from the previous one's growth) is
not recorded, and named as such. Goals (issue 47): a 300-call file ≤ 1.3× its distinct
content; the scripted 1,000-call run ≤ 11× the 100-call one; replayed ÷ scripted ≤ 1.15×
at 300 calls.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import measures  # noqa: E402
from fake_provider import KEY, FakeProvider  # noqa: E402
from loopstep.runtime import cli  # noqa: E402
from loopstep.runtime.recorder import record  # noqa: E402
from loopstep.runtime.recording import format as recording_format  # noqa: E402

ROOTS = [str(HERE / "lessons")]
LESSON, BLOCK = "scale", "run_agent"
CALLS = (25, 100, 300, 1000)
ROUNDS = {25: 5, 100: 3, 300: 5, 1000: 1}
MAX_FILE = 1_500_000_000
GOALS = {"size_300": 1.3, "scripted_1000_100": 11.0, "replayed_300": 1.15}
HISTORIES = (6, 60, 600)    # the per-step measure's history sizes (messages)
HELD_STEPS = 10_000        # its rounds of two statements beside the history


def _distinct(recording):
    try:
        from loopstep.runtime.recording.compact import distinct_bytes
    except ImportError:   # a tree without the compact format: its own measure
        return None
    return distinct_bytes(recording)


def make_recording(calls, path):
    """``loopstep record`` of ``calls`` model calls into ``path``: seconds."""
    turns = [[("tool", "read_file", {"path": f"file_{turn}.txt"})] for turn in range(calls - 1)]
    turns.append(f"Read {calls - 1} files.")
    argv = ["record", f"{LESSON}/{BLOCK}", "--scenario", f"c{calls}", "--provider",
            "anthropic", "-o", str(path), "--lessons", ROOTS[0]]
    with FakeProvider(turns) as fake, _key():
        err = io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stderr(err):
            code = cli.main(argv + ["--base-url", fake.url], own_process=False)
        seconds = time.perf_counter() - started
    assert code == 0, err.getvalue()[-2000:]
    return seconds


@contextlib.contextmanager
def _key():
    old = os.environ.get("ANTHROPIC_API_KEY")
    os.environ["ANTHROPIC_API_KEY"] = KEY
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("ANTHROPIC_API_KEY", None)
        else:
            os.environ["ANTHROPIC_API_KEY"] = old


def _run(calls, path=None, clock=time.perf_counter, wall=None):
    started, wall_started = clock(), time.perf_counter()
    recording = recording_format.load(path) if path else None
    trace = record(LESSON, BLOCK, f"c{calls}", roots=ROOTS, recording=recording)
    seconds = clock() - started
    if wall is not None:
        wall.append(time.perf_counter() - wall_started)
    assert trace["status"] == "finished", trace.get("message")
    if path:
        replay = trace["replay"]
        assert replay["made"] == calls and not replay["divergence"], replay
    return seconds, len(trace["steps"])


def one_length(calls, rounds, folder):
    path = Path(folder) / f"c{calls}.json"
    record_s = make_recording(calls, path)
    size = path.stat().st_size
    distinct = _distinct(recording_format.load(path))
    times = {"scripted": [], "replayed": []}
    walls = {"scripted": [], "replayed": []}
    steps = set()
    for _ in range(rounds):
        for name in times:
            seconds, count = _run(calls, path if name == "replayed" else None,
                                  clock=time.process_time, wall=walls[name])
            times[name].append(seconds)
            steps.add(count)
    assert len(steps) == 1, steps   # both runs take the same steps
    path.unlink()
    out = {"calls": calls, "rounds": rounds, "steps": steps.pop(), "record_s": record_s,
           "file_bytes": size, "scripted_s": measures.summary(times["scripted"]),
           "replayed_s": measures.summary(times["replayed"]),
           "wall_s": {name: measures.summary(v) for name, v in walls.items()},
           "ratio": measures.summary([r / s for r, s in zip(times["replayed"],
                                                              times["scripted"])])}
    if distinct:
        out["distinct_bytes"] = distinct
        out["file_per_distinct"] = size / distinct
    return out


def _held(size, rounds):
    """Seconds and steps of ``keep_history``: a history of ``size`` messages, then
    ``rounds`` rounds of two statements that leave it as it is."""
    setup = f"ROUNDS = {size}\nSTEPS = {rounds}\nTASK = 'Read every file.'\n"
    started = time.process_time()
    trace = record(LESSON, "keep_history", "custom", roots=ROOTS, setup=setup,
                   max_steps=1_000_000)
    seconds = time.process_time() - started
    assert trace["status"] == "finished", trace.get("message")
    return seconds, len(trace["steps"])


def per_step(rounds=5):
    """The recorder's cost per step beside a history of 6, 60 and 600 messages the steps
    do not change (a VALUE shows 50 items of a list: 60 and 600 show as much): (the run
    with HELD_STEPS rounds − the run with none) ÷ their steps' difference, the sizes
    alternating; and the scripted 1,000-call run ÷ the 100-call one, alternating (the
    median of the pairs). Both in this process's CPU seconds (``time.process_time``),
    which the machine's other work disturbs less than the wall clock."""
    costs = {size: [] for size in HISTORIES}
    for _ in range(rounds):
        for size in HISTORIES:
            (full, n_full), (bare, n_bare) = _held(size, HELD_STEPS), _held(size, 0)
            costs[size].append((full - bare) / (n_full - n_bare))
    low, high = HISTORIES[0], HISTORIES[-1]
    cpu = partial(_run, clock=time.process_time)
    pairs = [cpu(1000)[0] / cpu(100)[0] for _ in range(max(1, rounds // 2))]
    return {"histories": HISTORIES, "steps": 2 * HELD_STEPS,
            "per_step_s": {size: measures.summary(v) for size, v in costs.items()},
            "ratio": measures.summary([b / a for a, b in zip(costs[low], costs[high])]),
            "scripted_1000_100": measures.summary(pairs)}


def _per_step_rows(result):
    held = result.get("per_step")
    if not held:
        return []
    costs = {int(k): v["median"] for k, v in held["per_step_s"].items()}
    sizes = sorted(costs)
    shown = " / ".join(f"{costs[n] * 1e6:.0f} µs" for n in sizes)
    ratio = held["ratio"]
    pairs = held["scripted_1000_100"]
    goal = result["goals"]["scripted_1000_100"]
    return [(f"runs at scale: the recorder's cost per step beside a history of "
             f"{' / '.join(map(str, sizes))} messages its steps leave as they are, CPU "
             f"(n={ratio['n']})", f"{shown}; {sizes[-1]} ÷ {sizes[0]} = **{ratio['median']:.1f}×** "
             f"({ratio['min']:.1f}–{ratio['max']:.1f}), {sizes[-1]} ÷ {sizes[-2]} = "
             f"{costs[sizes[-1]] / costs[sizes[-2]]:.2f}×", "", ""),
            (f"runs at scale: the scripted run of 1,000 calls ÷ that of 100, alternating, CPU "
             f"(n={pairs['n']} pairs)", f"**{pairs['median']:.1f}×** ({pairs['min']:.1f}–"
             f"{pairs['max']:.1f})", f"≤ {goal}×", "met" if pairs["median"] <= goal
             else "**not met**")]


def _growth(rows):
    for before, after in zip(rows, rows[1:]):
        if "skipped" in after or "skipped" in before:
            continue
        after["growth"] = {
            "calls": after["calls"] / before["calls"],
            "file": after["file_bytes"] / before["file_bytes"],
            "record": after["record_s"] / before["record_s"],
            "scripted": after["scripted_s"]["median"] / before["scripted_s"]["median"],
            "replayed": after["replayed_s"]["median"] / before["replayed_s"]["median"]}


def section(calls=CALLS, quick=False):
    """The bench's results (bench/run.py's "scale" section)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="loopstep-scale-") as folder:
        for n in calls:
            done = [r for r in rows if "skipped" not in r]
            if len(done) >= 2:
                a, b = done[-2], done[-1]
                # the file's growth so far, as a power of the calls, carried on to n
                power = math.log(b["file_bytes"] / a["file_bytes"]) / math.log(
                    b["calls"] / a["calls"])
                estimate = b["file_bytes"] * (n / b["calls"]) ** power
                if estimate > MAX_FILE:
                    rows.append({"calls": n, "skipped": f"its file would be about "
                                                        f"{estimate / 1e9:.1f} GB"})
                    continue
            print(f"  {n} model calls ...", flush=True)
            rows.append(one_length(n, 1 if quick else ROUNDS.get(n, 1), folder))
    _growth(rows)
    print("  the recorder's cost per step beside a history ...", flush=True)
    return {"block": f"{LESSON}/{BLOCK}", "tool_output_bytes": 8192,
            "python": sys.version.split()[0], "goals": GOALS, "lengths": rows,
            "per_step": per_step(1 if quick else 5)}


def _by(result, calls):
    return next((r for r in result["lengths"] if r["calls"] == calls and "skipped" not in r),
                None)


def _mb(n):
    return f"{n / 1e6:,.1f} MB" if n >= 1e6 else f"{n / 1e3:,.0f} KB"


def _grown(grow, key):
    return f" (×{grow[key]:.1f})" if grow else ""


def rows(result: dict | None) -> list[tuple[str, str, str, str]]:
    """(measure, value, target, verdict) rows of docs/performance.md."""
    if not result:
        return []
    out = []
    for row in result["lengths"]:
        n = row["calls"]
        if "skipped" in row:
            out.append((f"runs at scale, {n:,} model calls × 8 KB tool outputs", "not run: "
                        + row["skipped"], "", ""))
            continue
        grow = row.get("growth")
        g = partial(_grown, grow)
        per = (f" = {row['file_per_distinct']:.2f}× its distinct content "
               f"({_mb(row['distinct_bytes'])})") if "file_per_distinct" in row else ""
        size_goal = result["goals"]["size_300"]
        out.append((f"runs at scale, {n:,} model calls × 8 KB tool outputs: the recording file"
                    + (f"; growth from {n / grow['calls']:,.0f} calls (×{grow['calls']:.1f})"
                       if grow else ""),
                    f"{_mb(row['file_bytes'])}{g('file')}{per}",
                    f"≤ {size_goal}× distinct" if n == 300 else "",
                    ("met" if row.get("file_per_distinct", 1e9) <= size_goal else "**not met**")
                    if n == 300 else ""))
        out.append((f"runs at scale, {n:,} calls: `loopstep record` against the loopback "
                    "provider", f"{row['record_s']:.2f} s{g('record')}", "", ""))
        ratio = row["ratio"]["median"]
        goal = result["goals"]["replayed_300"]
        wall = row.get("wall_s")
        out.append((f"runs at scale, {n:,} calls: replayed (file loaded) ÷ scripted, CPython "
                    f"{result['python']}, CPU (n={row['ratio']['n']} pairs"
                    + (f"; wall clock {wall['replayed']['median']:.2f} s vs "
                       f"{wall['scripted']['median']:.2f} s" if wall else "") + ")",
                    f"{row['replayed_s']['median']:.2f} s{g('replayed')} vs "
                    f"{row['scripted_s']['median']:.2f} s{g('scripted')} = **{ratio:.2f}×** "
                    f"({row['ratio']['min']:.2f}–{row['ratio']['max']:.2f})",
                    f"≤ {goal}×" if n == 300 else "",
                    ("met" if ratio <= goal else "**not met**") if n == 300 else ""))
    low, high = _by(result, 100), _by(result, 1000)
    if low and high:
        factor = high["scripted_s"]["median"] / low["scripted_s"]["median"]
        goal = result["goals"]["scripted_1000_100"]
        out.append(("runs at scale: the scripted run of 1,000 calls ÷ that of 100",
                    f"**{factor:.1f}×**", f"≤ {goal}×", "met" if factor <= goal else "**not met**"))
    return out + _per_step_rows(result)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", default=",".join(map(str, CALLS)))
    parser.add_argument("--quick", action="store_true", help="one round per length")
    args = parser.parse_args(argv)
    result = section(tuple(int(n) for n in args.calls.split(",")), args.quick)
    print(json.dumps(result, indent=1))
    print("\n".join(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows(result)))


if __name__ == "__main__":
    main()
