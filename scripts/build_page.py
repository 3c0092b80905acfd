"""Bundle the page's modules into one script (part of `make build`, scripts/build.py).

    python3 scripts/build_page.py [--force]

web/static/js/page.js and everything it imports, statically or on first use, are bundled
by esbuild (scripts/esbuild.py, a pinned version) into web/static/js/bundle/page-<hash>.js
(minified, a linked source map, a .gz copy); the page's style sheets (module_graph.STYLES)
are minified beside it, under names that change with their content too. A view loaded on
first use (a literal `import()`) goes to a chunk of its own (chunk-<hash>.js), fetched when
first used: the first visit asks for one script instead of some thirty modules
(docs/performance.md, "The page's modules in one file") and leaves the lazy views out of its
first download. Every file's name changes with its content: they are served immutable, and a
release re-downloads only the chunks that changed.

bundle/manifest.json names the entry and the digest of the sources it was made from; the
server uses the bundle only while that digest is the sources' (web/module_graph.py), and
serves the modules one by one otherwise. The worker (worker.js and boot/) is not bundled.
The standard library only.
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
            and manifest.get("esbuild") == esbuild.VERSION and "chunks" in manifest)


def bundle(out: Path) -> dict:
    """Bundle page.js (its views loaded on first use split into chunks) and minify the page's
    style sheets into `out`; returns the manifest's names: {"entry": file, "styles":
    {"css/x.css": file}, "chunks": [file, …]}."""
    executable = esbuild.find()
    meta = out / "meta.json"
    sources = [JS / module_graph.ENTRY] + [STATIC / rel for rel in module_graph.STYLES]
    done = subprocess.run(
        [executable, *map(str, sources), "--bundle", "--format=esm", "--minify",
         "--sourcemap", "--target=es2022", "--charset=utf8", "--log-level=warning",
         # the views a page imports on first use go to chunks of their own, named by
         # content: out of the first download, and cached across releases while unchanged
         "--splitting", "--chunk-names=chunk-[hash]",
         "--entry-names=[name]-[hash]", f"--outdir={out}", f"--metafile={meta}"],
        cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"build: esbuild failed (exit {done.returncode})")
    outputs = json.loads(meta.read_text("utf-8"))["outputs"]
    meta.unlink()
    wanted = {p.resolve() for p in sources}
    made = {(ROOT / o["entryPoint"]).resolve(): Path(name).name
            for name, o in outputs.items()
            if o.get("entryPoint") and (ROOT / o["entryPoint"]).resolve() in wanted}
    if set(made) != wanted:
        raise SystemExit(f"build: esbuild wrote {sorted(made.values())} for {len(sources)} entries")
    chunks = sorted(Path(name).name for name, o in outputs.items()
                    if name.endswith(".js") and Path(name).name not in made.values())
    entry = made[sources[0].resolve()]
    return {"entry": entry,
            "styles": {rel: made[(STATIC / rel).resolve()] for rel in module_graph.STYLES},
            "chunks": chunks,
            # announced in the head with the entry: the chunks it imports statically, and
            # (on a page with shipped traces) those holding Debug's path and what they import
            "preload": static_closure(outputs, [entry])[1:],
            "debug": static_closure(outputs, holding(outputs, module_graph.DEBUG_PATH))}


def holding(outputs: dict, modules) -> list[str]:
    """The output files (names) that hold these modules (relative to web/static/js)."""
    wanted = {(JS / rel).resolve() for rel in modules}
    return sorted({Path(name).name for name, o in outputs.items() if name.endswith(".js")
                   and any((ROOT / i).resolve() in wanted for i in o.get("inputs", {}))})


def static_closure(outputs: dict, names: list[str]) -> list[str]:
    """`names` and every output file they import statically, in the order first met."""
    by_name = {Path(name).name: o for name, o in outputs.items()}
    seen, queue = list(names), list(names)
    while queue:
        for imported in by_name[queue.pop(0)].get("imports", ()):
            name = Path(imported["path"]).name
            if imported.get("kind") == "import-statement" and name not in seen:
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
        for name in [names["entry"], *names["styles"].values(), *names["chunks"]]:
            assets.write_gz(out / name, (out / name).read_bytes())
        (out / module_graph.MANIFEST).write_text(json.dumps(
            {**names, "sources": sources, "esbuild": esbuild.VERSION}, indent=1) + "\n",
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
