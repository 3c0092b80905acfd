"""Run recordings inside the bundled Pyodide under Node (tests/node/record.mjs).

One Node process boots the vendored Pyodide once, writes the runtime and the
given lesson files where the browser worker writes them, records each run and
prints ``{"traces": […], "value": …}``. Shared by every test that compares the
in-browser Python with CPython.
"""

import json
import shutil
import subprocess
from pathlib import Path

from loopstep.web import assets, bundles

HERE = Path(__file__).parent
REPO = HERE.parent
INDEX = assets.PYODIDE_DIR


def record_in_pyodide(folder, lessons, runs, *, code=None, timeout=600, runtime_dir=None,
                      node_options=()):
    """Record ``runs`` (dicts for record.mjs) with ``lessons`` ({relative path: file});
    ``code``: Python evaluated once after the runs, its value returned as "value";
    ``runtime_dir``: the recorder's folder (default: runtime/), its modules as
    web/bundles.py lists them; ``node_options``: Node's own (a run with ``"suspending"``
    needs ``--experimental-wasm-stack-switching`` on Node 20)."""
    node = shutil.which("node")
    assert node, "Node.js (node) is required for the Pyodide tests and was not found"
    assert (INDEX / "pyodide.mjs").exists(), f"vendored Pyodide missing at {INDEX}"
    job = {"indexURL": str(INDEX),
           "runtime": {rel: str(Path(runtime_dir or bundles.RUNTIME_DIR) / rel)
                       for rel in bundles.runtime_modules(runtime_dir)},
           "lessons": lessons, "runs": runs}
    if code is not None:
        job["code"] = code
    job_path = Path(folder) / "job.json"
    job_path.write_text(json.dumps(job), "utf-8")
    done = subprocess.run([node, *node_options, str(HERE / "node" / "record.mjs"), str(job_path)],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)
