"""loopstep's web server and command line.

The server only serves pages, static files and lesson data: it never runs code and
has no endpoint that accepts any. Python runs in the reader's browser.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from loopstep.runtime.catalog import lessons as catalog
from loopstep.runtime.recorder import DEFAULT_MAX_STEPS
from loopstep.runtime.run_request import FIRST_STEPS
from loopstep.web import assets
from loopstep.web.files import Files
from loopstep.web.live_site import EndpointError, LiveSite, connect_src
from loopstep.web.redirects import RelativeRedirects
from loopstep.web.routes import api as routes_api, files as routes_files, pages as routes_pages

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# one inline script is allowed, by its hash: the head's early boot script (web/assets.py)
CSP = (f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {assets.EARLY_SCRIPT_HASH}; "
       "worker-src 'self' blob:; connect-src {connect}; object-src 'none'; base-uri 'none'")


# The guest runtime's frame (web/static/guest.html, its meta says the same): scripts of the
# site and blobs, no request of its own. It sits inside a page, which may itself be an embed
# in a host page: its frame-ancestors are the pages' own plus 'self' (none said: any).
GUEST_FRAME = "/static/guest.html"
GUEST_CSP = ("default-src 'none'; script-src 'self' blob: 'wasm-unsafe-eval'; worker-src blob:; "
             "connect-src 'none'; base-uri 'none'; form-action 'none'")


def guest_policy(frame_ancestors: str | None) -> str:
    """The guest frame's policy: framed by the site's pages, wherever they may be framed."""
    return GUEST_CSP + (f"; frame-ancestors 'self' {frame_ancestors}" if frame_ancestors else "")


def content_security_policy(frame_ancestors: str | None, live: LiveSite | None = None) -> str:
    """The pages' policy; with live runs (web/live_site.py) their endpoints may be called."""
    policy = CSP.replace("{connect}", connect_src(live))
    return policy + (f"; frame-ancestors {frame_ancestors}" if frame_ancestors else "")


def create_app(lessons_roots: list[Path] | None = None,
               frame_ancestors: str | None = None,
               limits: dict | None = None, live: LiveSite | None = None, *,
               lessons: dict | None = None, errors: dict | None = None,
               generation: int | None = None) -> FastAPI:
    """The ASGI app for the lessons found in `lessons_roots` (default: the bundled ones).

    `limits` goes to the pages' runtime: `bootTimeoutMs`, `recordTimeoutMs`, `maxSteps`;
    `live` enables live runs against its endpoints (docs/live.md).
    Under `serve --reload` (web/reload.py): `lessons` loaded already, `errors` {id: message}
    of those that did not load (shown at their URLs), `generation` the lessons' generation
    (answered at /api/reload; the pages then reload themselves when it changes)."""
    if lessons is None:
        lessons = catalog.load_lessons(lessons_roots)
    app = FastAPI(title="loopstep", version="0.1.0", docs_url=None, redoc_url=None)
    csp = content_security_policy(frame_ancestors, live)
    guest_csp = guest_policy(frame_ancestors)
    if live is not None:
        limits = {**(limits or {}), "live": live.config()}
    reloading = generation is not None
    if reloading:
        @app.get("/api/reload")
        def reload_generation():
            return {"generation": generation, "errors": errors or {}}
    app.include_router(routes_pages.router(lessons, limits, errors or {}, reloading))
    app.include_router(routes_api.router(lessons))
    app.include_router(routes_files.router())
    app.add_middleware(RelativeRedirects)   # a redirect's Location: relative, never the Host
    # Pages and JSON are compressed when the browser accepts it (a lesson page: 91 KB,
    # 14 KB gzipped); the files are not: the file layer, outside it, has its own copies.
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    # The file layer sits inside the security headers, so that files get them too.
    app.add_middleware(Files, lessons=lessons)

    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        response.headers["Content-Security-Policy"] = (
            guest_csp if request.url.path == GUEST_FRAME else csp)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        return JSONResponse({"detail": "invalid request"}, status_code=400)

    app.state.lessons = lessons
    return app


def serve_limits(args: argparse.Namespace) -> dict:
    limits = {"bootTimeoutMs": args.boot_timeout and int(args.boot_timeout * 1000),
              "recordTimeoutMs": args.record_timeout and int(args.record_timeout * 1000),
              "maxSteps": args.max_steps, "firstSteps": args.first_steps}
    return {k: v for k, v in limits.items() if v}


def live_site(args: argparse.Namespace) -> LiveSite | None:
    """The site's live runs (`--live`), or None; `--live-endpoint` needs `--live`."""
    if not args.live:
        if args.live_endpoint or getattr(args, "live_timeout", None):
            raise EndpointError("--live-endpoint and --live-timeout need --live")
        return None
    return LiveSite.of(args.live_endpoint, getattr(args, "live_timeout", None))


def add_live_options(parser: argparse.ArgumentParser, timeout: bool) -> None:
    parser.add_argument("--live", action="store_true",
                        help="let readers run a lesson against a real model with their own key")
    parser.add_argument("--live-endpoint", action="append", metavar="URL",
                        help="an endpoint live runs may call (repeatable); default: the "
                             "Anthropic and OpenAI APIs")
    if timeout:
        parser.add_argument("--live-timeout", type=float, metavar="SECONDS",
                            help="how long one live request may take (default 120)")


def frame_sources(value: str) -> str:
    """One `--frame-ancestors` value: origins (CSP sources), space-separated."""
    for source in value.split():
        if source not in ("'self'", "'none'") and re.search(r"[;,'\"\\]", source):
            raise argparse.ArgumentTypeError(f"{source!r} is not an origin (e.g. https://a.example)")
    return value


def add_frame_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frame-ancestors", action="append", metavar="ORIGIN", type=frame_sources,
                        help="an origin allowed to frame the pages (repeatable; CSP "
                             "frame-ancestors, e.g. https://docs.example.org); default: any")


def check_lessons_dirs(dirs: list[Path] | None) -> None:
    """`--lessons` folders must exist and, together, hold at least one lesson."""
    if not dirs:
        return
    for folder in dirs:
        if not folder.is_dir():
            raise catalog.LessonError(f"--lessons {folder}", "no such directory")
    if not any(any(folder.glob("*/lesson.toml")) for folder in dirs):
        raise catalog.LessonError(f"--lessons {' '.join(map(str, dirs))}",
                                  "no lesson here (a lesson is a folder holding lesson.toml)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="loopstep", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the lessons over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--lessons", type=Path, action="append",
                       help="a lessons directory (repeatable); default: the bundled lessons")
    add_frame_option(serve)
    serve.add_argument("--boot-timeout", type=float, metavar="SECONDS",
                       help="how long a page waits for Python to load (default 120)")
    serve.add_argument("--record-timeout", type=float, metavar="SECONDS",
                       help="wall-clock limit of one recording before the worker is restarted "
                            "(default 30)")
    serve.add_argument("--reload", action="store_true",
                       help="watch the lessons' folders: serve each edit without a restart "
                            "(bad lessons show their error at their URL), reload open pages")
    serve.add_argument("--max-steps", type=int, metavar="N", default=DEFAULT_MAX_STEPS,
                       help="steps recorded before a run is cut short "
                            f"(default {DEFAULT_MAX_STEPS:,})")
    serve.add_argument("--first-steps", type=int, metavar="N",
                       help="a loaded recording's run longer than N steps shows its first N "
                            f"while the rest is replayed (default {FIRST_STEPS:,})")
    add_live_options(serve, timeout=True)
    export = sub.add_parser("export", help="write the whole site as static files")
    export.add_argument("out", type=Path, help="the folder to write")
    export.add_argument("--lessons", type=Path, action="append",
                       help="a lessons directory (repeatable); default: the bundled lessons")
    add_live_options(export, timeout=False)
    add_frame_option(export)
    sub.add_parser("trace", help="print a block's trace (see `loopstep trace --help`)",
                   add_help=False)
    for name, what in (("record", "record a block's run against a real model"),
                       ("import", "make a recording from another tool's trace"),
                       ("check", "replay every recording preset; name stale ones"),
                       ("doctor", "name what could make two runs of a block differ")):
        sub.add_parser(name, help=f"{what} (see `loopstep {name} --help`)", add_help=False)
    args, rest = parser.parse_known_args(argv)
    if args.command in ("trace", "record", "import", "check", "doctor"):
        from loopstep.runtime import cli
        return cli.main([args.command, *rest], own_process=argv is None)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        check_lessons_dirs(args.lessons)
        live = live_site(args)
        ancestors = " ".join(" ".join(args.frame_ancestors or ()).split()) or None
        if args.command == "export":
            from loopstep.web.export import export_site
            written = export_site(args.out, catalog.load_lessons(args.lessons), live,
                                  content_security_policy(None, live),
                                  content_security_policy(ancestors, live) if ancestors else None,
                                  guest_policy(ancestors) if ancestors else None)
            print(f"wrote {len(written)} pages to {args.out}")
            return 0
        if args.reload:
            from loopstep.web.reload import Reloading
            limits = serve_limits(args)
            app = Reloading(lambda lessons, errors, generation: create_app(
                args.lessons, ancestors, limits, live, lessons=lessons,
                errors=errors, generation=generation), args.lessons).start()
        else:
            app = create_app(args.lessons, ancestors, serve_limits(args), live)
    except (catalog.LessonError, EndpointError) as error:
        print(f"loopstep: {error}", file=sys.stderr)
        return 2
    import uvicorn
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0


def __getattr__(name: str):
    """`uvicorn loopstep.server:app` gets the app for the bundled lessons, built on first use."""
    if name == "app":
        globals()["app"] = create_app()
        return globals()["app"]
    raise AttributeError(name)


if __name__ == "__main__":
    sys.exit(main())
