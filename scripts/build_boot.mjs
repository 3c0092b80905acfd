// Build the fast boot set (web/vendor/loopstep-boot-<version>/) with the vendored Pyodide itself:
//   python_stdlib.zip  the standard library trimmed to what the lessons and the recorder
//                      import (plus a margin), precompiled to .pyc by Pyodide's CPython
//   snapshot.bin       a memory snapshot of a booted Pyodide with those modules and the
//                      recorder (runtime/) imported (a private Pyodide API, tied to the
//                      exact build: see boot.json),
//                      stored XOR the wasm's data segments, its zero runs left out
//                      (web/static/js/boot/snapshot-delta.js); made in a Node with
//                      WebAssembly stack switching (JSPI) on, since Pyodide chooses
//                      `pyodide.ffi.run_sync` once, while Python starts, and the snapshot
//                      keeps that choice (boot.json `snapshot.stackSwitching`)
//   empty.zip          an empty zip that stands in for python_stdlib.zip after a snapshot
//                      restore until an import needs the real one (boot.js)
//   boot.json          versions and sha256 of everything the fast path must match
//   *.br, *.gz, SHA256SUMS
//
//   node scripts/build_boot.mjs --config CONFIG.json [--out DIR] [--no-snapshot] [--alongside SCRIPT]
// --alongside SCRIPT: while the set's .br/.gz copies are made (the snapshot's brotli is the
// longest step), `node SCRIPT --config CONFIG.json --boot STAGED` runs on the set as staged
// (every file it boots from written, before the folder takes its place): the shipped traces
// (scripts/build_shipped_traces.mjs), written into STAGED/traces, move in with it.
// CONFIG.json (written by scripts/build.py, `make build`): {"version", "python",
// "pyodideDir", "bootDir", "runtimeDir", "runtimeModules": [paths relative to runtimeDir],
// "snapshotDelta": the page's module that stores the snapshot (web/static/js/boot/snapshot-delta.js)}
// (internal: node scripts/build_boot.mjs --snapshot-child CONFIG.json ZIP MODULES.json OUT)
import { createHash } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import {
  mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const configAt = process.argv.indexOf(process.argv[2] === "--snapshot-child" ? "--snapshot-child" : "--config") + 1;
if (configAt === 0 || !process.argv[configAt]) {
  console.error("usage: node scripts/build_boot.mjs --config CONFIG.json [--out DIR] [--no-snapshot] " +
    "[--alongside SCRIPT]");
  process.exit(2);
}
const CONFIG_PATH = process.argv[configAt];
const CONFIG = JSON.parse(readFileSync(CONFIG_PATH, "utf8"));
const INDEX = CONFIG.pyodideDir.replace(/\/?$/, "/");
// Lessons roots used together: the bundled lessons, then the benchmark lesson.
const LESSON_ROOTS = [
  [path.join(ROOT, "runtime", "lessons"), path.join(ROOT, "stubs")],
  [path.join(ROOT, "bench", "lessons")],
];
// The recorder, imported into the snapshot from the folder the worker puts it in
// (web/assets.py WORKER_ROOT); boot.json lists the sources it was imported from.
const RUNTIME = CONFIG.runtimeDir;
const WORKER_ROOT = CONFIG.workerRoot;
// the worker's entry, which imports the recorder (runtime/browser/worker.py)
const RECORDER = "runtime.browser.worker";
// the boot's import hooks, run before the recorder's files are there: boot.json carries them
const HOOKS = "browser/boot_hooks.py";
const quiet = { stdout: () => {}, stderr: () => {} };
const { packZeroRuns, xorDataSegments } = await import(
  pathToFileURL(CONFIG.snapshotDelta).href);
// An empty zip: only the end-of-central-directory record.
const EMPTY_ZIP = Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

const sha256 = (data) => createHash("sha256").update(data).digest("hex");
/** One digest of files given as {path: sha256}, as web/assets.py files_digest makes it
 * (tests/test_boot_artifacts.py checks that the two agree). */
const filesDigest = (sums) => sha256(Object.keys(sums).sort()
  .map((name) => `${name}\0${sums[name]}\n`).join(""));

function filesUnder(dir, keep) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") found.push(...filesUnder(full, keep));
    else if (entry.isFile() && keep(entry.name)) found.push(full);
  }
  return found.sort();
}

function copyTree(pyodide, from, to, keep) {
  for (const file of filesUnder(from, keep)) {
    const target = `${to}/${path.relative(from, file).split(path.sep).join("/")}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(file));
  }
}

async function load(options = {}) {
  const { loadPyodide } = await import(pathToFileURL(INDEX + "pyodide.mjs").href);
  return loadPyodide({ indexURL: INDEX, ...quiet, ...options });
}

function helper(pyodide) {
  pyodide.FS.mkdirTree("/build");
  pyodide.FS.writeFile("/build/build_boot.py", readFileSync(path.join(HERE, "build_boot.py")));
  pyodide.runPython("import sys; sys.path.insert(0, '/build')");
  return pyodide.pyimport("build_boot");
}

/** Record every lesson in a stock Pyodide; build the trimmed zip from what was imported. */
async function trimmedStdlib() {
  const pyodide = await load();
  const build = helper(pyodide);
  writeRuntime(pyodide);
  const roots = LESSON_ROOTS.map((group, i) => group.map((root, j) => {
    copyTree(pyodide, root, `/loopstep/roots/${i}-${j}`, (n) => /\.(py|toml)$/.test(n));
    return `/loopstep/roots/${i}-${j}`;
  }));
  const used = JSON.parse(build.collect("/loopstep", JSON.stringify(roots), 2000));
  const manifest = JSON.parse(build.build_zip(JSON.stringify(used.members), "/build/stdlib.zip"));
  const zip = pyodide.FS.readFile("/build/stdlib.zip");
  return { zip, used, manifest };
}

/** Make this process's entropy and wall clock fixed sequences, so that the snapshot is
 * reproducible (hash secret, random's state, time stamps taken while importing).
 * boot.js reseeds `random` after each restore. */
async function fixedEntropy() {
  const nodeCrypto = (await import("node:crypto")).default;
  let state = 0x9e3779b9;
  const fill = (view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
      bytes[i] = state & 0xff;
    }
    return view;
  };
  nodeCrypto.randomFillSync = fill;
  Object.defineProperty(globalThis.crypto, "getRandomValues", { value: fill });
  let clock = Date.UTC(2025, 0, 1);
  Date.now = () => (clock += 1);
  let monotonic = 0;
  performance.now = () => (monotonic += 0.25);
}

/** Node's options that give WebAssembly stack switching (JSPI: `WebAssembly.Suspending`, or
 * Node 20's `WebAssembly.Suspender`), for the process that makes the snapshot: Pyodide's
 * `run_sync` is its real one in the snapshot only if Python started with JSPI there
 * (jsproxy.c `jsproxy_init`), and the page's threads need it (runtime/world/stacks.py).
 * Null when this Node has none. */
function stackSwitchingOptions() {
  const probe = "process.exit('Suspending' in WebAssembly || 'Suspender' in WebAssembly ? 0 : 1)";
  for (const options of [[], ["--experimental-wasm-jspi"], ["--experimental-wasm-stack-switching"]]) {
    // (an option this Node does not know ends the probe with "bad option")
    if (spawnSync(process.execPath, [...options, "-e", probe]).status === 0) return options;
  }
  return null;
}

/** In a fresh process: boot on the trimmed zip, import the modules and the recorder,
 * snapshot memory. */
async function snapshotChild(zipPath, modulesPath, outPath) {
  await fixedEntropy();
  // the string-hash seed every boot path of the page has (boot.js HASH_SEED)
  const pyodide = await load({ stdLibURL: zipPath, _makeSnapshot: true, env: { PYTHONHASHSEED: "0" } });
  const build = helper(pyodide);
  const failed = JSON.parse(build.preimport(readFileSync(modulesPath, "utf8")));
  writeRuntime(pyodide);
  const modules = JSON.parse(build.preload_runtime(WORKER_ROOT, RECORDER));
  build.destroy();
  pyodide.runPython("import sys; sys.path.remove('/build'); sys.modules.pop('build_boot')");
  pyodide.runPython("import gc; gc.collect()");
  const zeroed = zeroUnused(pyodide._module);
  const snapshot = pyodide.makeMemorySnapshot();
  writeFileSync(outPath, snapshot);
  const stackSwitching = Boolean(pyodide._module.jspiSupported);
  process.stdout.write(JSON.stringify({ failed, modules, zeroed, stackSwitching }));
}

/** Zero the memory that holds nothing live, so that the snapshot stores runs of zeros
 * there (left out of snapshot.bin) instead of stale bytes: malloc's free chunks (taken,
 * zeroed and given back, from the largest down, never growing the memory) and the part
 * of the wasm stack below the current frame. Returns the bytes zeroed. */
function zeroUnused(M) {
  const limit = M.HEAPU8.length;
  const taken = [];
  let zeroed = 0;
  for (let size = 1 << 24; size >= 16; ) {
    // a request malloc cannot meet from a free chunk extends the break: keep that below
    // the memory's end, so that the memory does not grow
    if (M._sbrk(0) + size + 65536 > limit) {
      size >>= 1;
      continue;
    }
    const at = M._malloc(size);
    if (M.HEAPU8.length !== limit) throw new Error("the memory grew while zeroing free chunks");
    if (!at) {
      size >>= 1;
      continue;
    }
    M.HEAPU8.fill(0, at, at + size);
    taken.push(at);
    zeroed += size;
  }
  for (const at of taken.reverse()) M._free(at);
  const end = M._emscripten_stack_get_end();
  const current = M._emscripten_stack_get_current();
  M.HEAPU8.fill(0, end, current);
  return { freeChunks: zeroed, stack: current - end };
}

/** The recorder's modules, as the worker lays them out (web/bundles.py runtime_modules,
 * handed over in the config). */
function runtimeSources() {
  return CONFIG.runtimeModules;
}

function writeRuntime(pyodide) {
  for (const name of runtimeSources()) {
    const target = `${WORKER_ROOT}/runtime/${name}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(path.join(RUNTIME, name)));
  }
}

/** `node ...args` in `cwd`, its output shown: resolves once it exited 0. */
function node(args, cwd, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code})`))));
  });
}

function precompress(dir, names) {
  return node([path.join(HERE, "precompress.mjs"), ...names], dir, "precompress");
}

async function main(argv) {
  let dest = CONFIG.bootDir;
  let withSnapshot = true;
  let alongside = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--config") i++;
    else if (argv[i] === "--out") dest = path.resolve(argv[++i]);
    else if (argv[i] === "--no-snapshot") withSnapshot = false;
    else if (argv[i] === "--alongside") alongside = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  const wasm = readFileSync(INDEX + "pyodide.asm.wasm");
  const started = Date.now();
  const { zip, used, manifest } = await trimmedStdlib();
  // Build beside the destination and swap at the end: a served folder is never half-built.
  const out = `${dest}.building`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "python_stdlib.zip"), zip);
  const modules = used.modules;
  const files = ["python_stdlib.zip"];
  let snapshot = null;
  if (withSnapshot) {
    const modulesPath = path.join(out, ".modules.json");
    writeFileSync(modulesPath, JSON.stringify(modules));
    const jspi = stackSwitchingOptions();
    if (!jspi) {
      console.warn("build_boot: this Node has no WebAssembly stack switching: the snapshot's " +
        "Python cannot run threads in the page (boot.json snapshot.stackSwitching false)");
    }
    const child = spawnSync(process.execPath, [...(jspi ?? []), fileURLToPath(import.meta.url),
      "--snapshot-child", CONFIG_PATH, path.join(out, "python_stdlib.zip"), modulesPath,
      path.join(out, "snapshot.bin")], { encoding: "utf8", maxBuffer: 1 << 24 });
    rmSync(modulesPath);
    if (child.status !== 0) throw new Error(`snapshot failed:\n${child.stderr}`);
    const { failed, modules: runtimeModules, zeroed, stackSwitching } = JSON.parse(child.stdout);
    console.log(`zeroed before the snapshot: ${JSON.stringify(zeroed)}`);
    const bytes = packZeroRuns(xorDataSegments(
      new Uint8Array(readFileSync(path.join(out, "snapshot.bin"))), new Uint8Array(wasm)));
    writeFileSync(path.join(out, "snapshot.bin"), bytes);
    const sources = Object.fromEntries(runtimeSources().map(
      (name) => [`runtime/${name}`, sha256(readFileSync(path.join(RUNTIME, name)))]));
    snapshot = { file: "snapshot.bin", size: bytes.length, sha256: sha256(bytes),
      encoding: "zero-runs+xor-data-segments", failed,
      // whether its Python can suspend a stack where the browser has JSPI (the worker's
      // threads: runtime/world/stacks.py)
      stackSwitching,
      // the recorder as imported into the snapshot: the worker imports it again from the
      // files the page serves unless their digest (the page's runtime config) is this
      // one (web/static/js/boot/snapshot-runtime.js)
      runtime: { folder: WORKER_ROOT, module: RECORDER, modules: runtimeModules, sources,
        digest: filesDigest(sources) } };
    writeFileSync(path.join(out, "empty.zip"), EMPTY_ZIP);
    files.push("snapshot.bin", "empty.zip");
  }
  const stockZip = readFileSync(INDEX + "python_stdlib.zip");
  const boot = {
    format: 1,
    pyodide: CONFIG.version,
    python: CONFIG.python,
    wasmSha256: sha256(wasm),
    stockStdlibSha256: sha256(stockZip),
    stdlib: { file: "python_stdlib.zip", size: zip.length, sha256: sha256(zip),
      files: manifest.files },
    snapshot,
    // Stands in for the trimmed zip after a snapshot restore, until an import needs it.
    placeholder: snapshot ? "empty.zip" : null,
    // Stdlib modules only in the stock zip: importing one makes boot.js load it.
    lazy: manifest.lazy,
    preimported: modules,
    hooks: { file: `runtime/${HOOKS}`, source: readFileSync(path.join(RUNTIME, HOOKS), "utf8") },
    recorded: used.runs.length,
  };
  writeFileSync(path.join(out, "boot.json"), JSON.stringify(boot, null, 1) + "\n");
  files.push("boot.json");
  // both awaited: a failure of either is reported once both have ended
  const work = [precompress(out, files)];
  if (alongside) {
    work.push(node([alongside, "--config", CONFIG_PATH, "--boot", out], ROOT, path.basename(alongside)));
  }
  const ended = await Promise.allSettled(work);
  const failed = ended.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  const sums = files.flatMap((name) => [name, `${name}.br`, `${name}.gz`])
    .sort().map((name) => `${sha256(readFileSync(path.join(out, name)))}  ${name}\n`).join("");
  writeFileSync(path.join(out, "SHA256SUMS"), sums);
  rmSync(dest, { recursive: true, force: true });
  renameSync(out, dest);
  const sizes = readdirSync(dest).map((name) => `${name} ${statSync(path.join(dest, name)).size}`);
  console.log(`built ${dest} in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
    `(${used.runs.length} recordings; ${modules.length} modules)\n  ${sizes.join("\n  ")}`);
}

try {
  if (process.argv[2] === "--snapshot-child") await snapshotChild(...process.argv.slice(4, 7));
  else await main(process.argv.slice(2));
} catch (error) {
  console.error(`build_boot: ${error && error.message ? error.message : error}`);
  process.exit(1);
}
