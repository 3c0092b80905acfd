"""The page's script and what the document's head announces of it.

Built (`make build`), the page's modules are one file, web/static/js/bundle/page-<digest>.js,
and chunks of the views it loads on first use (scripts/build_page.py): one request instead
of one per module; the worker's modules are one file too (worker-<digest>.js). While that bundle is not
the one of the current sources (edited since the build), the page loads page.js and its
modules one by one, and the head announces page.js's whole static module graph as
`<link rel="modulepreload">` so that the browser fetches every module of it at once
instead of one level of imports per round trip (docs/performance.md, "Shipped
traces"). Read once, like the early script: restart after editing the page's modules.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import PurePosixPath

from . import assets

JS = assets.STATIC_DIR / "js"
ENTRY = "page.js"
# the Python worker's module; bundled beside the page's script into one file (worker-<hash>.js)
WORKER = "worker.js"
# page.js and all it imports in one file, made by `make build` (scripts/build_page.py)
BUNDLE_DIR = JS / "bundle"
MANIFEST = "manifest.json"
# the page's style sheets, relative to web/static, bundled beside it into one (minified)
STYLES = ("css/loopstep.css", "css/panes.css", "css/whatif.css")
# Debug's path from a shipped trace: imported on first use (block-runs.js, shipped.js),
# preloaded only on a page that has shipped traces
DEBUG_PATH = ("model/trace.js", "model/trace-cache.js", "model/replay.js")
# `import … from "./x.js"` and `export … from "./x.js"`, over lines; not `import("…")`
_STATIC = re.compile(r'^\s*(?:import|export)\s[^;()]*?\bfrom\s*"(\.{1,2}/[^"]+)"', re.M)


def static_imports(rel: str) -> list[str]:
    """The modules `rel` (relative to web/static/js) imports statically, relative too."""
    text = (JS / rel).read_text("utf-8")
    base = PurePosixPath(rel).parent
    return [normalise((base / spec).as_posix()) for spec in _STATIC.findall(text)]


def normalise(rel: str) -> str:
    """`a/./b/../c.js` → `a/c.js`."""
    parts = []
    for part in PurePosixPath(rel).parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


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
    """The modules the document announces (the page's script first): the bundle's entry and
    the chunks it imports statically, or page.js's static graph; with Debug's path on a page
    with shipped traces."""
    if bundle_entry():
        manifest = _current_bundle()
        more = [*manifest.get("preload", ()), *(manifest.get("debug", ()) if shipped else ())]
        return (bundle_entry(), *dict.fromkeys(f"{BUNDLE_DIR.name}/{name}" for name in more))
    return page_modules() + (DEBUG_PATH if shipped else ())


def sources_digest() -> str:
    """One digest of the page's modules (every .js under web/static/js but the bundle) and
    of its style sheets (STYLES)."""
    found = [p for p in JS.rglob("*.js")
             if (top := p.relative_to(JS).parts[0]) != BUNDLE_DIR.name
             and not top.startswith(".")]   # nor one being made
    found += [assets.STATIC_DIR / rel for rel in STYLES]
    return assets.files_digest({p.relative_to(assets.STATIC_DIR).as_posix(): p for p in found})


def bundle_manifest() -> dict:
    try:
        return json.loads((BUNDLE_DIR / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}


@lru_cache(maxsize=1)
def _current_bundle() -> dict | None:
    """The manifest while the bundle is that of the current sources, else None: the page
    then loads its modules one by one. Read once, like the graph."""
    manifest = bundle_manifest()
    names = [manifest.get("entry"), manifest.get("style"), manifest.get("worker"),
             *manifest.get("chunks", ())]
    if not all(names) or not all((BUNDLE_DIR / name).is_file() for name in names):
        return None
    return manifest if manifest.get("sources") == sources_digest() else None


def bundle_entry() -> str | None:
    """The bundle's file name, relative to web/static/js, or None (not current)."""
    manifest = _current_bundle()
    return f"{BUNDLE_DIR.name}/{manifest['entry']}" if manifest else None


def reread_bundle() -> None:
    """Forget what was read of the bundle (after a build, or in a test)."""
    _current_bundle.cache_clear()


def page_script() -> str:
    """The page's script, relative to web/static/js: the bundle, or page.js."""
    return bundle_entry() or ENTRY


def worker_script() -> str:
    """The worker's script, relative to web/static/js: the bundle's one file (immutable), or
    worker.js, which imports its modules one by one."""
    manifest = _current_bundle()
    return f"{BUNDLE_DIR.name}/{manifest['worker']}" if manifest else WORKER


def page_styles() -> tuple[str, ...]:
    """The page's style sheets, relative to web/static: the one minified sheet of the bundle
    (immutable, like it), or the sheets themselves."""
    manifest = _current_bundle()
    if not manifest:
        return STYLES
    return (f"js/{BUNDLE_DIR.name}/{manifest['style']}",)
