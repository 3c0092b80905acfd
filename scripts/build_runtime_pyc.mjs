// Build the precompiled recorder (web/static/pyc/runtime.<cache tag>.bin, with its .br/.gz
// copies): the recorder's modules compiled by the vendored Pyodide's own CPython into
// checked hash-based .pyc files (PEP 552), so that the browser worker imports them without
// compiling them. Python checks each one against its source when it imports it and
// compiles the source instead when they differ: a stale bundle is slower, never wrong
// (tests/test_runtime_pyc.py fails while it is stale).
//
// Format: "LSPYC1\n", the length of a JSON index as 4 bytes big-endian, the index
// [{"path": "runtime/[SUB/]__pycache__/NAME.<cache tag>.pyc", "size": N}, …] and the
// files' bytes in that order (web/static/js/worker.js writes them under the worker's
// sys.path).
//
//   node scripts/build_runtime_pyc.mjs --config CONFIG.json
// CONFIG.json (written by scripts/build.py): {"pyodideDir", "runtimeDir",
// "runtimeModules": [paths relative to runtimeDir], "pycFile"}
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
if (process.argv[2] !== "--config" || !process.argv[3]) {
  console.error("usage: node scripts/build_runtime_pyc.mjs --config CONFIG.json (run by scripts/build.py)");
  process.exit(2);
}
const config = JSON.parse(readFileSync(process.argv[3], "utf8"));
const indexURL = config.pyodideDir.replace(/\/?$/, "/");
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });

const names = config.runtimeModules;
for (const name of names) {
  const target = `/build/runtime/${name}`;
  pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
  pyodide.FS.writeFile(target, readFileSync(path.join(config.runtimeDir, name)));
}
const compiled = pyodide.runPython(`
import importlib.util, py_compile
mode = py_compile.PycInvalidationMode.CHECKED_HASH
out = []
for name in NAMES:
    source = "/build/runtime/" + name
    target = importlib.util.cache_from_source(source)
    py_compile.compile(source, cfile=target, dfile=source, doraise=True, invalidation_mode=mode)
    out.append(target.removeprefix("/build/"))
out
`, { globals: pyodide.toPy({ NAMES: names }) }).toJs();

const index = [];
const parts = [];
for (const rel of compiled) {
  const bytes = pyodide.FS.readFile(`/build/${rel}`);
  index.push({ path: rel, size: bytes.length });
  parts.push(bytes);
}
const head = new TextEncoder().encode(JSON.stringify(index));
const length = new Uint8Array(4);
new DataView(length.buffer).setUint32(0, head.length);
const out = Buffer.concat([Buffer.from("LSPYC1\n"), length, head, ...parts]);
const tag = pyodide.runPython("import sys; sys.implementation.cache_tag");
const file = config.pycFile;
if (path.basename(file) !== `runtime.${tag}.bin`) {
  throw new Error(`the vendored Pyodide's cache tag is ${tag}, not the one in ${file} (web/assets.py)`);
}
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, out);
// its .br and .gz copies, served to the browsers that accept them
const done = spawnSync(process.execPath, [path.join(HERE, "precompress.mjs"), file], { stdio: "inherit" });
if (done.status !== 0) process.exit(done.status ?? 1);
console.log(`${path.basename(file)}: ${index.length} modules, ${out.length} bytes`);
