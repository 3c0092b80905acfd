"""Build what the site serves but the repository does not hold (`make build`).

    python3 scripts/build.py [--force] [--check]

The outputs, made with the vendored Pyodide by Node 20+ (scripts/ensure_node.sh finds or
installs it) and ignored by git:

- the precompiled recorder, web/static/pyc/runtime.<cache tag>.bin (+ .br/.gz), by
  scripts/build_runtime_pyc.mjs;
- the fast boot set, web/vendor/loopstep-boot-<version>/ (trimmed standard library,
  memory snapshot, empty.zip, boot.json, .br/.gz copies, SHA256SUMS), by
  scripts/build_boot.mjs;
- the shipped traces, its traces/ folder (every block × preset of the bundled
  lessons recorded as the page's worker records it, web/shipped_traces.py), by
  scripts/build_shipped_traces.mjs;
- the page's modules in one file, web/static/js/bundle/, by scripts/build_page.py
  (esbuild, scripts/esbuild.py; its own manifest says which sources it was made from).

They are cached: build/outputs.json (the stamp) holds a digest of every input (the
vendored Pyodide's files and its version, the recorder's modules, the lessons the boot
set is trimmed for, the build scripts) and the sha256 of every output; while both still
hold, nothing is rebuilt and Node is not needed. `--force` rebuilds; `--check` only
says whether the outputs are current (exit status 1 when not).

Runs with the Python that runs make (3.11+, the standard library only); the wheel's
build (setup.py) runs the same build.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import source_tree  # noqa: E402  (scripts/source_tree.py)

source_tree.as_package()
from loopstep.runtime.catalog.lessons import BUNDLED_ROOTS, load_lessons  # noqa: E402  (the standard library only)
from loopstep.runtime.recorder import DEFAULT_MAX_STEPS  # noqa: E402
from loopstep.web import assets, bundles, shipped_traces  # noqa: E402

import build_page  # noqa: E402  (scripts/build_page.py)
import npm_package  # noqa: E402  (scripts/npm_package.py)

SCRIPTS = ROOT / "scripts"
STAMP = ROOT / "build" / "outputs.json"
BUILD_SCRIPTS = ("build.py", "source_tree.py", "build_boot.mjs", "build_boot.py", "build_runtime_pyc.mjs",
                 "build_shipped_traces.mjs", "precompress.mjs")
# the lessons recorded to choose the trimmed standard library (scripts/build_boot.mjs)
LESSON_FOLDERS = (ROOT / "runtime" / "lessons", ROOT / "stubs", ROOT / "bench" / "lessons")
# the snapshot's stored form, shared with the page (build_boot.mjs imports it)
SNAPSHOT_DELTA = assets.STATIC_DIR / "js" / "boot" / "snapshot-delta.js"
# the page's code the shipped traces are made with (build_shipped_traces.mjs runs it)
WORKER = assets.STATIC_DIR / "js" / "worker.js"
RECORDING_CODE = (WORKER, assets.STATIC_DIR / "js" / "boot" / "boot.js",
                  assets.STATIC_DIR / "js" / "boot" / "digest.js",
                  assets.STATIC_DIR / "js" / "boot" / "snapshot-runtime.js",
                  Path(shipped_traces.__file__))


def _files_under(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.rglob("*")
                  if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts)


def inputs() -> list[Path]:
    """Every file the outputs are made from."""
    found = [assets.VENDOR_DIR / "PYODIDE_VERSION"]
    found += [assets.PYODIDE_DIR / name for name in assets.BOOT_FILES]
    found += [bundles.RUNTIME_DIR / rel for rel in bundles.runtime_modules()]
    for folder in LESSON_FOLDERS:
        found += _files_under(folder, (".py", ".toml"))
    found += [SCRIPTS / name for name in BUILD_SCRIPTS]
    found += [SNAPSHOT_DELTA, Path(bundles.__file__)]   # and the module list's source
    found += RECORDING_CODE
    return sorted(set(found))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _rel(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix()


def inputs_digest() -> str:
    """One digest of the inputs' paths and contents."""
    return assets.files_digest({_rel(path): path for path in inputs()})


def outputs() -> list[Path]:
    """The files the build writes, as they are on disk now."""
    pyc = assets.RUNTIME_PYC
    found = [p for p in (pyc, pyc.with_name(pyc.name + ".br"), pyc.with_name(pyc.name + ".gz"))
             if p.is_file()]
    if assets.BOOT_DIR.is_dir():
        found += sorted(p for p in assets.BOOT_DIR.rglob("*") if p.is_file())
    return found


def stamp() -> dict | None:
    try:
        return json.loads(STAMP.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def stale_reason() -> str | None:
    """Why the outputs must be built, or None when they are those of the current inputs."""
    recorded = stamp()
    if recorded is None:
        return "never built here"
    if recorded.get("inputs") != inputs_digest():
        return "inputs changed since the last build"
    on_disk = {_rel(p): _sha256(p) for p in outputs()}
    if on_disk != recorded.get("outputs"):
        return "outputs missing or changed since the last build"
    return None


def config() -> dict:
    """What the Node scripts are told: the one source of each shared fact."""
    return {
        "version": assets.PYODIDE_VERSION,
        "python": assets.PYODIDE_PYTHON,
        "pyodideDir": str(assets.PYODIDE_DIR),
        "bootDir": str(assets.BOOT_DIR),
        "pycFile": str(assets.RUNTIME_PYC),
        "runtimeDir": str(bundles.RUNTIME_DIR),
        "runtimeModules": bundles.runtime_modules(),
        "snapshotDelta": str(SNAPSHOT_DELTA),
        "workerRoot": assets.WORKER_ROOT,
        "traces": traces_job(),
    }


def traces_job() -> dict:
    """What build_shipped_traces.mjs records: every block × preset of the bundled lessons."""
    lessons = load_lessons(BUNDLED_ROOTS).values()
    return {
        "dir": str(shipped_traces.DIR), "format": shipped_traces.FORMAT, "worker": str(WORKER),
        "runtime": bundles.runtime_digest(), "maxSteps": DEFAULT_MAX_STEPS,
        "lessons": [{"id": lesson.id, "digest": shipped_traces.lesson_digest(lesson),
                     "runs": shipped_traces.runs(lesson),
                     "files": {name: str(path)
                               for name, path in bundles.lesson_paths(lesson).items()}}
                    for lesson in lessons],
    }


def build(force: bool = False, log=print) -> bool:
    """Build the outputs unless they are current; returns whether it built."""
    bundled = build_page.build(force=force, log=log)
    reason = "forced" if force else stale_reason()
    if reason is None:
        log("build: up to date (build/outputs.json)")
        return bundled
    log(f"build: building the boot set and the precompiled recorder ({reason})")
    node = npm_package.find_node()
    digest = inputs_digest()
    STAMP.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="loopstep-build-") as tmp:
        config_path = Path(tmp) / "config.json"
        config_path.write_text(json.dumps(config()), "utf-8")
        def start(script, *more):
            return script, subprocess.Popen([node, str(SCRIPTS / script), "--config",
                                             str(config_path), *more], cwd=ROOT)

        # the precompiled recorder is made while the boot set starts (neither reads the
        # other); the shipped traces are recorded from the boot set as staged, while its
        # copies are compressed: each takes one core
        steps = [start("build_runtime_pyc.mjs"),
                 start("build_boot.mjs", "--alongside", str(SCRIPTS / "build_shipped_traces.mjs"))]
        failed = [script for script, proc in steps if proc.wait() != 0]
        if failed:
            raise SystemExit(f"build: scripts/{', '.join(failed)} failed")
    if inputs_digest() != digest:
        raise SystemExit("build: the inputs changed while building; run it again")
    STAMP.parent.mkdir(parents=True, exist_ok=True)
    STAMP.write_text(json.dumps({"inputs": digest, "pyodide": assets.PYODIDE_VERSION,
                                 "outputs": {_rel(p): _sha256(p) for p in outputs()}},
                                indent=1) + "\n", "utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild even when current")
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args(argv)
    if args.check:
        reason = stale_reason() or (None if build_page.current() else
                                    "the page's bundle is not that of its modules")
        print(f"build: {reason}" if reason else "build: up to date")
        return 1 if reason else 0
    build(force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
