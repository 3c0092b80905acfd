"""Find Rollup, which splits the page's modules into its script and the chunks loaded on
first use (scripts/build_page.py, run under Node by scripts/rollup_page.mjs).

    python3 scripts/rollup.py        # prints the folder of the package

Order: $LOOPSTEP_ROLLUP (a folder holding the package: dist/es/rollup.js, package.json of
VERSION); a copy fetched earlier into ~/.cache/loopstep/rollup-VERSION; else the npm
registry's @rollup/wasm-node@VERSION (the bundler compiled to WebAssembly: one package,
no native parts), checked against INTEGRITY and unpacked into that cache.

Why Rollup splits and esbuild minifies: esbuild puts a module that both the page's script
and a view loaded on first use import into a chunk of its own, so the script came as a
dozen files; Rollup keeps in the script what is loaded with it, so the first download is one
file (docs/performance.md, "Navigation to a paused line").

The standard library only, like the rest of the build.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npm_package  # noqa: E402  (scripts/npm_package.py)

VERSION = "4.68.4"
INTEGRITY = ("sha512-srqYEUEX0/yC9zvIaBHrIwj9z3WlaeTxrY+8h4RgsORpnZBTcWnEO+bI3u9fE2CljN9TRaKKjtr"
             "Q0IWiCF2ECA==")
ENTRY = Path("dist") / "es" / "rollup.js"


def version_of(folder: Path) -> str | None:
    try:
        return json.loads((folder / "package.json").read_text("utf-8")).get("version")
    except (OSError, ValueError):
        return None


def cache_dir() -> Path:
    return npm_package.cache_root() / f"rollup-{VERSION}"


def fetch(folder: Path) -> Path:
    """The package unpacked into `folder` (replaced whole, never half written)."""
    data = npm_package.download(f"/@rollup/wasm-node/-/wasm-node-{VERSION}.tgz", INTEGRITY,
                                "rollup")
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            name = Path(member.name)
            if not member.isfile() or name.parts[0] != "package" or ".." in name.parts:
                continue
            target = partial.joinpath(*name.parts[1:])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.extractfile(member).read())
    if version_of(partial) != VERSION or not (partial / ENTRY).is_file():
        raise SystemExit(f"rollup: the fetched package is not @rollup/wasm-node {VERSION}")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return folder


def find() -> Path:
    """The folder of the Rollup package (VERSION), fetched on first use."""
    given = os.environ.get("LOOPSTEP_ROLLUP")
    if given:
        if version_of(Path(given)) != VERSION:
            raise SystemExit(f"rollup: LOOPSTEP_ROLLUP={given} is not Rollup {VERSION}")
        return Path(given)
    cached = cache_dir()
    # the cache's folder is named by the version and only ever renamed into place whole,
    # by fetch() once it has checked the package: finding its entry is enough
    if (cached / ENTRY).is_file():
        return cached
    return fetch(cached)


if __name__ == "__main__":
    print(find())
