// Boot through web/static/js/boot/boot.js in Node and record a block on each path.
//
//   node tests/node/boot_check.mjs
//
// 1. the fast path (snapshot) records s06/run_subagent "normal" and prints 完成： answered;
// 2. a corrupt snapshot.bin (bad checksum, or one that does not restore) falls back to
//    the trimmed stdlib, which records the same;
// 3. a boot set built for another wasm falls back to the stock boot;
// 4. a module the trimmed zip lacks still imports (the stock zip is loaded on demand);
// 5. on the snapshot path the trimmed zip is loaded on the first import that needs it;
// 6. the snapshot's recorder is kept when the served sources' digest is that of the ones it
//    was imported from, and forgotten (then imported from the files) when it is another.
// Prints one JSON line per check; exits non-zero on the first failure.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const VERSION = readFileSync(path.join(ROOT, "web/vendor/PYODIDE_VERSION"), "utf8").trim();
const INDEX = path.join(ROOT, `web/vendor/pyodide-${VERSION}`) + "/";
const BOOT = path.join(ROOT, `web/vendor/loopstep-boot-${VERSION}`) + "/";
const { bootPyodide } = await import(pathToFileURL(path.join(ROOT, "web/static/js/boot/boot.js")).href);
const { settleRecorder } = await import(
  pathToFileURL(path.join(ROOT, "web/static/js/boot/snapshot-runtime.js")).href);
const module = await import(pathToFileURL(INDEX + "pyodide.mjs").href);

function files(dir, keep) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

function writeTree(pyodide, from, to, keep) {
  for (const file of files(from, keep)) {
    const target = `${to}/${path.relative(from, file).split(path.sep).join("/")}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(file));
  }
}

function record(pyodide, { runtime = true } = {}) {
  if (runtime) {
    writeTree(pyodide, path.join(ROOT, "runtime"), "/loopstep/runtime",
      (n) => n.endsWith(".py") && !n.startsWith("test"));
  }
  for (const root of ["runtime/lessons", "stubs"]) {
    writeTree(pyodide, path.join(ROOT, root), "/loopstep/lessons", (n) => /\.(py|toml)$/.test(n));
  }
  return JSON.parse(pyodide.runPython(`
import json, sys
sys.path.insert(0, "/loopstep")
from runtime.recorder import record
json.dumps(record("s06", "run_subagent", "normal", roots=["/loopstep/lessons"]))
`));
}

let trimmedLoads = 0; // how often the trimmed zip was loaded on demand (snapshot path)
const options = (readBytes) => ({
  indexURL: INDEX, bootURL: BOOT, snapshot: true, stdout: () => {}, stderr: () => {},
  readBytes, loadStockSync: () => readFileSync(INDEX + "python_stdlib.zip"),
  loaderFor: (url) => () => {
    trimmedLoads += 1;
    return readFileSync(url);
  },
});
const plain = async (p) => readFileSync(p);

async function check(name, readBytes, expectedPath, extra) {
  const started = performance.now();
  const { pyodide, path: took, fallbacks } = await bootPyodide(module, options(readBytes));
  const bootMs = Math.round(performance.now() - started);
  assert.equal(took, expectedPath, `${name}: booted via ${took} (${fallbacks.join("; ")})`);
  const trace = record(pyodide);
  assert.equal(trace.status, "finished", `${name}: ${trace.message}`);
  assert.ok(trace.stdout.includes("完成： answered"), `${name}: stdout ${trace.stdout}`);
  // every path's Python has the page's string-hash seed, 0 (boot.js HASH_SEED)
  assert.equal(pyodide.runPython("import sys; sys.flags.hash_randomization"), 0, `${name}: hash seed`);
  const more = extra ? extra(pyodide) : {};
  console.log(JSON.stringify({ check: name, path: took, bootMs, fallbacks, ...more }));
}

await check("fast", plain, "snapshot", (pyodide) => {
  const manifest = JSON.parse(readFileSync(BOOT + "boot.json", "utf8"));
  const before = trimmedLoads;
  // csv is in the trimmed zip but not imported before the snapshot: the zip loads now
  assert.equal(pyodide.runPython("import csv; csv.QUOTE_ALL"), 1);
  assert.equal(pyodide.FS.stat("/lib/python314.zip").size, manifest.stdlib.size);
  assert.equal(trimmedLoads, 1, "the trimmed zip was not loaded exactly once");
  const value = pyodide.runPython(
    "import encodings.cp1252, xml.dom.minidom\nxml.dom.minidom.parseString('<a>é</a>').documentElement.tagName");
  assert.equal(value, "a", "a module missing from the trimmed zip did not import");
  return { lazyImport: "ok", trimmedZipLoadedByTheRecording: before === 1 };
});
await check("corrupt snapshot", async (p) => {
  const bytes = new Uint8Array(readFileSync(p));
  if (p.endsWith("snapshot.bin")) bytes[bytes.length >> 1] ^= 0xff;
  return bytes;
}, "trimmed");
// A snapshot that passes the checksum but does not restore (its header is wrong).
const broken = new Uint8Array(readFileSync(BOOT + "snapshot.bin"));
broken.fill(0, 0, 16);
const { createHash } = await import("node:crypto");
const brokenSha = createHash("sha256").update(broken).digest("hex");
await check("snapshot that does not restore", async (p) => {
  if (p.endsWith("snapshot.bin")) return broken;
  if (!p.endsWith("boot.json")) return readFileSync(p);
  const manifest = JSON.parse(readFileSync(p, "utf8"));
  manifest.snapshot.sha256 = brokenSha;
  return new TextEncoder().encode(JSON.stringify(manifest));
}, "trimmed");
await check("other wasm", async (p) => {
  if (!p.endsWith("boot.json")) return readFileSync(p);
  const manifest = JSON.parse(readFileSync(p, "utf8"));
  manifest.wasmSha256 = "0".repeat(64);
  return new TextEncoder().encode(JSON.stringify(manifest));
}, "stock");

/** The recorder's sources as the worker gets them ([{path, bytes}]), `edit` applied: the
 * modules the built boot set lists (web/bundles.py runtime_modules when it was built). */
function recorderFiles(edit = {}) {
  const manifest = JSON.parse(readFileSync(BOOT + "boot.json", "utf8"));
  return Object.keys(manifest.snapshot.runtime.sources).sort().map((name) => {
    const bytes = new Uint8Array(readFileSync(path.join(ROOT, name)));
    return { path: name, bytes: edit[name] ? edit[name](bytes) : bytes };
  });
}

// The digest of the served sources, as the page's runtime config carries it (web/bundles.py
// runtime_digest; tests/test_boot_node.py passes it): one of other sources is another text.
const SERVED_DIGEST = process.env.LOOPSTEP_RUNTIME_DIGEST;
assert.ok(SERVED_DIGEST, "LOOPSTEP_RUNTIME_DIGEST: the served recorder's digest is required");

async function checkRecorder(name, edit, digest, expected) {
  const { pyodide, path: took, recorder } = await bootPyodide(module, options(plain));
  assert.equal(took, "snapshot", `${name}: booted via ${took}`);
  assert.ok(recorder, `${name}: boot.json names no recorder in the snapshot`);
  const imported = () => pyodide.runPython("import sys; 'runtime.recorder' in sys.modules");
  assert.equal(imported(), true, `${name}: the snapshot has not imported the recorder`);
  const served = recorderFiles(edit);
  for (const { path: where, bytes } of served) {
    pyodide.FS.mkdirTree(`/loopstep/${where}`.slice(0, `/loopstep/${where}`.lastIndexOf("/")));
    pyodide.FS.writeFile(`/loopstep/${where}`, bytes);
  }
  const from = settleRecorder(pyodide, recorder, digest, "/loopstep");
  assert.equal(from, expected, `${name}: the recorder came from ${from}`);
  assert.equal(imported(), expected === "snapshot", `${name}: runtime.recorder kept or dropped`);
  const trace = record(pyodide, { runtime: false });
  assert.equal(trace.status, "finished", `${name}: ${trace.message}`);
  const items = pyodide.runPython("from runtime.trace import values; values.MAX_ITEMS");
  console.log(JSON.stringify({ check: name, path: took, recorder: from, maxItems: items }));
  // the snapshot was imported from another folder: not the recorder the worker would use
  assert.equal(settleRecorder(pyodide, { ...recorder, folder: "/elsewhere" }, digest,
    "/loopstep"), "files", `${name}: a recorder from another folder was kept`);
}

await checkRecorder("snapshot recorder", {}, SERVED_DIGEST, "snapshot");
await checkRecorder("changed recorder", {
  "runtime/trace/values.py": (bytes) => new Uint8Array([...bytes, ...new TextEncoder().encode(
    "\nMAX_ITEMS = 7  # changed after the snapshot was built\n")]),
}, "0".repeat(64), "files");
