"""The page script's static module graph, announced in the document's head as
`<link rel="modulepreload">` so that the browser fetches every module of it at once
instead of one level of imports per round trip (docs/performance.md, "Shipped
recordings"). Read once, like the early script: restart after editing the page's modules.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePosixPath

from . import assets

JS = assets.STATIC_DIR / "js"
ENTRY = "page.js"
# Debug's path from a shipped recording: imported on first use (block-runs.js, shipped.js),
# preloaded only on a page that has shipped recordings
DEBUG_PATH = ("model/trace.js", "model/trace-cache.js", "model/replay.js")
# `import … from "./x.js"` and `export … from "./x.js"`, over lines; not `import("…")`
_STATIC = re.compile(r'^\s*(?:import|export)\s[^;()]*?\bfrom\s*"(\.{1,2}/[^"]+)"', re.M)


def static_imports(rel: str) -> list[str]:
    """The modules `rel` (relative to web/static/js) imports statically, relative too."""
    text = (JS / rel).read_text("utf-8")
    base = PurePosixPath(rel).parent
    found = []
    for spec in _STATIC.findall(text):
        parts = []
        for part in (base / spec).parts:
            if part == "..":
                parts.pop()
            elif part != ".":
                parts.append(part)
        found.append("/".join(parts))
    return found


@lru_cache(maxsize=1)
def page_modules() -> tuple[str, ...]:
    """Every module page.js imports statically, directly or not, breadth first."""
    seen, queue = [ENTRY], [ENTRY]
    while queue:
        for rel in static_imports(queue.pop(0)):
            if rel not in seen:
                seen.append(rel)
                queue.append(rel)
    return tuple(seen)


def preloads(shipped: bool) -> tuple[str, ...]:
    """The modules the document announces (page.js first)."""
    return page_modules() + (DEBUG_PATH if shipped else ())
