"""loopstep's web server and command line.

The server only serves pages, static files and lesson data: it never runs code and
has no endpoint that accepts any. Python runs in the reader's browser.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from runtime import catalog
from runtime.recorder import DEFAULT_MAX_STEPS
from web import assets, pages, views

HERE = Path(__file__).parent
LINKS = views.Links(static=False)
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'")


def content_security_policy(frame_ancestors: str | None) -> str:
    return CSP + (f"; frame-ancestors {frame_ancestors}" if frame_ancestors else "")


def create_app(lessons_roots: list[Path] | None = None,
               frame_ancestors: str | None = None,
               limits: dict | None = None) -> FastAPI:
    """The ASGI app for the lessons found in `lessons_roots` (default: the bundled ones).

    `limits` goes to the pages' runtime: `bootTimeoutMs`, `recordTimeoutMs`, `maxSteps`."""
    lessons = catalog.load_lessons(lessons_roots)
    app = FastAPI(title="loopstep", version="0.1.0", docs_url=None, redoc_url=None)
    csp = content_security_policy(frame_ancestors)

    def get(path: str):
        """Register a GET route, and HEAD for it outside the schema."""
        def register(endpoint):
            app.add_api_route(path, endpoint, methods=["GET"])
            app.add_api_route(path, endpoint, methods=["HEAD"], include_in_schema=False)
            return endpoint
        return register

    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        response.headers["Content-Security-Policy"] = csp
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        return JSONResponse({"detail": "invalid request"}, status_code=400)

    def lesson_or_404(lesson_id: str):
        if lesson_id not in lessons:
            raise HTTPException(404, f"unknown lesson: {lesson_id}")
        return lessons[lesson_id]

    def block_or_404(lesson, symbol: str):
        for block in lesson.blocks:
            if block.symbol == symbol:
                return block
        raise HTTPException(404, f"unknown block: {lesson.id}/{symbol}")

    def preset_or_404(lesson, block, name: str | None):
        if name is not None and name not in block.presets:
            raise HTTPException(404, f"unknown preset for {lesson.id}/{block.symbol}: {name}")
        return name

    def html(body: str) -> HTMLResponse:
        return HTMLResponse(body, headers={"Cache-Control": "no-cache"})

    @get("/")
    def index(lang: str | None = None):
        return html(views.index_html(lessons, pages.pick_lang(lang), "/", LINKS))

    @get("/lessons/{lesson_id}")
    def lesson_page(lesson_id: str, request: Request, lang: str | None = None):
        lesson = lesson_or_404(lesson_id)
        return html(views.lesson_html(lesson, pages.pick_lang(lang), "/", LINKS,
                                      _scenarios_from_query(request), limits))

    def embed_page(lesson_id: str, symbol: str, scenario: str | None = None,
                   lang: str | None = None):
        lesson = lesson_or_404(lesson_id)
        block = block_or_404(lesson, symbol)
        preset_or_404(lesson, block, scenario)
        return html(views.embed_html(lesson, symbol, pages.pick_lang(lang), "/", LINKS,
                                     scenario, limits))

    def embed_page_en(lesson_id: str, symbol: str, scenario: str | None = None):
        return embed_page(lesson_id, symbol, scenario, "en")

    # /embed/L/S?lang=en, and the folder forms /embed/L/S/ and /embed/L/S/en/ that
    # a static export also has, so that embed.js works with either.
    get("/embed/{lesson_id}/{symbol}")(embed_page)
    get("/embed/{lesson_id}/{symbol}/")(embed_page)
    get("/embed/{lesson_id}/{symbol}/en/")(embed_page_en)

    @get("/api/lessons")
    def api_lessons():
        return {"lessons": [pages.lesson_api(lesson) for lesson in lessons.values()]}

    @get("/api/lessons/{lesson_id}")
    def api_lesson(lesson_id: str):
        return pages.lesson_api(lesson_or_404(lesson_id))

    @get("/api/lessons/{lesson_id}/blocks/{symbol}")
    def api_block(lesson_id: str, symbol: str):
        lesson = lesson_or_404(lesson_id)
        block = block_or_404(lesson, symbol)
        return next(b for b in pages.lesson_api(lesson)["blocks"] if b["symbol"] == block.symbol)

    @get("/api/lessons/{lesson_id}/blocks/{symbol}/presets/{name}")
    def api_preset(lesson_id: str, symbol: str, name: str):
        lesson = lesson_or_404(lesson_id)
        block = block_or_404(lesson, symbol)
        preset_or_404(lesson, block, name)
        return pages.preset_api(lesson, block.symbol, name)

    def file_response(root: Path, relpath: str, request: Request, *, immutable: bool):
        path = assets.resolve(root, relpath)
        if path is None:
            raise HTTPException(404, f"not found: {relpath}")
        chosen = assets.asset(path, request.headers.get("accept-encoding", ""),
                              immutable=immutable)
        if request.headers.get("if-none-match") == chosen.headers["ETag"]:
            return Response(status_code=304, headers=chosen.headers)
        return FileResponse(chosen.path, headers=chosen.headers,
                            media_type=chosen.headers["Content-Type"])

    @get("/static/{relpath:path}")
    def static(relpath: str, request: Request):
        response = file_response(assets.STATIC_DIR, relpath, request, immutable=False)
        response.headers["Access-Control-Allow-Origin"] = "*"  # embed.js on any host page
        return response

    @get("/vendor/{relpath:path}")
    def vendor(relpath: str, request: Request):
        return file_response(assets.VENDOR_DIR, relpath, request, immutable=True)

    @get("/py/runtime/{name}")
    def engine_file(name: str, request: Request):
        if name not in pages.engine_files():
            raise HTTPException(404, f"not found: {name}")
        return file_response(pages.RUNTIME_DIR, name, request, immutable=False)

    @get("/py/lessons/{relpath:path}")
    def lesson_file(relpath: str, request: Request):
        for lesson in lessons.values():
            if relpath in lesson.files:
                path = Path(lesson.files[relpath])
                return file_response(path.parent, path.name, request, immutable=False)
        raise HTTPException(404, f"not found: {relpath}")

    app.state.lessons = lessons
    return app


def _scenarios_from_query(request: Request) -> dict[str, str]:
    """`?scenario.child_tools=missing` picks a block's preset on the lesson page."""
    prefix = "scenario."
    return {k[len(prefix):]: v for k, v in request.query_params.items() if k.startswith(prefix)}


def serve_limits(args: argparse.Namespace) -> dict:
    limits = {"bootTimeoutMs": args.boot_timeout and int(args.boot_timeout * 1000),
              "recordTimeoutMs": args.record_timeout and int(args.record_timeout * 1000),
              "maxSteps": args.max_steps}
    return {k: v for k, v in limits.items() if v}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="loopstep", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the lessons over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--lessons", type=Path, action="append",
                       help="a lessons directory (repeatable); default: the bundled lessons")
    serve.add_argument("--frame-ancestors", default=None,
                       help="origins allowed to frame the pages (CSP frame-ancestors); default: any")
    serve.add_argument("--boot-timeout", type=float, metavar="SECONDS",
                       help="how long a page waits for Python to load (default 120)")
    serve.add_argument("--record-timeout", type=float, metavar="SECONDS",
                       help="wall-clock limit of one recording before the worker is restarted "
                            "(default 30)")
    serve.add_argument("--max-steps", type=int, metavar="N", default=DEFAULT_MAX_STEPS,
                       help="steps recorded before a run is cut short "
                            f"(default {DEFAULT_MAX_STEPS:,})")
    export = sub.add_parser("export", help="write the whole site as static files")
    export.add_argument("out", type=Path, help="the folder to write")
    export.add_argument("--lessons", type=Path, action="append",
                       help="a lessons directory (repeatable); default: the bundled lessons")
    sub.add_parser("trace", help="print a block's trace (see `loopstep trace --help`)",
                   add_help=False)
    args, rest = parser.parse_known_args(argv)
    if args.command == "trace":
        from runtime import cli
        return cli.main(["trace", *rest])
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if args.command == "export":
            from web.export import export_site
            written = export_site(args.out, catalog.load_lessons(args.lessons))
            print(f"wrote {len(written)} pages to {args.out}")
            return 0
        app = create_app(args.lessons, args.frame_ancestors, serve_limits(args))
    except catalog.LessonError as error:
        print(f"loopstep: {error}", file=sys.stderr)
        return 2
    import uvicorn
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0


def __getattr__(name: str):
    """`uvicorn server:app` gets the app for the bundled lessons, built on first use."""
    if name == "app":
        globals()["app"] = create_app()
        return globals()["app"]
    raise AttributeError(name)


if __name__ == "__main__":
    sys.exit(main())
