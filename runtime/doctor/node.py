"""The doctor's run in the page's Python: the vendored Pyodide under Node (pyodide.mjs),
when ``node`` is on PATH. Different Pythons may step a line differently (docs/design.md),
so the page's run is held to the CLI's by what it printed and sent, not by its steps,
unless both are the same Python version."""

import functools
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from .compare import first_difference

HERE = Path(__file__).parent
TIMEOUT = 300


def _pyodide_dir():
    from loopstep.web import assets
    return assets.PYODIDE_DIR


def _runtime_files():
    from loopstep.web import bundles
    return {rel: str(bundles.RUNTIME_DIR / rel) for rel in bundles.runtime_modules()}


@functools.cache
def stack_switching(node):
    """The options with which this Node can suspend a WebAssembly stack (a run of threads
    needs it, as in the page: runtime/world/stacks.py), or () when it cannot."""
    probe = "process.exit('Suspending' in WebAssembly || 'Suspender' in WebAssembly ? 0 : 1)"
    for options in ((), ("--experimental-wasm-jspi",), ("--experimental-wasm-stack-switching",)):
        done = subprocess.run([node, *options, "-e", probe], capture_output=True, timeout=60)
        if done.returncode == 0:
            return options
    return ()


def run(lesson, block, scenario):
    """The page's trace of the run, or a text saying why there is none (the page's Python
    has string-hash seed 0, whatever the lesson pins: runtime/world/hashing.py)."""
    node = shutil.which("node")
    if node is None:
        return "node is not on PATH"
    index = _pyodide_dir()
    if not (index / "pyodide.mjs").is_file():
        return f"no vendored Pyodide at {index}"
    job = {"indexURL": str(index), "hashSeed": 0, "runtime": _runtime_files(),
           "lessons": {rel: str(path) for rel, path in lesson.files.items()},
           "lesson": lesson.id, "block": block, "scenario": scenario}
    with tempfile.TemporaryDirectory(prefix="loopstep-doctor-") as folder:
        job_path = Path(folder) / "job.json"
        job_path.write_text(json.dumps(job), "utf-8")
        done = subprocess.run([node, *stack_switching(node), str(HERE / "pyodide.mjs"),
                               str(job_path)], capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        return f"Pyodide under Node failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
    found = json.loads(done.stdout)
    return found.get("trace") or f"the page's Python: {found.get('error')}"


def compare(lesson, block, scenario, cli_trace, rows):
    """(None when the page's run is the CLI's, else a difference (compare.py) or the reason
    it was not checked; the page's Python version or None)."""
    page = run(lesson, block, scenario)
    if isinstance(page, str):
        return page, None
    python = page.get("python", "")
    if python.split(".")[:2] != cli_trace.get("python", "").split(".")[:2]:
        page, cli_trace = _without_steps(page), _without_steps(cli_trace)
    return first_difference(cli_trace, page, rows), python


# where an agent part names steps (agent/capture.py): what another Python may number otherwise
_STEP_KEYS = {"calls": ("step", "ret"), "tools": ("step", "ret"), "in_flight": ("step",)}


def _without_steps(trace):
    """The trace without what names its steps: its steps and stacks, and the step numbers
    of its model calls and tool runs (the same calls, made at other steps)."""
    found = {key: value for key, value in trace.items() if key not in ("steps", "stacks")}
    agent = found.get("agent")
    if isinstance(agent, dict):
        agent = {key: value for key, value in agent.items() if key != "added"}
        for key, steps in _STEP_KEYS.items():
            if isinstance(agent.get(key), list):
                agent[key] = [{k: v for k, v in entry.items() if k not in steps}
                              if isinstance(entry, dict) else entry for entry in agent[key]]
        found["agent"] = agent
    return found
