"""Several `loopstep trace` commands in one fresh process, one after another, as the CLI
runs each (its `main`, this process its own: the first command starts the whole batch
again with the lesson's string-hash seed when the process has another, world/hashing.py).

    python tests/cli_batch.py COMMANDS.json OUT.json

COMMANDS.json: a list of argument lists (``["trace", "LESSON/BLOCK", …]``); OUT.json gets
one ``{"code", "stdout", "stderr"}`` per command, in order. A batch shows what a fresh
process per command would, and more: each run leaves nothing behind for the next."""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def batch(commands, hash_seed=None):
    """Run ``commands`` in one fresh process started with string-hash seed ``hash_seed``
    (None: the environment's): their results, in order; a command that fails fails here."""
    env = dict(os.environ)
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    with tempfile.TemporaryDirectory() as folder:
        given, out = Path(folder) / "commands.json", Path(folder) / "out.json"
        given.write_text(json.dumps(commands), encoding="utf-8")
        done = subprocess.run([sys.executable, __file__, str(given), str(out)],
                              capture_output=True, text=True, timeout=600, env=env)
        assert done.returncode == 0, done.stderr
        results = json.loads(out.read_text(encoding="utf-8"))
    for argv, result in zip(commands, results, strict=True):
        assert result["code"] == 0, f"loopstep {' '.join(argv)}: {result['stderr']}"
    return results


def run_batch(commands):
    from loopstep.runtime.cli import main

    results = []
    for argv in commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv, own_process=True)
        results.append({"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()})
    return results


if __name__ == "__main__":
    commands_file, out_file = map(Path, sys.argv[1:3])
    commands = json.loads(commands_file.read_text(encoding="utf-8"))
    out_file.write_text(json.dumps(run_batch(commands), ensure_ascii=False), encoding="utf-8")
