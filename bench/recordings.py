"""Recordings: a replayed recording vs the same run scripted, side by side in one run.

    python bench/recordings.py [--rounds N] [--no-pyodide]

bench/lessons/sdkloop ("hundred": 100 model calls through the stand-in Anthropic client,
99 tool calls, one history of 199 messages) runs twice per pair: scripted (the setup's
``reply`` answers) and replayed (a recording of the same run answers every call, each
request compared with the recorded one in the normal form; runtime/recording/replay.py).
The recording is made here once, by ``loopstep record``'s live sender against the
loopback fake provider (tests/fake_provider.py) answering what ``reply`` answers, so
both runs take the same steps. Pairs alternate (scripted, replayed, …); the ratio is the
median of the pairs' replayed/scripted times (steps/s inverted: the steps are the same).
In this CPython (settrace) and in the vendored Pyodide under Node (sys.monitoring, the
worker's Python; tests/pyodide_node.py). The goal: ≤ 1.2×.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import measures  # noqa: E402
from fake_provider import KEY, FakeProvider  # noqa: E402
from loopstep.runtime.catalog.lessons import load_lessons  # noqa: E402
from loopstep.runtime.recorder import record  # noqa: E402
from loopstep.runtime.recording.live import Live, add_tool_executions  # noqa: E402

ROOTS = [str(HERE / "lessons")]
LESSON, BLOCK, PRESET = "sdkloop", "run_agent", "hundred"
ROUNDS = 100
GOAL = 1.2


def make_recording():
    """The run recorded against the fake provider, answering as the setup's reply does."""
    turns = [[("tool", "read_file", {"path": f"file_{turn}.txt"})] for turn in range(ROUNDS - 1)]
    turns.append(f"Read {ROUNDS - 1} files.")
    with FakeProvider(turns) as fake:
        live = Live("anthropic", KEY, (LESSON, BLOCK, PRESET), fake.url)
        trace = record(LESSON, BLOCK, PRESET, roots=ROOTS, live=live)
    assert trace["status"] == "finished", trace["message"]
    return add_tool_executions(live.recording)


def jobs(recording):
    plain = {"lesson": LESSON, "block": BLOCK, "scenario": PRESET}
    return {"scripted": plain, "replayed": {**plain, "recording": recording}}


def check(recording):
    """Both runs take the same steps (else the comparison is not fair)."""
    runs = {name: record(j["lesson"], j["block"], j["scenario"], roots=ROOTS,
                         recording=j.get("recording")) for name, j in jobs(recording).items()}
    shape = lambda trace: [(s["line"], s["event"], s["depth"]) for s in trace["steps"]]  # noqa: E731
    assert shape(runs["replayed"]) == shape(runs["scripted"])
    assert runs["replayed"]["replay"]["made"] == ROUNDS and not runs["replayed"]["replay"]["divergence"]
    return len(runs["scripted"]["steps"])


def _ratios(times, steps):
    base = times["scripted"]
    out = {}
    for name, values in times.items():
        out[name] = {"seconds": measures.summary(values),
                     "steps_per_s": round(steps / min(values))}
        if name != "scripted":
            out[name]["ratio"] = measures.summary([r / s for r, s in zip(values, base)])
            out[name]["ratio_of_fastest"] = min(values) / min(base)
    return out


def cpython(recording, rounds, steps):
    times = {name: [] for name in jobs(recording)}
    for _ in range(rounds):
        for name, job in jobs(recording).items():
            started = time.perf_counter()
            record(job["lesson"], job["block"], job["scenario"], roots=ROOTS,
                   recording=job.get("recording"))
            times[name].append(time.perf_counter() - started)
    return _ratios(times, steps)


def pyodide(recording, rounds, steps):
    from pyodide_node import record_in_pyodide
    files = {rel: str(path) for rel, path in load_lessons(ROOTS)[LESSON].files.items()}
    order = list(jobs(recording).items()) * (rounds + 1)     # the first round warms up
    with tempfile.TemporaryDirectory() as folder:
        result = record_in_pyodide(folder, files, [job for _, job in order])
    for (name, _), trace in zip(order, result["traces"]):
        assert trace["status"] == "finished", (name, trace["message"])
        assert ("replay" in trace) == (name == "replayed"), name
    times = {name: [] for name in jobs(recording)}
    width = len(jobs(recording))
    for (name, _), ms in list(zip(order, result["timings"]))[width:]:
        times[name].append(ms / 1000)
    return {"python": result["python"], **_ratios(times, steps)}


def section(rounds, with_pyodide=True):
    """The bench's results (bench/run.py's "recordings" section)."""
    recording = make_recording()
    steps = check(recording)
    out = {"block": f"{LESSON}/{BLOCK} ({PRESET})", "rounds": rounds, "steps": steps,
           "model_calls": ROUNDS, "goal": GOAL,
           "cpython": {"python": sys.version.split()[0], **cpython(recording, rounds, steps)}}
    if with_pyodide:
        out["pyodide"] = pyodide(recording, rounds, steps)
    return out


def rows(result: dict | None) -> list[tuple[str, str, str, str]]:
    """(measure, value, target, verdict) rows of docs/performance.md."""
    if not result:
        return []
    out = []
    for key, where in (("cpython", "CPython"), ("pyodide", "the worker's Pyodide")):
        data = result.get(key)
        if not data:
            continue
        scripted, replayed = data["scripted"], data["replayed"]
        ratio = replayed["ratio"]["median"]
        fastest = replayed["ratio_of_fastest"]
        out.append((f"a recorded run replayed vs the same run scripted, {result['model_calls']} "
                    f"model calls, {result['steps']} steps ({where} {data['python']}; "
                    f"n={replayed['ratio']['n']} pairs)",
                    f"{replayed['steps_per_s']:,} vs {scripted['steps_per_s']:,} steps/s = "
                    f"**{ratio:.2f}×** (fastest runs {fastest:.2f}×)",
                    f"≤ {GOAL}× (median)", "met" if ratio <= GOAL else "**not met**"))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-pyodide", action="store_true")
    args = parser.parse_args(argv)
    print(json.dumps(section(args.rounds, not args.no_pyodide), indent=2))


if __name__ == "__main__":
    main()
