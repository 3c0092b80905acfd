"""The file layer: every file the site serves, known when the app starts, answered by
servestatic (a maintained static-file server for ASGI): precompressed `.br`/`.gz`
copies chosen by Accept-Encoding (the smallest accepted, with `Vary`), ETag and
Last-Modified with 304s, HEAD, byte ranges, and a 405 for any other method.

Only the files listed here are answered: /static/ and /vendor/ (the two folders),
/py/runtime/REL (the recorder's modules, bundles.runtime_modules), /py/lessons/REL (each lesson's own
files) and /py/bundles/ (the same sources in one file per lesson and one for the
recorder, web/bundles.py, written into a temporary folder when the app starts). A URL is looked up as a key, never joined to a folder, so `..`, encoded
slashes and backslashes cannot reach anything else; what is not listed falls through
to the app's routes (web/routes/files.py), which answer a 404 naming the path. Files
are read when the app starts, like the lessons: restart after editing them.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from servestatic import ServeStaticASGI
from servestatic.asgi import FileServerASGI
from servestatic.utils import decode_path_info

from . import assets, bundles


# servestatic reads a body in 8 KiB blocks, one thread hop each; 2.7 MB of brotli wasm
# then takes 335 hops (docs/design.md, "Server: routes and files", has the measurements).
BLOCK = 1 << 20


class Files(ServeStaticASGI):
    """ASGI middleware: the site's files in front of `app`."""

    def __init__(self, app, lessons: dict):
        super().__init__(app, max_age=None, allow_all_origins=False,
                         immutable_file_test=lambda path, url: False,
                         add_headers_function=self.add_headers)
        self.add_files(assets.STATIC_DIR, "/static/")
        self.add_files(assets.VENDOR_DIR, "/vendor/")
        for rel in bundles.runtime_modules():
            self.add_file_to_dictionary(f"/py/runtime/{rel}", str(bundles.RUNTIME_DIR / rel))
        for lesson in lessons.values():
            for rel, path in lesson.files.items():
                self.add_file_to_dictionary(f"/py/lessons/{rel}", str(path))
        self.bundles = tempfile.TemporaryDirectory(prefix="loopstep-bundles-")  # removed with it
        runtime = bundles.runtime_files()
        for name, path in bundles.write(Path(self.bundles.name), runtime, lessons).items():
            self.add_file_to_dictionary(f"/{bundles.FOLDER}/{name}", str(path))

    async def __call__(self, scope, receive, send):
        """ServeStaticASGI's lookup, with file bodies sent in BLOCK-sized reads; the bundles'
        folder removed as the server shuts down (a server stopped by a signal exits by it,
        without the interpreter's exit handlers that would remove it)."""
        if scope["type"] == "lifespan":
            async def sending(message):
                if message["type"] == "lifespan.shutdown.complete":
                    self.bundles.cleanup()
                await send(message)
            return await self.application(scope, receive, sending)
        found = self.files.get(decode_path_info(scope["path"])) if scope["type"] == "http" else None
        if found is None:
            return await self.application(scope, receive, send)
        server = FileServerASGI(found)
        server.block_size = BLOCK
        return await server(scope, receive, send)

    @staticmethod
    def add_headers(headers, path: str, url: str) -> None:
        """Our content types (assets.CONTENT_TYPES); the Pyodide runtime and the page's
        bundle cached for good (their names carry a version or a digest), everything else
        revalidated; /static/ open to other origins (embed.js runs on any host page)."""
        headers["Content-Type"] = assets.content_type(Path(path))
        headers["Cache-Control"] = assets.IMMUTABLE if assets.immutable(url) else assets.REVALIDATE
        if url.startswith("/static/"):
            headers["Access-Control-Allow-Origin"] = "*"
