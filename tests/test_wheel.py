"""A wheel install works outside the source tree: pages, lesson files, the bundled
Pyodide and the built outputs (the fast boot set, the precompiled recorder) are all
package data. The wheel's build runs `make build`'s build (setup.py); the installed wheel
serves everything with no Node anywhere on PATH."""
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from loopstep.web import assets

REPO = Path(__file__).resolve().parent.parent
CHECK = """
import hashlib, json, shutil, sys
from fastapi.testclient import TestClient
from loopstep import server
from loopstep.web import assets
assert not server.__file__.startswith(sys.argv[1]), server.__file__
assert shutil.which("node") is None, shutil.which("node")
client = TestClient(server.create_app())
boot = f"/vendor/{assets.BOOT_DIR.name}/"
for url in ["/", "/lessons/s06", "/embed/s06/child_tools", "/api/lessons",
            f"{assets.PYODIDE_URL}pyodide.asm.wasm", boot + "boot.json", boot + "empty.zip",
            boot + "python_stdlib.zip", "/static/js/page.js", "/static/embed.js",
            "/py/runtime/recorder.py", "/py/runtime/standins/shell.py", "/py/lessons/s06/core/runtime.py", "/py/lessons/s06/lesson.toml"]:
    assert client.get(url).status_code == 200, url
import re
script = re.search(r'<script type="module" src="(/static/js/bundle/page-\\w+\\.js)"', client.get("/lessons/s06").text)
assert script and client.get(script.group(1)).status_code == 200, "the page's bundle"
snapshot = client.get(boot + "snapshot.bin", headers={"accept-encoding": "identity"})
assert snapshot.status_code == 200, snapshot.status_code
compiled = client.get(f"/static/pyc/{assets.RUNTIME_PYC.name}", headers={"accept-encoding": "identity"})
assert compiled.status_code == 200, compiled.status_code
assert "snapshot.bin" in assets.boot_sizes() and assets.BOOT_VERSION
lessons = {lesson["id"] for lesson in client.get("/api/lessons").json()["lessons"]}
assert {"s06", "s01", "lcc-s06", "s06-recursive"} <= lessons, lessons
from loopstep.runtime.recorder import record
assert record("s06", "run_subagent", "limit")["stdout"] == "完成： call_limit\\n"
assert record("agent-whole", "run_bash", "dangerous")["stdout"].endswith("Error: Dangerous command blocked\\n")
print(json.dumps({"snapshot": hashlib.sha256(snapshot.content).hexdigest(),
                  "compiled": hashlib.sha256(compiled.content).hexdigest()}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO),
                    "-w", str(out)], check=True, capture_output=True, timeout=600)
    return next(out.glob("loopstep-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel):
    site = wheel.parent / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def installed_name(path: Path) -> str:
    """Where a file of the source tree is in the wheel: under the one package, `loopstep`."""
    return "loopstep/" + path.relative_to(REPO).as_posix()


def test_the_wheel_holds_the_built_outputs(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("boot.json", "snapshot.bin", "snapshot.bin.br", "python_stdlib.zip", "empty.zip",
                 "SHA256SUMS"):
        assert installed_name(assets.BOOT_DIR / name) in names, name
    assert installed_name(assets.RUNTIME_PYC) in names
    assert "loopstep/web/vendor/PYODIDE_VERSION" in names


def test_the_wheel_installs_one_package(wheel, installed, tmp_path):
    """Nothing but `loopstep` and its dist-info at the top of site-packages: the source
    tree's `web`, `runtime`, `stubs` and `server` are `loopstep.web`, … once installed."""
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"loopstep", next(t for t in tops if t.endswith(".dist-info"))}, tops
    for name in ("web", "runtime", "stubs", "server"):
        done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=tmp_path,
                              env={"PYTHONPATH": str(installed)}, capture_output=True, text=True)
        assert done.returncode == 1 and "ModuleNotFoundError" in done.stderr, (name, done.stderr)
    done = subprocess.run([sys.executable, "-m", "loopstep", "trace", "s06/run_subagent",
                           "--scenario", "limit"], cwd=tmp_path,
                          env={"PYTHONPATH": str(installed)}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "call_limit" in done.stdout, done.stderr[-2000:]


def test_wheel_serves_everything_from_outside_the_source_tree(installed, tmp_path):
    no_node = tmp_path / "bin"          # PATH: a folder without node (nor anything else)
    no_node.mkdir()
    done = subprocess.run([sys.executable, "-c", CHECK, str(REPO)], cwd=tmp_path,
                          env={"PYTHONPATH": str(installed), "PATH": str(no_node)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    served = json.loads(done.stdout.strip().splitlines()[-1])
    # the very files the build made in the source tree
    assert served["snapshot"] == hashlib.sha256((assets.BOOT_DIR / "snapshot.bin").read_bytes()).hexdigest()
    assert served["compiled"] == hashlib.sha256(assets.RUNTIME_PYC.read_bytes()).hexdigest()
