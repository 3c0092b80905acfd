"""Redirects with a relative `Location`: ASGI middleware around the app's routes.

Starlette builds a redirect's URL from the request's `Host` header (its trailing-slash
redirect: `/lessons/s06/` → `http://HOST/lessons/s06`), so a request with a forged `Host`
got that host back. Every redirect to this site is sent instead as a path relative to the
request's own (`../s06`), which the browser resolves against the URL it asked for: no
host is ever copied, and it works under any path prefix a proxy puts in front.
"""
from __future__ import annotations

from urllib.parse import quote, urlsplit

from starlette.datastructures import URL

SAFE = "/:@!$&'()*+,;=-._~%"   # kept as they are in a relative path


def relative(target: str, path: str) -> str:
    """The path `target` (absolute, of this site) relative to the request path `path`."""
    here = path.split("/")[1:-1]       # the request's folders
    there = target.split("/")[1:]      # the target's folders, then its last segment
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    up = "../" * (len(here) - common)
    rest = "/".join(there[common:])
    # "./" keeps a first segment with ':' from reading as a scheme, and "" as this folder
    return up + rest if up else "./" + rest


class RelativeRedirects:
    """Rewrites the `Location` of a redirect to this site as a relative path."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        site = urlsplit(str(URL(scope=scope)))

        async def send_relative(message):
            if message["type"] == "http.response.start" and 300 <= message["status"] < 400:
                message["headers"] = [
                    (name, self.location(value, site, scope) if name.lower() == b"location"
                     else value) for name, value in message["headers"]]
            await send(message)

        await self.app(scope, receive, send_relative)

    @staticmethod
    def location(value: bytes, site, scope) -> bytes:
        target = urlsplit(value.decode("latin-1"))
        if (target.scheme, target.netloc) != (site.scheme, site.netloc):
            return value                     # another site's URL, or relative already
        found = quote(relative(target.path or "/", scope["path"]), safe=SAFE)
        found += f"?{target.query}" if target.query else ""
        found += f"#{target.fragment}" if target.fragment else ""
        return found.encode("latin-1")
