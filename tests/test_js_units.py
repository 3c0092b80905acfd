"""The page's pure JS modules (stepping, replay) have node tests; run them here."""
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_node_unit_tests_pass():
    node = shutil.which("node")
    assert node, "node is required to run tests/js (the page's stepping and replay tests)"
    result = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
