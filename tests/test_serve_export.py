"""`loopstep serve` and `loopstep export`: broken lessons refuse to serve, new lesson
folders need no code change, and the export writes a static site."""
import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from loopstep import server
from loopstep.runtime.catalog import lessons as catalog
from loopstep.runtime.recorder import DEFAULT_MAX_STEPS
from loopstep.web import assets
from loopstep.web.export import export_site
from tiny_lesson import SOURCE as TINY_SOURCE, TOML as TINY_TOML, make_lesson

VENDORED = f"vendor/{assets.PYODIDE_DIR.name}"

REPO = Path(__file__).resolve().parent.parent


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                           *args], cwd=REPO, capture_output=True, text=True, timeout=60)


def test_a_new_lesson_folder_is_served_without_code_changes(tmp_path):
    client = TestClient(server.create_app([make_lesson(tmp_path)]))
    assert [lesson["id"] for lesson in client.get("/api/lessons").json()["lessons"]] == ["tiny"]
    page = client.get("/lessons/tiny")
    assert page.status_code == 200 and 'data-loopstep-block="tiny/double"' in page.text
    assert client.get("/py/lessons/tiny/code.py").text == TINY_SOURCE
    assert client.get("/lessons/s06").status_code == 404


@pytest.mark.parametrize("toml,source,where,reason", [
    (TINY_TOML.replace('symbol = "double"', 'symbol = "triple"'), TINY_SOURCE,
     "tiny/code.py: ", "no top-level function 'triple'"),
    (TINY_TOML.replace('presets = ["small", "large"]', 'presets = ["huge"]'), TINY_SOURCE,
     "tiny/lesson.toml (block double) [presets]: ", "unknown preset 'huge'"),
    (TINY_TOML.replace("to = 3", "to = 9"), TINY_SOURCE,
     "tiny/lesson.toml (stage double) [lines]: ", "outside block double"),
    (TINY_TOML.replace('"tiny/code.py"]', '"tiny/gone.py"]'), TINY_SOURCE,
     "tiny/lesson.toml [modules]: ", "'tiny/gone.py' not found"),
    (TINY_TOML.replace('setup = "tiny/setup.py"', 'setup = "../secret.py"'), TINY_SOURCE,
     "tiny/lesson.toml [setup]: ", "without '..'"),
])
def test_broken_lessons_stop_the_server_with_file_and_reason(tmp_path, toml, source, where, reason):
    root = make_lesson(tmp_path, toml, source)
    result = run_cli("serve", "--port", "9", "--lessons", str(root))
    assert result.returncode == 2
    assert result.stderr.startswith("loopstep: ") and where in result.stderr, result.stderr
    assert reason in result.stderr, result.stderr


def test_export_writes_a_static_site(tmp_path):
    out = tmp_path / "site"
    result = run_cli("export", str(out))
    assert result.returncode == 0, result.stderr
    for rel in ("index.html", "en/index.html", "lessons/s06/index.html", "lessons/s06/en/index.html",
                "embed/s06/run_subagent/index.html", "api/lessons.json", "api/lessons/s06.json",
                "api/lessons/s06/blocks/task_result/presets/long.json",
                f"{VENDORED}/pyodide.asm.wasm", f"{VENDORED}/pyodide.asm.wasm.br",
                "py/runtime/recorder.py", "py/lessons/s06/core/runtime.py", "py/lessons/s06/lesson.toml"):
        assert (out / rel).is_file(), rel
    page = (out / "lessons/s06/index.html").read_text()
    sheet = re.search(r'<link rel="stylesheet" href="../../(static/js/bundle/page-\w+\.css)"', page)
    assert sheet and (out / sheet.group(1)).is_file()
    assert f'"indexURL": "../../{VENDORED}/"' in page or f'"indexURL":"../../{VENDORED}/"' in page
    # the page's modules in one file, named by its digest; the server's manifest stays behind
    script = re.search(r'<script type="module" src="../../(static/js/bundle/page-\w+\.js)"', page)
    assert script and (out / script.group(1)).is_file() and (out / f"{script.group(1)}.gz").is_file()
    assert not (out / "static/js/bundle/manifest.json").exists()
    # each page has a .gz copy a host may send as it is
    assert gzip.decompress((out / "lessons/s06/index.html.gz").read_bytes()).decode() == page
    # every page carries the app's policy, on a host that sends none too; the shipped nginx
    # config sends the same
    pages = sorted(out.rglob("index.html"))
    assert len(pages) > 20 and all(meta_policy(p.read_text()) == server.content_security_policy(None)
                                   for p in pages)
    assert not (out / "nginx-csp.conf").exists()
    shutil.rmtree(out)


def meta_policy(html: str) -> str | None:
    found = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert len(found) <= 1
    return found[0].replace("&#39;", "'") if found else None


def test_export_frame_ancestors_go_to_the_nginx_line_not_the_pages(tmp_path):
    """A meta policy cannot say who may frame a page (browsers ignore frame-ancestors
    there): the pages keep the app's policy; nginx-csp.conf's header adds the origins."""
    out = tmp_path / "site"
    result = run_cli("export", str(out), "--frame-ancestors", "https://a.example",
                     "--frame-ancestors", "https://b.example 'self'")
    assert result.returncode == 0, result.stderr
    for page in out.rglob("index.html"):
        assert meta_policy(page.read_text()) == server.content_security_policy(None), page
    framed = server.content_security_policy("https://a.example https://b.example 'self'")
    assert framed.endswith("; frame-ancestors https://a.example https://b.example 'self'")
    assert f'add_header Content-Security-Policy "{framed}" always;' in \
        (out / "nginx-csp.conf").read_text().splitlines()
    guest = server.guest_policy("https://a.example https://b.example 'self'")
    assert f'#   add_header Content-Security-Policy "{guest}" always;' in \
        (out / "nginx-csp.conf").read_text().splitlines()


@pytest.mark.parametrize("command", ["export", "serve"])
def test_a_frame_ancestor_that_is_no_origin_is_refused(tmp_path, command):
    target = [str(tmp_path / "out")] if command == "export" else ["--port", "9"]
    result = run_cli(command, *target, "--frame-ancestors", "https://a.example; script-src *")
    assert result.returncode == 2
    assert "argument --frame-ancestors: 'https://a.example;' is not an origin" in result.stderr
    assert not (tmp_path / "out").exists()


def runtime_island(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="loopstep-runtime">(.*?)</script>', html)
    assert found, "no runtime data island"
    return json.loads(found.group(1))["runtime"]


def test_one_step_cap_default_for_the_page_and_the_cli(tmp_path):
    """The page records at most DEFAULT_MAX_STEPS unless `serve --max-steps` says
    otherwise, on the server and in the export; both commands' help states it."""
    page = TestClient(server.create_app()).get("/lessons/s06").text
    assert runtime_island(page)["maxSteps"] == DEFAULT_MAX_STEPS == 10_000   # issue 36: low enough
    # that a runaway loop ends in seconds
    limited = TestClient(server.create_app(limits={"maxSteps": 500})).get("/lessons/s06").text
    assert runtime_island(limited)["maxSteps"] == 500
    export_site(tmp_path, catalog.load_lessons())
    exported = (tmp_path / "lessons/s06/index.html").read_text("utf-8")
    assert runtime_island(exported)["maxSteps"] == DEFAULT_MAX_STEPS
    serve_help = run_cli("serve", "--help").stdout
    trace_help = run_cli("trace", "--help").stdout
    for text in (serve_help, trace_help):
        assert "(default 10,000)" in " ".join(text.split()), text
