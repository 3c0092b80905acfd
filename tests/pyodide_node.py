"""Run recordings inside the bundled Pyodide under Node (tests/node/record.mjs).

A Node process boots the vendored Pyodide once and serves the jobs of the whole test
process (one such process per set of Node options): for each job it starts from a clean
folder and no module of an earlier job, writes the runtime and the given lesson files
where the browser worker writes them, records each run and answers
``{"traces": […], "value": …}``. Shared by every test that compares the in-browser
Python with CPython.
"""

import atexit
import json
import os
import shutil
import subprocess
import tempfile
import threading
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
    session = _session(node, tuple(node_options))
    result = session.ask(job_path, timeout)
    if "error" in result:
        session.close()   # the next job boots a Pyodide of its own
        raise AssertionError(result["error"][-4000:])
    return result


class _Session:
    """`node record.mjs --serve`: one booted Pyodide, a job at a time."""

    def __init__(self, node, node_options):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [node, *node_options, str(HERE / "node" / "record.mjs"), "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
            env={**os.environ, "LOOPSTEP_PYODIDE_INDEX": str(INDEX)})

    def ask(self, job_path, timeout):
        self.proc.stdin.write(f"{job_path}\n")
        self.proc.stdin.flush()
        answer = []
        reader = threading.Thread(target=lambda: answer.append(self.proc.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(timeout)
        if not answer or not answer[0]:
            self.close()
            self.log.seek(0)
            raise AssertionError(f"the Pyodide under Node gave no answer within {timeout} s"
                                 f":\n{self.log.read()[-4000:]}")
        return json.loads(answer[0])

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        if self.alive():
            self.proc.kill()
        self.proc.wait()


_SESSIONS: dict = {}


def _session(node, node_options):
    session = _SESSIONS.get(node_options)
    if session is None or not session.alive():
        session = _SESSIONS[node_options] = _Session(node, node_options)
    return session


@atexit.register
def _close_sessions():
    for session in _SESSIONS.values():
        session.close()
