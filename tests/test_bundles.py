"""The page's Python sources travel as bundles (web/bundles.py): what the app and the export
serve are the current files, and the worker's reader (web/static/js/pyc-bundle.js) reads
what Python packs."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import server
from runtime import catalog
from web import assets, bundles, pages
from web.export import export_site
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


def test_the_lesson_page_asks_for_two_bundles_of_the_current_sources(client):
    urls = island(client, "/lessons/s06")["python"]["bundles"]
    assert urls == ["/py/bundles/runtime.bin", "/py/bundles/lessons/s06.bin"]
    runtime = bundles.unpack(client.get(urls[0]).content)
    assert runtime == {f"runtime/{p.relative_to(ROOT / 'runtime').as_posix()}": p.read_bytes()
                       for p in sorted([*(ROOT / "runtime").glob("*.py"),
                                        *(ROOT / "runtime").glob("standins/*.py")])}
    lesson = bundles.unpack(client.get(urls[1]).content)
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
    url = island(client, "/lessons/tiny")["python"]["bundles"][1]
    served = bundles.unpack(client.get(url).content)
    assert served == bundles.lesson_files(lessons["tiny"])
    export_site(tmp_path / "site", lessons)
    exported = tmp_path / "site" / url.lstrip("/")
    assert bundles.unpack(exported.read_bytes()) == served
    assert (tmp_path / "site" / bundles.FOLDER / bundles.RUNTIME).read_bytes() == bundles.pack(
        bundles.runtime_files(pages.RUNTIME_DIR, pages.engine_files()))


def test_the_worker_reads_what_python_packs(tmp_path):
    node = shutil.which("node")
    assert node, "node is required to run the worker's bundle reader"
    files = {"pkg/x.py": "print('ü')\n".encode(), "lessons/a/b.py": b"", "c": bytes(range(256))}
    (tmp_path / "b.bin").write_bytes(bundles.pack(files))
    reader = (ROOT / "web" / "static" / "js" / "pyc-bundle.js").as_uri()
    script = (f"const {{ unbundle }} = await import({json.dumps(reader)});"
              "const data = (await import('node:fs')).readFileSync(process.argv[1]);"
              "const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);"
              "console.log(JSON.stringify(unbundle(buffer).map((f) => [f.path, [...f.bytes]])));")
    out = subprocess.run([node, "--input-type=module", "-e", script, str(tmp_path / "b.bin")],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert {path: bytes(data) for path, data in json.loads(out)} == files


def test_the_precompiled_recorder_is_a_bundle_too():
    compiled = bundles.unpack(assets.RUNTIME_PYC.read_bytes())
    assert compiled and all(p.split("/")[:2] == ["runtime", "__pycache__"] for p in compiled)
