"""Files in one response. The worker fetches the page's Python sources as two bundles, the
recorder's modules and a lesson's files, instead of one request per file; the
precompiled recorder (scripts/build_runtime_pyc.mjs) is a bundle too.

Format: b"LSPYC1\\n", the length of a JSON index as 4 bytes big-endian, the index
[{"path", "size"}] and the files' bytes in that order; `path` is relative to the worker's
sys.path folder. web/static/js/boot/pyc-bundle.js reads it (tests/test_bundles.py checks that
both sides agree).
"""
from __future__ import annotations

import gzip
import hashlib
import json
from functools import lru_cache
from pathlib import Path

MAGIC = b"LSPYC1\n"
FOLDER = "py/bundles"          # under the site's root, in the app and in the export
RUNTIME = "runtime.bin"
RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"


def pack(files: dict[str, bytes]) -> bytes:
    index = json.dumps([{"path": path, "size": len(data)} for path, data in files.items()],
                       separators=(",", ":")).encode("utf-8")
    return b"".join([MAGIC, len(index).to_bytes(4, "big"), index, *files.values()])


def unpack(data: bytes) -> dict[str, bytes]:
    if not data.startswith(MAGIC):
        raise ValueError("not a bundle")
    start = len(MAGIC) + 4
    length = int.from_bytes(data[len(MAGIC):start], "big")
    offset, files = start + length, {}
    for entry in json.loads(data[start:offset]):
        files[entry["path"]] = data[offset:offset + entry["size"]]
        offset += entry["size"]
    if offset != len(data):
        raise ValueError("bundle length does not match its index")
    return files


def lesson_name(lesson_id: str) -> str:
    return f"lessons/{lesson_id}.bin"


# The recorder's modules only a terminal runs (the `loopstep` commands and the doctor): the
# page's worker never imports them, so neither its bundles nor its snapshot carry them.
TERMINAL_ONLY = frozenset({"cli.py", "cli_recordings.py", "cli_doctor.py", "doctor"})


def runtime_modules(runtime_dir: Path | None = None) -> list[str]:
    """The recorder's modules, as the worker lays them out under `runtime/`: every `.py`
    file of the runtime package and of its sub-packages (sub-folders with an
    `__init__.py`; `runtime/lessons/` holds lesson sources, not modules; TERMINAL_ONLY
    left out), as POSIX paths
    relative to `runtime_dir` (default RUNTIME_DIR), sorted.

    The one list of them: the app's /py/runtime/ routes and bundle (web/files.py), the
    export, the build of the precompiled recorder and of the memory snapshot
    (scripts/build.py hands it to the Node scripts) and the tests all use it."""
    root = RUNTIME_DIR if runtime_dir is None else Path(runtime_dir)
    found = []

    def walk(folder: Path, prefix: str) -> None:
        for path in folder.iterdir():
            if prefix + path.name in TERMINAL_ONLY:
                continue
            if path.is_file() and path.suffix == ".py":
                found.append(prefix + path.name)
            elif path.is_dir() and (path / "__init__.py").is_file():
                walk(path, f"{prefix}{path.name}/")

    walk(root, "")
    return sorted(found)


def runtime_files(runtime_dir: Path | None = None) -> dict[str, bytes]:
    """{"runtime/REL": bytes} for each of runtime_modules(runtime_dir)."""
    root = RUNTIME_DIR if runtime_dir is None else Path(runtime_dir)
    return {f"runtime/{rel}": (root / rel).read_bytes() for rel in runtime_modules(root)}


@lru_cache(maxsize=None)
def runtime_digest(runtime_dir: Path | None = None) -> str:
    """One digest of the recorder's sources (assets.files_digest of runtime_files), read once
    like the files the app serves: the page's runtime config and the shipped traces' index
    carry it, and boot.json's `snapshot.runtime.digest` is the same digest of the sources
    the snapshot imported (scripts/build_boot.mjs), so the worker keeps the snapshot's
    recorder by comparing two texts, without fetching the sources."""
    from .assets import files_digest
    return files_digest(runtime_files(runtime_dir))


def lazy_modules(lesson, runtime_dir: Path | None = None) -> list[str]:
    """The recorder's modules that `lesson`'s runs may import although the memory snapshot
    did not (runtime/standins/spec.py LAZY_MODULES of its [standins] modules), as paths
    under `runtime/`: the worker keeps the snapshot's recorder and writes no recorder
    files, so the lesson's bundle carries these."""
    from loopstep.runtime.standins.spec import LAZY_MODULES
    modules = lesson.standins.modules if lesson.standins is not None else ()
    wanted = [prefix for name in modules for prefix in LAZY_MODULES.get(name, ())]
    return [rel for rel in runtime_modules(runtime_dir)
            if any(rel == want or (want.endswith("/") and rel.startswith(want))
                   for want in wanted)]


def lesson_paths(lesson) -> dict[str, Path]:
    """{path under the worker's sys.path folder: file} of a lesson's bundle: its own files
    under `lessons/` and the recorder modules it may need beyond the snapshot's
    (lazy_modules) under `runtime/`."""
    found = {f"lessons/{rel}": Path(path) for rel, path in sorted(lesson.files.items())}
    found.update((f"runtime/{rel}", RUNTIME_DIR / rel) for rel in lazy_modules(lesson))
    return found


def lesson_files(lesson) -> dict[str, bytes]:
    return {name: path.read_bytes() for name, path in lesson_paths(lesson).items()}


def write(folder: Path, runtime: dict[str, bytes], lessons: dict) -> dict[str, Path]:
    """Write the runtime's bundle and each lesson's into `folder`, each with a .gz copy
    (sent to browsers that accept it); returns {name under FOLDER: path}."""
    written = {}
    for name, files in [(RUNTIME, runtime)] + [
            (lesson_name(lesson.id), lesson_files(lesson)) for lesson in lessons.values()]:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = pack(files)
        path.write_bytes(data)
        path.with_name(path.name + ".gz").write_bytes(gzipped(data))
        written[name] = path
    return written


_GZIPPED: dict[str, bytes] = {}


def gzipped(data: bytes) -> bytes:
    """`data`'s deterministic .gz copy, made once a process for the same bytes (each app
    writes the recorder's bundle again: the same bytes, while its files stay as they are)."""
    key = hashlib.sha256(data).hexdigest()
    if key not in _GZIPPED:
        if len(_GZIPPED) >= 64:   # a long-lived process with edited lessons: the oldest go
            del _GZIPPED[next(iter(_GZIPPED))]
        _GZIPPED[key] = gzip.compress(data, 9, mtime=0)
    return _GZIPPED[key]
