"""A wheel install works outside the source tree: pages, lesson files and the bundled
Pyodide are all package data."""
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CHECK = """
import json, sys
from fastapi.testclient import TestClient
import server
assert not server.__file__.startswith(sys.argv[1]), server.__file__
client = TestClient(server.create_app())
for url in ["/", "/lessons/s06", "/embed/s06/child_tools", "/api/lessons",
            "/vendor/pyodide-314.0.8/pyodide.asm.wasm", "/vendor/loopstep-boot-314.0.8/boot.json",
            "/static/js/page.js", "/static/embed.js", "/py/runtime/recorder.py",
            "/py/runtime/standins/shell.py",
            "/py/lessons/s06/core/runtime.py", "/py/lessons/s06/lesson.toml"]:
    assert client.get(url).status_code == 200, url
lessons = {lesson["id"] for lesson in client.get("/api/lessons").json()["lessons"]}
assert {"s06", "s01", "lcc-s06", "s06-recursive"} <= lessons, lessons
from runtime.recorder import record
assert record("s06", "run_subagent", "limit")["stdout"] == "完成： call_limit\\n"
assert record("agent-whole", "run_bash", "dangerous")["stdout"].endswith("Error: Dangerous command blocked\\n")
print("ok")
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO),
                    "-w", str(out)], check=True, capture_output=True, timeout=600)
    wheel = next(out.glob("loopstep-*.whl"))
    site = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def test_wheel_serves_everything_from_outside_the_source_tree(installed, tmp_path):
    done = subprocess.run([sys.executable, "-c", CHECK, str(REPO)], cwd=tmp_path,
                          env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok"
