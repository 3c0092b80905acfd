"""The world of ``loopstep trace`` runs (runtime/world/): two runs of a program in fresh
processes print the same, a set of strings' order included (every CLI run starts with one
string-hash seed, world/hashing.py), a lesson's pinned seed is the one its run has, and
the program works in ``/tmp/loopstep-run`` itself (world/folder.py)."""

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest
import world_lesson

from loopstep.runtime.recorder import record
from loopstep.runtime.world import folder

LOOPSTEP = Path(sys.executable).parent / "loopstep"
CODE = '''import os
import random
import time
import uuid
from datetime import datetime


def main():
    names = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
    print(sorted(names) != list(names) or "sorted")
    print(list(names), hash("loopstep") & 0xff)
    print(f"transcript_{int(time.time())}.jsonl", datetime.now().isoformat(), uuid.uuid4())
    time.sleep(5)
    print(round(time.monotonic(), 3), random.random(), os.getcwd(), len(os.getcwd()))
    print(os.getcwd()[::-1])   # the real path: the trace shows no other as the run's folder
'''


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("world_cli")
    world_lesson.write(folder, "agent", CODE, entry="main()", extra="[standins]\n")
    world_lesson.write(folder, "pinned", CODE, entry="main()",
                       extra="[standins]\n[world]\nhash_seed = 123\n")
    return folder


def trace(root, target, env=None):
    done = subprocess.run([str(LOOPSTEP), "trace", target, "--lessons", str(root)],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_two_cli_runs_print_the_same_set_order_clock_ids_and_randomness(root):
    first = trace(root, "agent/main", {"PYTHONHASHSEED": "random"})
    second = trace(root, "agent/main", {"PYTHONHASHSEED": "987"})
    assert first == second
    assert "transcript_1767258000.jsonl" in first and "2026-01-01T09:00:00.001000" in first
    assert "/tmp/loopstep-run" in first


def test_the_cli_starts_with_seed_0_unless_the_lesson_pins_one(root):
    probe = "import sys\nprint(hash('loopstep') & 0xff)\n"
    for seed in (0, 123):
        expected = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                  env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout.strip()
        printed = trace(root, "pinned/main" if seed else "agent/main").split("\nstdout:\n")[1]
        assert printed.splitlines()[1].endswith(f"] {expected}")


def test_a_program_sees_the_run_folder_itself_or_a_folder_shown_as_it(root):
    for _ in range(20):   # another process (a test worker) may hold the folder a moment
        out = record("agent", "main", "normal", roots=[root])["stdout"]
        if out.endswith("/tmp/loopstep-run 17\nnur-petspool/pmt/\n"):
            break
    else:
        pytest.fail(f"the run never had {folder.SHOWN} itself: {out}")
    handle = os.open(folder.LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)   # as another process's run would
        taken = record("agent", "main", "normal", roots=[root])["stdout"]
    finally:
        os.close(handle)
    assert taken.splitlines()[:-1] == out.splitlines()[:-1]   # shown as the run's folder
    assert taken.splitlines()[-1] != out.splitlines()[-1]     # while it was another
