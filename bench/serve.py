"""Run the real loopstep server with one extra read-only route for the benchmark pages.

    python bench/serve.py --port P [other `loopstep serve` options]

Everything is `server.main(["serve", ...])` unchanged (same app, headers, static and
vendor routes, uvicorn); only GET /bench/{name} is added, answering the files of
bench/pages/ (with {{PYODIDE_URL}} and {{BOOT_URL}} filled in: the vendored Pyodide's
folders) and /bench/config.json (the engine and lesson files the bench worker writes).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from loopstep import server  # noqa: E402
from fastapi import HTTPException  # noqa: E402
from fastapi.responses import Response  # noqa: E402
from loopstep.web import assets, bundles  # noqa: E402

PAGES = HERE / "pages"
LESSON = "million"
BOOT_URL = f"/vendor/{assets.BOOT_DIR.name}/"
FOLDERS = {"{{PYODIDE_URL}}": assets.PYODIDE_URL, "{{BOOT_URL}}": BOOT_URL}


def page_file(path: Path) -> bytes:
    data = path.read_bytes()
    for mark, url in FOLDERS.items():
        data = data.replace(mark.encode(), url.encode())
    return data


def bench_config(app) -> dict:
    lesson = app.state.lessons[LESSON]
    files = [{"url": f"/py/runtime/{rel}", "path": f"/loopstep/runtime/{rel}", "runtime": True}
             for rel in bundles.runtime_modules()]
    files += [{"url": f"/py/lessons/{rel}", "path": f"/loopstep/lessons/{rel}"}
              for rel in sorted(lesson.files)]
    return {"indexURL": assets.PYODIDE_URL,
            "bootURL": BOOT_URL,
            "files": files, "compiled": f"/static/pyc/{assets.RUNTIME_PYC.name}",
            "runtimeDigest": bundles.runtime_digest(),
            "lesson": LESSON, "block": lesson.blocks[0].id,
            "scenario": lesson.blocks[0].presets[0], "roots": ["/loopstep/lessons"]}


def with_bench_pages(create_app):
    def create(*args, **kwargs):
        app = create_app(*args, **kwargs)

        known = {path.name: path for path in PAGES.iterdir() if path.is_file()}

        def bench_file(name: str):
            if name == "config.json":
                return bench_config(app)
            if name not in known:
                raise HTTPException(404, f"not found: {name}")
            return Response(page_file(known[name]), media_type=assets.content_type(known[name]),
                            headers={"Cache-Control": assets.REVALIDATE})

        app.add_api_route("/bench/{name}", bench_file, methods=["GET"])
        return app
    return create


if __name__ == "__main__":
    server.create_app = with_bench_pages(server.create_app)
    sys.exit(server.main(["serve", *sys.argv[1:]]))
