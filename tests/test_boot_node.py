"""The fast boot (web/static/js/boot/boot.js) works in Node, and falls back when it must.

Runs tests/node/boot_check.mjs: snapshot path records s06/run_subagent; a corrupt or
unrestorable snapshot falls back to the trimmed stdlib; a boot set for another wasm
falls back to the stock boot; the recorder the snapshot imported is kept only while the
served sources are the ones it came from. Node is required (the test fails without it).
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

from loopstep.runtime.trace import values
from loopstep.web import bundles

ROOT = Path(__file__).parent.parent


def test_boot_paths_in_node():
    node = shutil.which("node")
    assert node, "node (20+) is required to check the fast boot path"
    env = {**os.environ, "LOOPSTEP_RUNTIME_DIGEST": bundles.runtime_digest()}
    result = subprocess.run([node, str(ROOT / "tests" / "node" / "boot_check.mjs")], cwd=ROOT,
                            capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    checks = {row["check"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert checks["fast"]["path"] == "snapshot"
    assert checks["corrupt snapshot"]["path"] == "trimmed"
    assert checks["snapshot that does not restore"]["path"] == "trimmed"
    assert checks["other wasm"]["path"] == "stock"
    # the snapshot's recorder, and one changed after it was built (MAX_ITEMS = 7)
    assert checks["snapshot recorder"]["recorder"] == "snapshot"
    assert checks["snapshot recorder"]["maxItems"] == values.MAX_ITEMS
    assert checks["changed recorder"]["recorder"] == "files"
    assert checks["changed recorder"]["maxItems"] == 7 != values.MAX_ITEMS
