"""Forks: a fork's run vs a custom-setup run of the same block, side by side in one run.

    python bench/forks.py [--rounds N] [--no-pyodide]

Both runs use the same setup text as scenario "custom"; the fork answers its call with
exactly what the setup's stub would have answered, so both runs take the same steps and
the difference is the fork's own cost: in bench/lessons/agent ("hundred": 100 model calls,
99 tool calls) every call of the forked kind goes through the fork's dispatcher
(runtime/questions/forks.py). Pairs alternate (custom, fork, custom, fork …); the ratio is the
median of the pairs' fork/custom times. In this CPython (settrace) and in the vendored
Pyodide under Node (sys.monitoring, the worker's Python; tests/pyodide_node.py).
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
from loopstep.runtime.catalog.lessons import CUSTOM, load_lessons  # noqa: E402
from loopstep.runtime.recorder import record  # noqa: E402

ROOTS = [str(HERE / "lessons")]
LESSON, BLOCK, PRESET = "agent", "run_agent", "hundred"
FORKS = {
    "model:1": {"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "call_0", "name": "read_file", "input": {"path": "file_0.txt"}}]},
    "tool:1": {"type": "tool_result", "tool_use_id": "call_0", "content": "contents of file_0.txt"},
}


def jobs(setup):
    plain = {"lesson": LESSON, "block": BLOCK, "scenario": CUSTOM, "setup": setup}
    return {"custom": plain, **{call: {**plain, "fork": {"call": call, "value": value}}
                                for call, value in FORKS.items()}}


def _ratios(times):
    """Per run: its times; per fork: the median of the pairs' ratios and the ratio of the
    fastest times (the least disturbed by other work on the machine)."""
    base = times["custom"]
    out = {}
    for name, values in times.items():
        out[name] = {"seconds": measures.summary(values)}
        if name != "custom":
            out[name]["ratio"] = measures.summary([f / c for f, c in zip(values, base)])
            out[name]["ratio_of_fastest"] = min(values) / min(base)
    return out


def check(setup):
    """The fork's run takes the custom run's steps (else the comparison is not fair)."""
    runs = {name: record(j["lesson"], j["block"], j["scenario"], roots=ROOTS, setup=j["setup"],
                         fork=j.get("fork")) for name, j in jobs(setup).items()}
    for name, trace in runs.items():
        assert trace["steps"] == runs["custom"]["steps"], name
        assert name == "custom" or trace["fork"]["applied"], name


def cpython(setup, rounds):
    times = {name: [] for name in jobs(setup)}
    for _ in range(rounds):
        for name, job in jobs(setup).items():
            started = time.perf_counter()
            record(job["lesson"], job["block"], job["scenario"], roots=ROOTS, setup=job["setup"],
                   fork=job.get("fork"))
            times[name].append(time.perf_counter() - started)
    return _ratios(times)


def pyodide(setup, rounds):
    from pyodide_node import record_in_pyodide
    files = {rel: str(path) for rel, path in load_lessons(ROOTS)[LESSON].files.items()}
    order = list(jobs(setup).items()) * (rounds + 1)     # the first round warms up
    with tempfile.TemporaryDirectory() as folder:
        result = record_in_pyodide(folder, files, [job for _, job in order])
    times = {name: [] for name in jobs(setup)}
    width = len(jobs(setup))
    for (name, _), ms in list(zip(order, result["timings"]))[width:]:
        times[name].append(ms / 1000)
    return {"python": result["python"], **_ratios(times)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-pyodide", action="store_true")
    args = parser.parse_args(argv)
    setup = load_lessons(ROOTS)[LESSON].setup_text(PRESET)
    check(setup)
    out = {"block": f"{LESSON}/{BLOCK} ({PRESET}, custom setup)", "rounds": args.rounds,
           "cpython": {"python": sys.version.split()[0], **cpython(setup, args.rounds)}}
    if not args.no_pyodide:
        out["pyodide"] = pyodide(setup, args.rounds)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
