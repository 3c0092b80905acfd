"""Measurements outside the browser for bench/run.py: CPython overhead, load run, machine."""
from __future__ import annotations

import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
LESSONS = HERE / "lessons"


def summary(values: list[float]) -> dict:
    values = [v for v in values if v is not None]
    if not values:
        return {"median": None, "min": None, "max": None, "n": 0}
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "n": len(values)}


def cpython_overhead(max_steps: int, rounds: int) -> dict:
    """The benchmark block recorded vs run untraced, in this CPython."""
    sys.path.insert(0, str(ROOT))
    from loopstep.runtime.catalog.lessons import load_lesson
    from loopstep.runtime.recorder import record_packed

    spec = load_lesson("million", [LESSONS])
    block = spec.blocks[0]
    recorded, plain, steps = [], [], 0
    for _ in range(rounds):
        t0 = time.perf_counter()
        text = record_packed("million", block.id, "normal", roots=[LESSONS],
                             max_steps=max_steps)
        recorded.append(time.perf_counter() - t0)
        steps = json.loads(text)["count"]
        codes = [compile(p.text, p.path, "exec", dont_inherit=True)
                 for p in spec.programs(block.id, "normal")]
        namespace = {"__name__": "__main__"}
        with redirect_stdout(io.StringIO()):
            for code in codes[:-1]:
                exec(code, namespace)
            t0 = time.perf_counter()
            exec(codes[-1], namespace)
            plain.append(time.perf_counter() - t0)
        del text
    full_steps = 3 * 333_333 + 5
    # untraced time for the same number of statements as were recorded
    scale = min(1.0, steps / full_steps)
    return {"python": platform.python_version(), "steps": steps,
            "record_s": summary(recorded), "untraced_s": summary([p * scale for p in plain]),
            "steps_per_s": summary([steps / r for r in recorded]),
            "overhead": summary([r / (p * scale) for r, p in zip(recorded, plain)])}


def wrk_path() -> str:
    """LOOPSTEP_WRK or `wrk` on PATH (`make bench` installs it: scripts/ensure_wrk.sh)."""
    wrk = os.environ.get("LOOPSTEP_WRK") or shutil.which("wrk")
    if not wrk or not os.access(wrk, os.X_OK):
        raise SystemExit("the load run needs wrk: run `make bench` (scripts/ensure_wrk.sh "
                         "installs it as root on Debian) or set LOOPSTEP_WRK")
    return wrk


def load_run(port: int, paths: list[str], seconds: int, connections: int = 100) -> dict:
    """`wrk` with `connections` connections for `seconds` on 127.0.0.1, rotating over paths."""
    wrk = wrk_path()
    env = dict(os.environ, LOOPSTEP_PATHS=",".join(paths))
    cmd = [wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
           "-s", str(HERE / "wrk.lua"), f"http://127.0.0.1:{port}"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds + 60)
    line = next((row for row in out.stdout.splitlines() if row.startswith("JSON")), None)
    if line is None:
        return {"status": "failed", "output": out.stdout[-2000:] + out.stderr[-2000:]}
    data = json.loads(line[4:])
    errors = sum(data[k] for k in ("connect", "read", "write", "status", "timeout"))
    seconds_run = data["duration_us"] / 1e6
    return {"status": "ok", "tool": "wrk 4.1", "connections": connections,
            "seconds": round(seconds_run, 1), "paths": paths, "requests": data["requests"],
            "requests_per_s": round(data["requests"] / seconds_run, 1),
            "megabytes": round(data["bytes"] / 1e6, 1), "errors": errors,
            "error_detail": {k: data[k] for k in ("connect", "read", "write", "status",
                                                  "timeout")},
            "p50_ms": data["p50_us"] / 1000, "p90_ms": data["p90_us"] / 1000,
            "p99_ms": data["p99_us"] / 1000, "max_ms": data["max_us"] / 1000}


def machine(chromium: str) -> dict:
    sys.path.insert(0, str(ROOT))
    from loopstep.web import assets

    def run(*cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
        except OSError:
            return None
    mem_kb = next((int(row.split()[1]) for row in Path("/proc/meminfo").read_text().splitlines()
                   if row.startswith("MemTotal")), 0)
    cpu = next((row.split(":", 1)[1].strip() for row in Path("/proc/cpuinfo").read_text()
                .splitlines() if row.startswith("model name")), platform.processor())
    chromium_version = run(chromium, "--version")
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory_gb": round(mem_kb / 1024 / 1024, 1),
            "os": platform.platform(), "chromium": (chromium_version or "").splitlines()[0]
            if chromium_version else None,
            "python": platform.python_version(), "node": run("node", "--version"),
            "pyodide": f"{assets.PYODIDE_VERSION} (CPython {assets.PYODIDE_PYTHON})"}


def align_bench(rounds: int) -> dict:
    """bench/align.mjs: two 10,000-step runs aligned, against the O(N·M) LCS table."""
    node = shutil.which("node")
    if not node:
        return {"reason": "node not found"}
    done = subprocess.run([node, str(Path(__file__).parent / "align.mjs"), str(rounds)],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def step_caps(rounds: int) -> dict:
    """bench/lessons/caps in this CPython: how soon the recorder's caps stop a loop that
    never ends, beside a finished run of about as many steps, alternating."""
    sys.path.insert(0, str(ROOT))
    from loopstep.runtime.recorder import record

    cap = 5_000
    times = {"spin": [], "one_line": [], "count_up": []}
    outcome = {}
    for _ in range(rounds):
        for symbol in times:
            t0 = time.perf_counter()
            trace = record("caps", symbol, "normal", roots=[LESSONS], max_steps=cap)
            times[symbol].append(time.perf_counter() - t0)
            outcome[symbol] = {"status": trace["status"], "steps": len(trace["steps"]),
                               "message": trace.get("message")}
    base = times["count_up"]
    return {"python": platform.python_version(), "max_steps": cap, "outcome": outcome,
            "seconds": {k: summary(v) for k, v in times.items()},
            "ratio": {k: summary([a / b for a, b in zip(times[k], base)])
                      for k in ("spin", "one_line")}}


def _node_bench(script: str, count: int) -> dict:
    """The JSON a Node bench script of this folder prints, given a count."""
    node = shutil.which("node")
    if not node:
        return {"reason": "node not found"}
    done = subprocess.run([node, str(HERE / script), str(count)],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def origin_moves(moves: int) -> dict:
    """bench/origins.mjs: message origins and the boundary per cursor move, 201 messages."""
    return _node_bench("origins.mjs", moves)


def replay_jumps(rounds: int) -> dict:
    """bench/replay_jump.mjs: jumps into a million-step trace vs rebuilding from step 0."""
    return _node_bench("replay_jump.mjs", rounds)
