"""Run the real loopstep server with one extra read-only route for the benchmark pages.

    python bench/serve.py --port P [other `loopstep serve` options]

Everything is `server.main(["serve", ...])` unchanged (same app, headers, static and
vendor routes, uvicorn); only GET /bench/{name} is added, answering the files of
bench/pages/ and /bench/config.json (the engine and lesson files the bench worker writes).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import server  # noqa: E402
from fastapi import HTTPException  # noqa: E402
from fastapi.responses import FileResponse  # noqa: E402
from web import assets, pages  # noqa: E402

PAGES = HERE / "pages"
LESSON = "million"


def bench_config(app) -> dict:
    lesson = app.state.lessons[LESSON]
    files = [{"url": f"/py/runtime/{name}", "path": f"/loopstep/runtime/{name}"}
             for name in pages.engine_files()]
    files += [{"url": f"/py/lessons/{rel}", "path": f"/loopstep/lessons/{rel}"}
              for rel in sorted(lesson.files)]
    return {"indexURL": assets.PYODIDE_URL,
            "bootURL": f"/vendor/loopstep-boot-{assets.PYODIDE_VERSION}/",
            "files": files, "compiled": f"/static/pyc/{assets.RUNTIME_PYC.name}",
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
            return FileResponse(known[name], media_type=assets.content_type(known[name]),
                                headers={"Cache-Control": assets.REVALIDATE})

        app.add_api_route("/bench/{name}", bench_file, methods=["GET"])
        return app
    return create


if __name__ == "__main__":
    server.create_app = with_bench_pages(server.create_app)
    sys.exit(server.main(["serve", *sys.argv[1:]]))
