"""The page's Python sources travel as bundles (web/bundles.py): what the app and the export
serve are the current files, and the worker's reader (web/static/js/boot/pyc-bundle.js) reads
what Python packs."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from loopstep import server
from loopstep.runtime.catalog import lessons as catalog
from loopstep.web import assets, bundles
from loopstep.web.export import export_site
from pyodide_node import record_in_pyodide
from tiny_lesson import make_lesson

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    return TestClient(server.create_app())


def island(client, path: str) -> dict:
    html = client.get(path).text
    start = html.index('id="loopstep-runtime">') + len('id="loopstep-runtime">')
    return json.loads(html[start:html.index("</script>", start)])


def test_pack_and_unpack_round_trip():
    files = {"pkg/a.py": b"x = 1\n", "lessons/s/b.toml": "名 = 1\n".encode(), "empty": b""}
    data = bundles.pack(files)
    assert data.startswith(bundles.MAGIC)
    assert bundles.unpack(data) == files
    with pytest.raises(ValueError):
        bundles.unpack(data[:-1])
    with pytest.raises(ValueError):
        bundles.unpack(b"PK\x03\x04" + data)


def test_the_lesson_page_names_two_bundles_of_the_current_sources(client):
    """The lesson's files, fetched on every boot; the recorder's, with the digest that tells
    the worker whether the snapshot's recorder is the one served (then never fetched)."""
    python = island(client, "/lessons/s06")["python"]
    assert python["bundles"] == ["/py/bundles/lessons/s06.bin"]
    assert python["runtime"]["bundle"] == "/py/bundles/runtime.bin"
    runtime = bundles.unpack(client.get(python["runtime"]["bundle"]).content)
    assert runtime == bundles.runtime_files()
    assert python["runtime"]["digest"] == assets.files_digest(runtime) == bundles.runtime_digest()
    assert runtime["runtime/recorder.py"] == (ROOT / "runtime" / "recorder.py").read_bytes()
    assert not [path for path in runtime if path.startswith("runtime/lessons/")]
    lesson = bundles.unpack(client.get(python["bundles"][0]).content)
    s06 = catalog.load_lessons()["s06"]
    assert lesson == {f"lessons/{rel}": Path(p).read_bytes() for rel, p in s06.files.items()}
    assert "lessons/s06/core/runtime.py" in lesson and "lessons/s01/core/loop.py" in lesson


def test_bundles_are_revalidated_and_sent_compressed(client):
    r = client.get("/py/bundles/runtime.bin", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == assets.REVALIDATE
    assert r.headers["content-type"] == "application/octet-stream"
    etag = r.headers["etag"]
    assert client.get("/py/bundles/runtime.bin", headers={"If-None-Match": etag}).status_code == 304
    missing = client.get("/py/bundles/lessons/nothere.bin")
    assert missing.status_code == 404 and "nothere" in missing.json()["detail"]


def test_a_new_lesson_gets_its_bundle_in_the_app_and_the_export(tmp_path):
    folder = make_lesson(tmp_path / "lessons")
    lessons = catalog.load_lessons([folder])
    client = TestClient(server.create_app([folder]))
    url = island(client, "/lessons/tiny")["python"]["bundles"][0]
    served = bundles.unpack(client.get(url).content)
    assert served == bundles.lesson_files(lessons["tiny"])
    export_site(tmp_path / "site", lessons)
    exported = tmp_path / "site" / url.lstrip("/")
    assert bundles.unpack(exported.read_bytes()) == served
    assert (tmp_path / "site" / bundles.FOLDER / bundles.RUNTIME).read_bytes() == bundles.pack(
        bundles.runtime_files())


def test_the_worker_reads_what_python_packs(tmp_path):
    node = shutil.which("node")
    assert node, "node is required to run the worker's bundle reader"
    files = {"pkg/x.py": "print('ü')\n".encode(), "lessons/a/b.py": b"", "c": bytes(range(256))}
    (tmp_path / "b.bin").write_bytes(bundles.pack(files))
    reader = (ROOT / "web" / "static" / "js" / "boot" / "pyc-bundle.js").as_uri()
    script = (f"const {{ unbundle }} = await import({json.dumps(reader)});"
              "const data = (await import('node:fs')).readFileSync(process.argv[1]);"
              "const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);"
              "console.log(JSON.stringify(unbundle(buffer).map((f) => [f.path, [...f.bytes]])));")
    out = subprocess.run([node, "--input-type=module", "-e", script, str(tmp_path / "b.bin")],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert {path: bytes(data) for path, data in json.loads(out)} == files


def test_the_precompiled_recorder_is_a_bundle_too():
    compiled = bundles.unpack(assets.RUNTIME_PYC.read_bytes())
    assert compiled and all(p.split("/")[0] == "runtime" and p.split("/")[-2] == "__pycache__" for p in compiled)


def test_the_runtime_modules_are_the_package_and_its_sub_packages(tmp_path):
    """runtime_modules: the .py files of runtime/ and of its sub-folders that are packages;
    a folder without __init__.py (like runtime/lessons/, lesson sources) is not."""
    for rel in ("__init__.py", "a.py", "sub/__init__.py", "sub/b.py", "sub/deep/__init__.py",
                "sub/deep/c.py", "lessons/s/core/x.py", "__pycache__/a.cpython-314.pyc", "notes.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    assert bundles.runtime_modules(tmp_path) == [
        "__init__.py", "a.py", "sub/__init__.py", "sub/b.py", "sub/deep/__init__.py",
        "sub/deep/c.py"]
    assert list(bundles.runtime_files(tmp_path)) == [
        f"runtime/{rel}" for rel in bundles.runtime_modules(tmp_path)]
    real = bundles.runtime_modules()
    assert "recorder.py" in real and not [rel for rel in real if rel.startswith("lessons/")]
    # what only a terminal runs stays out of the page's runtime
    assert not [rel for rel in real if rel.startswith(("cli", "doctor/"))]
    assert "recording/replay.py" in real and "world/clock.py" in real


SUB_PACKAGE = {"extra/__init__.py": b"", "extra/answer.py": b"ANSWER = 'from a sub-package'\n"}


@pytest.fixture()
def runtime_with_a_sub_package(tmp_path):
    """A copy of the recorder with an extra sub-package (extra/)."""
    folder = tmp_path / "runtime"
    for rel, data in {**bundles.runtime_files(), **{f"runtime/{k}": v for k, v in SUB_PACKAGE.items()}}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return folder


def test_a_sub_package_is_served_bundled_and_exported(runtime_with_a_sub_package, tmp_path,
                                                       monkeypatch):
    monkeypatch.setattr(bundles, "RUNTIME_DIR", runtime_with_a_sub_package)
    client = TestClient(server.create_app())
    served = client.get("/py/runtime/extra/answer.py")
    assert served.status_code == 200 and served.content == SUB_PACKAGE["extra/answer.py"]
    runtime = bundles.unpack(client.get(f"/{bundles.FOLDER}/{bundles.RUNTIME}").content)
    assert runtime["runtime/" + "extra/answer.py"] == SUB_PACKAGE["extra/answer.py"]
    assert "runtime/" + "extra/__init__.py" in runtime and "runtime/recorder.py" in runtime
    export_site(tmp_path / "site", catalog.load_lessons())
    site = tmp_path / "site"
    assert (site / "py" / "runtime" / "extra" / "answer.py").read_bytes() == SUB_PACKAGE["extra/answer.py"]
    assert bundles.unpack((site / bundles.FOLDER / bundles.RUNTIME).read_bytes()) == runtime


def test_a_module_in_a_sub_package_reaches_the_worker(runtime_with_a_sub_package, tmp_path):
    """In the vendored Pyodide (Node), with the files laid out as the worker lays out the
    runtime bundle: the recorder records and the sub-package's module imports."""
    s06 = catalog.load_lessons()["s06"]
    lessons = {rel: str(path) for rel, path in s06.files.items()}
    result = record_in_pyodide(
        tmp_path, lessons, [{"lesson": "s06", "block": "run_subagent", "scenario": "limit"}],
        code="from runtime.extra.answer import ANSWER; ANSWER",
        runtime_dir=runtime_with_a_sub_package)
    assert result["value"] == "from a sub-package"
    assert result["traces"][0]["stdout"] == "完成： call_limit\n"


def test_the_recorder_imports_no_lazy_module():
    """The memory snapshot holds what importing the worker's entry imports: a stand-in's
    lazy modules (runtime/standins/spec.py LAZY_MODULES) stay out of it."""
    from loopstep.runtime.standins.spec import LAZY_MODULES
    code = ("import sys, json, runtime.browser.worker\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('runtime.'))))")
    done = subprocess.run([shutil.which("python3") or "python3", "-c", code], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    imported = {name.removeprefix("runtime.").replace(".", "/") for name in json.loads(done.stdout)}
    lazy = [want for wants in LAZY_MODULES.values() for want in wants]
    assert "standins/process" in imported   # the stand-in itself is there
    for want in lazy:
        stem = want.rstrip("/").removesuffix(".py")
        assert not [m for m in imported if m == stem or m.startswith(stem + "/")], want


def test_a_lesson_with_the_subprocess_standin_carries_the_shell_in_its_bundle():
    lessons = catalog.load_lessons()
    shelled = lessons["agent-whole"]
    assert "subprocess" in shelled.standins.modules
    names = bundles.lesson_files(shelled)
    lazy = bundles.lazy_modules(shelled)
    assert "standins/shell.py" in lazy and "standins/sh/parse.py" in lazy
    for rel in lazy:
        assert names[f"runtime/{rel}"] == (bundles.RUNTIME_DIR / rel).read_bytes()
    plain = next(lesson for lesson in lessons.values() if lesson.standins is None)
    assert bundles.lazy_modules(plain) == []
    assert all(name.startswith("lessons/") for name in bundles.lesson_files(plain))
