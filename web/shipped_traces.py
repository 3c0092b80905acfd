"""Shipped traces: the packed trace of every block × preset of the bundled lessons,
recorded at build time by the page's own recorder in the vendored Pyodide booted from the
boot set's snapshot (scripts/build_shipped_traces.mjs), so that a page can debug a preset
before its runtime is ready.

They live in the boot set's folder, `traces/<lesson>/<block>/<preset>.json` (with
.br/.gz copies), beside `traces/index.json`: {"format", "runtime": digest of the
recorder's sources, "maxSteps", "lessons": {id: {"files": digest of the lesson's files,
"version": digest of its traces, "runs": {block: [preset, …]}}}}. A page is told of a
lesson's traces only while they are those of the files it serves (the same recorder,
the same lesson files, the same step limit): any other lesson (`--lessons DIR`, an edited
one before `make build`) records live.

The standard library only: scripts/build.py imports it.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import assets, bundles

FORMAT = 1
FOLDER = "traces"
DIR = assets.BOOT_DIR / FOLDER
INDEX = DIR / "index.json"


def lesson_digest(lesson) -> str:
    return assets.files_digest(bundles.lesson_files(lesson))


def runs(lesson) -> dict[str, list[str]]:
    """Every block × preset of `lesson`: {block id: [preset, …]}."""
    return {block.id: list(block.presets) for block in lesson.blocks}


def read_index(path: Path = INDEX) -> dict | None:
    try:
        index = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return index if isinstance(index, dict) and index.get("format") == FORMAT else None


class Shipped:
    """The built traces, read once (like the boot set: `make build`, then restart)."""

    def __init__(self, path: Path = INDEX):
        self.index = read_index(path)
        self.runtime = bundles.runtime_digest() if self.index else None
        self.digests: dict[int, tuple[object, str]] = {}  # id(lesson) → (lesson, digest)

    def _lesson_digest(self, lesson) -> str:
        kept = self.digests.get(id(lesson))
        if kept is None or kept[0] is not lesson:
            kept = self.digests[id(lesson)] = (lesson, lesson_digest(lesson))
        return kept[1]

    def for_lesson(self, lesson, root: str, max_steps: int) -> dict | None:
        """The page's `traces` entry for `lesson` ({url, version, runs}), or None when
        there are none that match what the page serves."""
        index = self.index
        if not index or index.get("runtime") != self.runtime or index.get("maxSteps") != max_steps:
            return None
        entry = index.get("lessons", {}).get(lesson.id)
        if not entry or entry.get("files") != self._lesson_digest(lesson):
            return None
        return {"url": f"{root}vendor/{assets.BOOT_DIR.name}/{FOLDER}/{lesson.id}/",
                "version": entry["version"], "runs": entry["runs"]}
