"""A lesson's files stay in its lessons folder and its preset recordings are recordings,
checked when the lesson loads (runtime/catalog/files.py); what the pages show of its
sources is worked out once per load, never per request."""

import ast
import json
import os
import subprocess
import sys
import symtable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from catalog_fixture import PRESETS, make
from loopstep import server
from loopstep.runtime.catalog.lessons import LessonError, load_lessons, load_lessons_each
from loopstep.runtime.recording import format as recording_format

REPO = Path(__file__).resolve().parent.parent
SECRET = "password = 'hunter2'\n"


def outside(tmp_path, name="secret.py", text=SECRET):
    """A file beside the lessons root, outside it."""
    path = tmp_path / "elsewhere" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def link(path, target):
    path.unlink(missing_ok=True)
    os.symlink(target, path)


def load_error(root):
    with pytest.raises(LessonError) as caught:
        load_lessons([root])
    return str(caught.value)


def run_cli(*args):
    return subprocess.run([sys.executable, "-c", "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                           *args], cwd=REPO, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name,key", [("setup.py", "[setup]"), ("code.py", "[modules]")])
def test_a_file_linked_out_of_the_root_stops_the_lesson(tmp_path, name, key):
    root = make(tmp_path / "root")[0]
    secret = outside(tmp_path, text=SECRET + "def f():\n    return n\n")
    link(root / "x" / name, secret)
    message = load_error(root)
    assert message.startswith(f"{root / 'x' / 'lesson.toml'} {key}: 'x/{name}' leaves the "
                              f"lessons folder {root} through a symlink"), message
    assert f"it leads to {secret.resolve()}" in message


def test_a_link_through_a_linked_folder_counts_too(tmp_path):
    root = make(tmp_path / "root")[0]
    elsewhere = outside(tmp_path).parent
    (elsewhere / "code.py").write_text((root / "x" / "code.py").read_text())
    os.symlink(elsewhere, root / "x" / "lib")
    toml = root / "x" / "lesson.toml"
    toml.write_text(toml.read_text().replace('"x/code.py"', '"x/lib/code.py"'))
    assert "'x/lib/code.py' leaves the lessons folder" in load_error(root)


def test_a_lesson_folder_linked_from_elsewhere_stops_at_its_lesson_toml(tmp_path):
    make(tmp_path / "elsewhere")
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(tmp_path / "elsewhere" / "x", root / "x")
    message = load_error(root)
    assert message.startswith(f"{root / 'x' / 'lesson.toml'}: 'x/lesson.toml' leaves the "
                              "lessons folder"), message


def test_a_preset_recording_linked_out_of_the_root_stops_the_lesson(tmp_path):
    root = make(tmp_path / "root", **{"lesson.toml": [(PRESETS, PRESETS + 'recording = "x/run.json"\n')]})[0]
    recording = recording_format.new("x", "f", "normal", "anthropic", "m", None, "/w")
    link(root / "x" / "run.json", outside(tmp_path, "run.json", json.dumps(recording)))
    assert " (preset normal) [recording]: 'x/run.json' leaves the lessons folder " in load_error(root)


def test_links_inside_the_root_are_followed(tmp_path):
    root = make(tmp_path / "root")[0]
    (root / "common").mkdir()
    (root / "x" / "setup.py").rename(root / "common" / "setup.py")
    link(root / "x" / "setup.py", root / "common" / "setup.py")
    client = TestClient(server.create_app([root]))
    assert client.get("/py/lessons/x/setup.py").text == "n = 1\n"


def test_export_and_serve_refuse_a_linked_file_and_copy_nothing(tmp_path):
    root = make(tmp_path / "root")[0]
    link(root / "x" / "setup.py", outside(tmp_path, text="n = 1  # " + SECRET))
    out = tmp_path / "site"
    for args in (["export", str(out)], ["serve", "--port", "9"]):
        result = run_cli(*args, "--lessons", str(root))
        assert result.returncode == 2, result.stderr
        assert "leaves the lessons folder" in result.stderr and result.stderr.count("\n") == 1
    assert not out.exists()


def test_under_reload_the_lesson_shows_its_error_and_its_files_are_not_served(tmp_path):
    root = make(tmp_path / "root")[0]
    link(root / "x" / "setup.py", outside(tmp_path, text="n = 1  # " + SECRET))
    lessons, errors = load_lessons_each([root])
    assert lessons == {} and "leaves the lessons folder" in errors["x"]
    client = TestClient(server.create_app([root], lessons=lessons, errors=errors, generation=1))
    page = client.get("/lessons/x")
    assert page.status_code == 500 and "leaves the lessons folder" in page.text
    for path in ("/py/lessons/x/setup.py", "/py/bundles/lessons/x.bin"):
        response = client.get(path)
        assert response.status_code == 404 and "hunter2" not in response.text


def with_recording(tmp_path, text):
    root = make(tmp_path / "root", **{"lesson.toml": [(PRESETS, PRESETS + 'recording = "x/run.json"\n')]})[0]
    (root / "x" / "run.json").write_text(text, "utf-8")
    return root


def test_a_preset_recording_is_checked_when_the_lesson_loads(tmp_path):
    recording = recording_format.new("x", "f", "normal", "anthropic", "m", None, "/w")
    recording["calls"].append({"request": {"model": "m", "messages": []},
                               "response": {"content": []}, "seconds": "slow", "tools": []})
    root = with_recording(tmp_path, json.dumps(recording))
    path = root / "x" / "run.json"
    assert load_error(root) == (f"{root / 'x' / 'lesson.toml'} (preset normal) [recording]: "
                                f'{path}: $.calls[0].seconds: must be number, not "slow"')
    path.write_text('{"calls": [')
    assert f"[recording]: {path}: $: not JSON" in load_error(root)
    path.write_text('{"calls": []}')
    assert f"[recording]: {path}: $.format: not a loopstep recording" in load_error(root)
    recording["calls"][0]["seconds"] = 0.5
    path.write_text(json.dumps(recording))
    lesson = load_lessons([root])["x"]
    assert lesson.preset("normal").recording == "x/run.json" and lesson.files["x/run.json"] == path


def test_pages_parse_no_source_per_request(monkeypatch):
    client = TestClient(server.create_app())

    def refused(*args, **kwargs):
        raise AssertionError("a source parsed while answering a request")

    monkeypatch.setattr(ast, "parse", refused)
    monkeypatch.setattr(symtable, "symtable", refused)
    for path in ("/lessons/agent-whole", "/lessons/s06", "/embed/agent-whole/agent_loop/"):
        assert client.get(path).status_code == 200, path


def test_shown_names_are_worked_out_once_per_load():
    lesson = load_lessons()["agent-whole"]
    block = lesson.blocks[0]
    first = lesson.shown_names(block.id)
    assert lesson.shown_names(block.id) is first
    assert load_lessons()["agent-whole"].shown_names(block.id) is not first   # a new load
