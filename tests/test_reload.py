"""``loopstep serve --reload`` (web/reload.py): every lesson loaded on its own, a bad one's
error at its URL and on the console, an edit served without a restart (issue 36)."""
from __future__ import annotations

import io
import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

from fastapi.testclient import TestClient

from loopstep import server
from loopstep.web.reload import Reloading

FIXTURES = Path(__file__).parent / "browser" / "fixture_lessons"
REPO = Path(__file__).parent.parent
BAD_SETUP = "def model(messages):\n    return {'a': 1\n"
FIXED_SETUP = "def model(messages):\n    return 1\n\n\ndef run_tool(block):\n    return 1\n"


def lessons(tmp_path: Path) -> Path:
    """Two lessons: `runaway` (good) and `broken` (its setup does not parse)."""
    shutil.copytree(FIXTURES / "runaway", tmp_path / "runaway")
    shutil.copytree(FIXTURES / "runaway", tmp_path / "broken")
    toml = tmp_path / "broken" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8").replace("runaway/", "broken/"), "utf-8")
    (tmp_path / "broken" / "setup.py").write_text(BAD_SETUP, "utf-8")
    return tmp_path


def reloading(root: Path, console: io.StringIO) -> Reloading:
    return Reloading(lambda found, errors, generation: server.create_app(
        [root], lessons=found, errors=errors, generation=generation), [root], console)


def test_good_lessons_are_served_and_a_bad_ones_error_is_at_its_url_and_on_the_console(tmp_path):
    root, console = lessons(tmp_path), io.StringIO()
    client = TestClient(reloading(root, console))
    assert client.get("/lessons/runaway").status_code == 200
    page = client.get("/lessons/broken")
    assert page.status_code == 500
    assert f"{root / 'broken' / 'setup.py'}:2:12: SyntaxError: &#39;{{&#39; was never closed" \
        in page.text
    assert 'src="/static/js/page/reload.js"' in page.text
    said = console.getvalue()
    assert f"loopstep: lesson broken is not served (its page shows why): {root / 'broken' / 'setup.py'}:2:12" \
        in said
    assert "loopstep: generation 1: serving 1 lessons (runaway)" in said
    assert client.get("/api/reload").json()["generation"] == 1
    assert 'src="/static/js/page/reload.js"' in client.get("/lessons/runaway").text


def test_a_reload_serves_the_edit_and_the_fixed_lesson(tmp_path):
    root, console = lessons(tmp_path), io.StringIO()
    live = reloading(root, console)
    client = TestClient(live)
    toml = root / "runaway" / "lesson.toml"
    toml.write_text(toml.read_text("utf-8").replace("Runaway loops", "Edited loops"), "utf-8")
    (root / "broken" / "setup.py").write_text(FIXED_SETUP, "utf-8")
    live.reload()
    assert "Edited loops" in client.get("/lessons/runaway?lang=en").text
    assert client.get("/lessons/broken").status_code == 200
    assert client.get("/api/reload").json() == {"generation": 2, "errors": {}}


def test_without_reload_pages_do_not_poll_and_a_bad_lesson_stops_the_start(tmp_path):
    root = lessons(tmp_path)
    page = TestClient(server.create_app([FIXTURES])).get("/lessons/runaway").text
    assert "page/reload.js" not in page
    done = subprocess.run([sys.executable, "-m", "loopstep.server", "serve", "--lessons", str(root),
                           "--port", "1"], cwd=REPO.parent, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "setup.py:2:12: SyntaxError" in done.stderr


def test_serve_reload_picks_up_an_edit_without_a_restart(tmp_path):
    root = lessons(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                             "serve", "--reload", "--lessons", str(root), "--port", str(port)],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        def generation():
            with urlopen(f"http://127.0.0.1:{port}/api/reload", timeout=2) as answer:
                return json.load(answer)
        first = until(generation)
        assert list(first["errors"]) == ["broken"]
        (root / "broken" / "setup.py").write_text(FIXED_SETUP, "utf-8")
        fixed = until(lambda: (found := generation())["generation"] > first["generation"]
                      and not found["errors"] and found)
        assert fixed["errors"] == {}
    finally:
        proc.terminate()
        out = proc.communicate(timeout=30)[0]
    assert "loopstep: lesson broken is not served" in out
    assert "serving 2 lessons (broken, runaway)" in out


def until(probe, timeout=30.0):
    """The first true answer of ``probe`` (a subprocess's server: polled, not awaited)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = probe()
            if found:
                return found
        except OSError:
            pass
        assert time.monotonic() < deadline, "no answer in time"
        time.sleep(0.1)
