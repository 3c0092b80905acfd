"""The page's modules in one file (scripts/build_page.py, web/module_graph.py): made by the
build from the current sources, holding every module page.js loads (statically or on
first use), the same bytes when bundled again, served immutable under its digest's name,
and left aside for the modules one by one when the sources changed after the build; the
bundler is the pinned esbuild (scripts/esbuild.py)."""
from __future__ import annotations

import functools
import http.server
import io
import json
import re
import shutil
import sys
import tarfile
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from loopstep import server
from loopstep.web import module_graph

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_page  # noqa: E402
import esbuild  # noqa: E402
import npm_package  # noqa: E402
import rollup  # noqa: E402

DYNAMIC = re.compile(r'\bimport\(\s*"(\.{1,2}/[^"]+)"\s*\)')


def loaded_by(entry: str) -> set[str]:
    """Every module `entry` (page.js, worker.js) imports, statically or with a literal
    import("./…")."""
    seen, queue = {entry}, [entry]
    while queue:
        rel = queue.pop()
        text = (module_graph.JS / rel).read_text("utf-8")
        found = module_graph.static_imports(rel)
        base = Path(rel).parent
        found += [(base / spec).as_posix() for spec in DYNAMIC.findall(text)]
        for dep in found:
            dep = module_graph.normalise(dep)
            if dep not in seen:
                seen.add(dep)
                queue.append(dep)
    return seen


def test_the_build_made_the_bundle_of_the_current_sources():
    entry = module_graph.bundle_entry()
    assert entry and re.fullmatch(r"bundle/page-[a-z0-9]+\.js", entry), entry
    assert build_page.current()
    assert module_graph.page_script() == entry
    manifest = module_graph.bundle_manifest()
    chunks = [f"bundle/{name}" for name in manifest["preload"]]
    debug = [f"bundle/{name}" for name in manifest["debug"] if name not in manifest["preload"]]
    assert module_graph.preloads(False) == (entry, *chunks)
    assert module_graph.preloads(True) == (entry, *chunks, *debug)
    # the entry imports no other file statically: the first download is one script (Rollup
    # keeps in it every module it imports); Debug's path is in chunks of their own, not in
    # the entry (the first download leaves the views loaded on first use out)
    text = (module_graph.BUNDLE_DIR / Path(entry).name).read_text("utf-8")
    assert manifest["preload"] == [] and not re.findall(r'\bfrom\s*"\./', text)
    assert re.findall(r'\bimport\("\./(chunk-[a-z0-9]+\.js)"\)', text)
    assert set(manifest["debug"]) - {Path(entry).name}
    assert all(name.startswith("chunk-") for name in set(manifest["debug"]) - {Path(entry).name})


def test_the_bundle_holds_every_module_the_page_loads():
    entry = module_graph.BUNDLE_DIR / Path(module_graph.bundle_entry()).name
    files = [entry] + [entry.with_name(name) for name in module_graph.bundle_manifest()["chunks"]]
    bundled = {(entry.parent / s).resolve().relative_to(module_graph.JS).as_posix()
               for file in files
               for s in json.loads(file.with_name(file.name + ".map").read_text("utf-8"))["sources"]}
    wanted = loaded_by(module_graph.ENTRY)
    # views loaded on first use are there too (and the check sees them)
    assert {"whatif/whatif.js", "agent/agent-view.js", "model/replay.js"} <= wanted
    assert bundled == wanted
    # the worker is not the page's: it is not in the bundle
    assert "worker.js" not in bundled and not any(s.startswith("boot/boot") for s in bundled)


def test_the_worker_is_one_file_holding_every_module_it_loads():
    worker = module_graph.worker_script()
    assert re.fullmatch(r"bundle/worker-[A-Z0-9]+\.js", worker), worker
    file = module_graph.JS / worker
    bundled = {(file.parent / s).resolve().relative_to(module_graph.JS).as_posix()
               for s in json.loads(file.with_name(file.name + ".map").read_text("utf-8"))["sources"]}
    wanted = loaded_by(module_graph.WORKER)
    assert {"worker.js", "boot/boot.js", "boot/snapshot-delta.js", "live/live-call.js"} <= wanted
    assert bundled == wanted
    # nothing left to fetch one module at a time: only Pyodide's own files, by computed URL
    assert not re.findall(r'\b(?:from\s*|import\(\s*)"\.', file.read_text("utf-8"))
    # the pages start it (their config names it)
    html = TestClient(server.create_app()).get("/lessons/s06").text
    assert f'"worker": "/static/js/{worker}"' in html


def test_bundling_again_gives_the_same_bytes():
    # beside the bundle, as the build makes it (the source map names the sources
    # relative to its folder, and the file's name is a digest of both)
    again = module_graph.BUNDLE_DIR.with_name(".bundle-again")
    try:
        names = build_page.bundle(again)
        assert module_graph.bundle_entry() == f"bundle/{names['entry']}"
        assert module_graph.page_styles() == (f"js/bundle/{names['style']}",)
        for name in (names["entry"], f"{names['entry']}.map", names["style"], names["worker"],
                     *names["chunks"]):
            assert (again / name).read_bytes() == (module_graph.BUNDLE_DIR / name).read_bytes()
    finally:
        shutil.rmtree(again, ignore_errors=True)


def test_the_bundle_is_served_immutable_and_compressed():
    client = TestClient(server.create_app())
    for script in (module_graph.bundle_entry(), module_graph.worker_script()):
        response = client.get(f"/static/js/{script}", headers={"accept-encoding": "gzip"})
        assert response.status_code == 200
        assert response.headers["content-encoding"] == "gzip"
        assert response.headers["content-type"].startswith("text/javascript")
        assert "immutable" in response.headers["cache-control"]
        assert response.headers["access-control-allow-origin"] == "*"
    # a module on its own and the manifest (it changes under its name) are revalidated
    for other in ("/static/js/page.js", "/static/js/worker.js", "/static/js/bundle/manifest.json"):
        assert client.get(other).headers["cache-control"] == "no-cache", other
    # the page itself comes compressed
    page = client.get("/lessons/s06", headers={"accept-encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "</html>" in page.text


@pytest.fixture
def sources_changed(monkeypatch):
    monkeypatch.setattr(module_graph, "sources_digest", lambda: "edited since the build")
    module_graph.reread_bundle()
    yield
    monkeypatch.undo()
    module_graph.reread_bundle()


def test_sources_changed_after_the_build_are_served_one_by_one(sources_changed):
    assert module_graph.bundle_entry() is None and not build_page.current()
    html = TestClient(server.create_app()).get("/lessons/s06").text
    assert re.search(r'<script type="module" src="/static/js/page.js"', html)
    announced = re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', html)
    assert announced == list(module_graph.preloads(True)) and "page/block.js" in announced
    # and the worker's: worker.js, importing its modules one by one
    assert module_graph.worker_script() == "worker.js"
    assert '"worker": "/static/js/worker.js"' in html


def _registry(tmp_path, path: str, members: dict[str, bytes]):
    """A registry on localhost serving one tarball at `path` holding `members`."""
    target = tmp_path / "registry" / path.lstrip("/")
    target.parent.mkdir(parents=True)
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            archive.addfile(info, io.BytesIO(body))
    target.write_bytes(data.getvalue())
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(tmp_path / "registry"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_a_fetched_esbuild_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    arch = esbuild.platform_arch()
    httpd = _registry(tmp_path, f"/@esbuild/linux-{arch}/-/linux-{arch}-{esbuild.VERSION}.tgz",
                      {"package/bin/esbuild": b"#!/bin/sh\necho not esbuild\n"})
    try:
        monkeypatch.setattr(npm_package, "REGISTRY", f"http://127.0.0.1:{httpd.server_port}")
        with pytest.raises(SystemExit, match="does not match its pinned integrity"):
            esbuild.fetch(arch, tmp_path / "cache")
        assert not (tmp_path / "cache").exists()
    finally:
        httpd.shutdown()


def test_a_fetched_rollup_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    httpd = _registry(tmp_path, f"/@rollup/wasm-node/-/wasm-node-{rollup.VERSION}.tgz",
                      {"package/package.json": json.dumps({"version": rollup.VERSION}).encode(),
                       "package/dist/es/rollup.js": b"export const rollup = null;\n"})
    try:
        monkeypatch.setattr(npm_package, "REGISTRY", f"http://127.0.0.1:{httpd.server_port}")
        with pytest.raises(SystemExit, match="does not match its pinned integrity"):
            rollup.fetch(tmp_path / "cache" / "rollup")
        assert not (tmp_path / "cache").exists()
    finally:
        httpd.shutdown()
