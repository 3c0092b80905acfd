"""Bundle the page's modules and style sheets (part of `make build`, scripts/build.py).

    python3 scripts/build_page.py [--force]

web/static/js/page.js and everything it imports, statically or on first use, are split by
Rollup (scripts/rollup.py, a pinned version, run under Node by scripts/rollup_page.mjs)
into the page's script, web/static/js/bundle/page-<hash>.js, holding every module it
imports statically, and a chunk (chunk-<hash>.js) per set of views loaded on first use (a
literal `import()`), holding only what the script does not; esbuild (scripts/esbuild.py,
pinned too) minifies each, with a linked source map and a .gz copy. The page's style sheets
(module_graph.STYLES) become one minified sheet beside them (page-<hash>.css). The first
visit asks for one script and one sheet (docs/performance.md, "Navigation to a paused
line"); every file's name changes with its content: they are served immutable, and a
release re-downloads only the files that changed.

The Python worker (web/static/js/worker.js and the modules it imports, statically or on first
use) becomes one minified file beside them, worker-<hash>.js: a repeat visit starts the
worker from the cache, with no round trip to revalidate its modules one level at a time.

bundle/manifest.json names the files and the digest of the sources they were made from; the
server uses the bundle only while that digest is the sources' (web/module_graph.py), and
serves the modules one by one otherwise.
The standard library only (and Node for Rollup).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import esbuild  # noqa: E402  (scripts/esbuild.py)
import npm_package  # noqa: E402  (scripts/npm_package.py)
import rollup  # noqa: E402  (scripts/rollup.py)
import source_tree  # noqa: E402  (scripts/source_tree.py)

source_tree.as_package()
from loopstep.web import assets, module_graph  # noqa: E402

JS = module_graph.JS
STATIC = JS.parent
BUNDLE = module_graph.BUNDLE_DIR


def current() -> bool:
    """The bundle is that of the current sources, made by the pinned esbuild."""
    manifest = module_graph.bundle_manifest()
    return (module_graph.bundle_entry() is not None
            and manifest.get("esbuild") == esbuild.VERSION
            and manifest.get("rollup") == rollup.VERSION)


MINIFY = ["--bundle", "--format=esm", "--minify", "--sourcemap", "--target=es2022",
          "--charset=utf8", "--log-level=warning"]


def bundle(out: Path) -> dict:
    """Split page.js into its script and the chunks of its views loaded on first use
    (Rollup), minify each (esbuild), bundle the page's style sheets into one minified
    sheet and the worker into one minified script, into `out`; returns the manifest's
    names: {"entry": file, "style": file, "worker": file, "chunks": [file, …],
    "preload": […], "debug": […]}."""
    split = out / ".split"
    split.mkdir(parents=True)
    meta = split / "meta.json"
    node = npm_package.find_node()
    # the names Rollup gives are digests of what it wrote; the tools' versions and the
    # minifier's options go in a comment of that text (esbuild drops it), so that a new
    # version or option renames every file, as their bytes change
    salt = f"rollup {rollup.VERSION}, esbuild {esbuild.VERSION} {' '.join(MINIFY)}"
    done = subprocess.run([node, str(HERE / "rollup_page.mjs"), str(rollup.find()),
                           str(JS / module_graph.ENTRY), str(split), str(meta), salt], cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"build: rollup failed (exit {done.returncode})")
    outputs = json.loads(meta.read_text("utf-8"))
    executable = esbuild.find()
    # every import between the files stays as Rollup wrote it (external); esbuild reads
    # Rollup's source maps, so the minified files map to the modules themselves
    done = subprocess.run([executable, *sorted(str(split / o["file"]) for o in outputs),
                           *MINIFY, "--external:./*", f"--outdir={out}"], cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"build: esbuild failed (exit {done.returncode})")
    styles = split / "page.css"
    styles.write_text("".join(f'@import "{(STATIC / rel).as_posix()}";\n'
                              for rel in module_graph.STYLES), "utf-8")
    done = subprocess.run([executable, str(styles), "--bundle", "--minify", "--sourcemap",
                           "--charset=utf8", "--log-level=warning", "--entry-names=[name]-[hash]",
                           f"--outdir={out}"], cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"build: esbuild failed on the style sheets (exit {done.returncode})")
    shutil.rmtree(split)
    # the worker and every module it imports (its literal import()s too) in one file: it
    # loads nothing on demand that a chunk would save the first visit
    done = subprocess.run([executable, str(JS / module_graph.WORKER), *MINIFY,
                           "--entry-names=[name]-[hash]", f"--outdir={out}"], cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"build: esbuild failed on the worker (exit {done.returncode})")
    style = [p.name for p in out.glob("page-*.css")]
    worker = [p.name for p in out.glob("worker-*.js")]
    entry = [o["file"] for o in outputs if o["entry"]]
    if len(entry) != 1 or len(style) != 1 or len(worker) != 1:
        raise SystemExit(f"build: expected one script, one sheet and one worker, got {entry}, "
                         f"{style} and {worker}")
    return {"entry": entry[0], "style": style[0], "worker": worker[0],
            "chunks": sorted(o["file"] for o in outputs if not o["entry"]),
            # announced in the head with the entry: the files it imports statically (none
            # but itself when Rollup keeps them in), and (on a page with shipped traces)
            # those holding Debug's path and what they import
            "preload": static_closure(outputs, entry)[1:],
            "debug": static_closure(outputs, holding(outputs, module_graph.DEBUG_PATH))}


def holding(outputs: list[dict], modules) -> list[str]:
    """The output files that hold these modules (relative to web/static/js)."""
    wanted = {(JS / rel).resolve() for rel in modules}
    return sorted({o["file"] for o in outputs
                   if any(Path(m).resolve() in wanted for m in o["modules"])})


def static_closure(outputs: list[dict], names: list[str]) -> list[str]:
    """`names` and every output file they import statically, in the order first met."""
    by_name = {o["file"]: o for o in outputs}
    seen, queue = list(names), list(names)
    while queue:
        for name in by_name[queue.pop(0)]["imports"]:
            if name not in seen:
                seen.append(name)
                queue.append(name)
    return seen


def build(force: bool = False, log=print) -> bool:
    """Bundle unless the bundle is current; returns whether it bundled."""
    if not force and current():
        return False
    log("build: bundling the page's modules (scripts/build_page.py)")
    sources = module_graph.sources_digest()
    # made beside its place, so that the source map names the sources relative to it
    out = BUNDLE.with_name(f".{BUNDLE.name}-new")
    shutil.rmtree(out, ignore_errors=True)
    try:
        names = bundle(out)
        for name in [names["entry"], names["style"], names["worker"], *names["chunks"]]:
            assets.write_gz(out / name, (out / name).read_bytes())
        (out / module_graph.MANIFEST).write_text(json.dumps(
            {**names, "sources": sources, "esbuild": esbuild.VERSION, "rollup": rollup.VERSION},
            indent=1) + "\n",
            "utf-8")
        if module_graph.sources_digest() != sources:
            raise SystemExit("build: the page's modules changed while bundling; run it again")
        shutil.rmtree(BUNDLE, ignore_errors=True)
        out.rename(BUNDLE)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    module_graph.reread_bundle()
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="bundle even when current")
    args = parser.parse_args(argv)
    if not build(force=args.force):
        print("build: the page's bundle is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
