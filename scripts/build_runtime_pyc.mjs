// Build web/static/pyc/runtime.cpython-314.bin (and its .br/.gz copies): the recorder's modules (runtime/*.py)
// compiled by the vendored Pyodide's own CPython into checked hash-based .pyc files
// (PEP 552), so that the browser worker imports them without compiling them. Python
// checks each one against its source when it imports it and compiles the source
// instead when they differ: a stale bundle is slower, never wrong
// (tests/test_runtime_pyc.py fails while it is stale).
//
// Format: "LSPYC1\n", the length of a JSON index as 4 bytes big-endian, the index
// [{"path": "runtime/__pycache__/NAME.cpython-314.pyc", "size": N}, …] and the files'
// bytes in that order (web/static/js/worker.js writes them under the worker's sys.path).
//
//   node scripts/build_runtime_pyc.mjs
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const VERSION = "314.0.8";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const { loadPyodide } = await import(
  path.join(ROOT, "web", "vendor", `pyodide-${VERSION}`, "pyodide.mjs"));
const pyodide = await loadPyodide({
  indexURL: path.join(ROOT, "web", "vendor", `pyodide-${VERSION}`) + "/",
  stdout: () => {}, stderr: () => {},
});

const py = (dir) => readdirSync(path.join(ROOT, "runtime", dir)).filter((n) => n.endsWith(".py"));
const names = [...py("."), ...py("standins").map((n) => `standins/${n}`)].sort();
pyodide.FS.mkdirTree("/build/runtime/standins");
for (const name of names) {
  pyodide.FS.writeFile(`/build/runtime/${name}`, readFileSync(path.join(ROOT, "runtime", name)));
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
const dir = path.join(ROOT, "web", "static", "pyc");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `runtime.${tag}.bin`);
writeFileSync(file, out);
// its .br and .gz copies, served to the browsers that accept them
const done = spawnSync(process.execPath, [path.join(HERE, "precompress.mjs"), file], { stdio: "inherit" });
if (done.status !== 0) process.exit(done.status ?? 1);
console.log(`web/static/pyc/runtime.${tag}.bin: ${index.length} modules, ${out.length} bytes`);
