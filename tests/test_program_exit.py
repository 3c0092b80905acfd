"""A program that ends itself with sys.exit() ends as it does in CPython: no
traceback; a non-integer code is printed; only a failing code is the displayed
function's error."""

import importlib.util
from pathlib import Path

import pytest

from loopstep.runtime.recorder import record

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_oracle", HERE / "oracle.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)
CORPUS = HERE / "oracle_lessons"


@pytest.mark.parametrize("block, printed_last, message, error", [
    ("finish_early", "nothing more to do\n", None, None),
    ("quits", "stopping at 2\n", "SystemExit: stopping at 2",
     {"type": "SystemExit", "message": "stopping at 2", "line": 5}),
])
def test_sys_exit(block, printed_last, message, error):
    trace = record("programs", block, "normal", roots=[CORPUS])
    assert trace["status"] == "finished"
    assert trace["stdout"] == oracle.plain_run("programs", block, "normal", [CORPUS])
    assert trace["stdout"].endswith(printed_last) and "Traceback" not in trace["stdout"]
    assert (trace["message"], trace["error"]) == (message, error)
