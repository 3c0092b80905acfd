"""A site's live runs (docs/live.md): which endpoints the page may call with the reader's
key, the per-request timeout, and the Content-Security-Policy that allows exactly them.

``loopstep serve --live`` and ``loopstep export --live`` make one ``LiveSite``; without
``--live`` there is none, and pages, policy and export are as they were.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from loopstep.runtime.recording.live import DEFAULT_BASE

DEFAULT_TIMEOUT = 120.0


class EndpointError(ValueError):
    """A --live-endpoint that is not an http(s) URL."""


def origin(url: str) -> str:
    """``scheme://host[:port]`` of an endpoint URL, or EndpointError."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or "@" in parts.netloc:
        raise EndpointError(f"--live-endpoint {url!r}: not an http(s) URL")
    return f"{parts.scheme}://{parts.netloc.lower()}"


@dataclass(frozen=True)
class LiveSite:
    endpoints: tuple[str, ...]        # base URLs, as given (default: the providers' APIs)
    timeout: float = DEFAULT_TIMEOUT  # seconds per request

    @classmethod
    def of(cls, endpoints: list[str] | None, timeout: float | None = None) -> LiveSite:
        chosen = tuple(dict.fromkeys(e.strip().rstrip("/") for e in endpoints or ())) \
            or tuple(DEFAULT_BASE.values())
        for url in chosen:
            origin(url)
        if timeout is not None and not timeout > 0:
            raise EndpointError(f"--live-timeout {timeout}: must be more than 0 seconds")
        return cls(chosen, timeout or DEFAULT_TIMEOUT)

    @property
    def origins(self) -> list[str]:
        return list(dict.fromkeys(origin(url) for url in self.endpoints))

    def config(self) -> dict:
        """The page's ``runtime.live``: the allowed endpoints and the request timeout."""
        return {"endpoints": list(self.endpoints), "defaults": dict(DEFAULT_BASE),
                "timeoutMs": int(self.timeout * 1000)}


def connect_src(live: LiveSite | None) -> str:
    """The CSP's ``connect-src`` value: ``'self'``, plus the live endpoints' origins."""
    return " ".join(["'self'", *(live.origins if live else ())])


def nginx_snippet(policy: str, guest: str | None = None) -> str:
    """The export's nginx line for its policy (deploy/nginx/loopstep.conf has the default);
    with `guest` (--frame-ancestors), the guest frame's line too, as a comment to copy."""
    text = ("# Written by `loopstep export` (--live, --frame-ancestors): use this line instead of the\n"
            "# Content-Security-Policy line of deploy/nginx/loopstep.conf.\n"
            f'add_header Content-Security-Policy "{policy}" always;\n')
    if guest:
        text += ("# and, inside `location = /static/guest.html`, this one instead of its own:\n"
                 f'#   add_header Content-Security-Policy "{guest}" always;\n')
    return text
