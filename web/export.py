"""`loopstep export OUT_DIR`: the whole site as static files for any static host.

Every page links with relative URLs, so the site works under any path prefix.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from . import assets, bundles, live_site, module_graph, page_data, views

LINKS = views.Links(static=True)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _write_page(path: Path, text: str) -> None:
    """A page and its .gz copy, which a host may send as it is (nginx's gzip_static)."""
    _write(path, text)
    assets.write_gz(path, text.encode("utf-8"))


def _write_json(path: Path, data) -> None:
    _write(path, json.dumps(data, ensure_ascii=False, indent=1))


def _pages(out: Path, lessons: dict, limits: dict | None, policy: str | None) -> None:
    for lang in page_data.LANGS:
        prefix = "en/" if lang == "en" else ""
        depth = prefix.count("/")
        _write_page(out / prefix / "index.html", views.index_html(lessons, lang, "../" * depth, LINKS,
                                                                  policy=policy))
        for lesson in lessons.values():
            folder = f"lessons/{lesson.id}/{prefix}"
            root = "../" * folder.count("/")
            _write_page(out / folder / "index.html", views.lesson_html(lesson, lang, root, LINKS, limits=limits,
                                                         policy=policy))
            for block in lesson.blocks:
                folder = f"embed/{lesson.id}/{block.id}/{prefix}"
                root = "../" * folder.count("/")
                _write_page(out / folder / "index.html",
                            views.embed_html(lesson, block.id, lang, root, LINKS,
                                             limits=limits, policy=policy))


def _api(out: Path, lessons: dict) -> None:
    api = out / "api" / "lessons"
    _write_json(out / "api" / "lessons.json",
                {"lessons": [page_data.lesson_api(lesson) for lesson in lessons.values()]})
    for lesson in lessons.values():
        _write_json(api / f"{lesson.id}.json", page_data.lesson_api(lesson))
        for block in lesson.blocks:
            for name in block.presets:
                _write_json(api / lesson.id / "blocks" / block.id / "presets" / f"{name}.json",
                            page_data.preset_api(lesson, block.id, name))


def _files(out: Path, lessons: dict) -> None:
    # the bundle's manifest is the server's (web/module_graph.py): the pages name the bundle;
    # a hidden name is a work folder's (a build's), never the site's
    shutil.copytree(assets.STATIC_DIR, out / "static", dirs_exist_ok=True,
                    ignore=lambda folder, names: [name for name in names if name.startswith(".")]
                    + ([module_graph.MANIFEST] if Path(folder) == module_graph.BUNDLE_DIR else []))
    shutil.copytree(assets.VENDOR_DIR, out / "vendor", dirs_exist_ok=True)
    for rel in bundles.runtime_modules():
        shutil.copy2(bundles.RUNTIME_DIR / rel, _parent(out / "py" / "runtime" / rel))
    for lesson in lessons.values():
        for rel, path in lesson.files.items():
            shutil.copy2(path, _parent(out / "py" / "lessons" / rel))
    bundles.write(out / bundles.FOLDER, bundles.runtime_files(), lessons)


def _parent(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def export_site(out: Path, lessons: dict, live=None, policy: str | None = None,
                framed: str | None = None, guest: str | None = None) -> list[Path]:
    """Write the site for `lessons` into `out`; returns the pages written. Every page
    carries `policy` (default: the app's Content-Security-Policy, loopstep.server) in a
    meta tag, so that it holds on a host that sends none. With `live` (a web/live_site.py
    LiveSite) the pages offer live runs and the policy names its endpoints. A meta tag
    cannot say which pages may frame the site: `framed` is the policy with
    `frame-ancestors` (`--frame-ancestors`), for the header. With either, `nginx-csp.conf`
    holds the header's policy for nginx (else the shipped config's is the same), and `guest`
    the guest frame's, framed as the pages are (loopstep.server guest_policy)."""
    if policy is None:
        from loopstep.server import content_security_policy   # the app's, without a cycle
        policy = content_security_policy(None, live)
    out.mkdir(parents=True, exist_ok=True)
    if live is not None or framed:
        _write(out / "nginx-csp.conf", live_site.nginx_snippet(framed or policy, guest))
    _pages(out, lessons, {"live": live.config()} if live else None, policy)
    _api(out, lessons)
    _files(out, lessons)
    return sorted(out.rglob("index.html"))
