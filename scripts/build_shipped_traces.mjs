// Record every block × preset of the bundled lessons as the page's worker would
// (web/static/js/worker.js): the vendored Pyodide booted from the boot set's memory
// snapshot by the page's own boot code (web/static/js/boot/boot.js), the recorder's and
// the lesson's files written where the worker writes them, the same recursion limit, step
// limit and roots. Writes <bootDir>/traces/ (web/shipped_traces.py describes it):
// <lesson>/<block>/<preset>.json (+ .br/.gz) and index.json.
//
//   node scripts/build_shipped_traces.mjs --config CONFIG.json [--boot DIR]
// --boot DIR: boot from the boot set in DIR (one being built: scripts/build_boot.mjs
// --alongside) and write DIR/traces, instead of the config's bootDir and traces.dir.
// CONFIG.json (scripts/build.py): {"pyodideDir", "bootDir", "runtimeDir", "runtimeModules", "workerRoot",
// "traces": {"dir", "format", "runtime", "maxSteps", "worker": worker.js's path,
//                "lessons": [{"id", "files": {"lessons/REL" or "runtime/REL": abs path}, "digest",
//                             "runs": {block: [preset, …]}}]}}
// A run whose program starts threads is recorded again with `callPromising`, as the worker
// does (worker.js `suspending`), so that its threads run as in CPython: this script runs
// itself again in a Node with WebAssembly stack switching on when it was not given it.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const configAt = process.argv.indexOf("--config") + 1;
if (configAt === 0 || !process.argv[configAt]) {
  console.error("usage: node scripts/build_shipped_traces.mjs --config CONFIG.json");
  process.exit(2);
}
const STACKS = "Suspending" in WebAssembly || "Suspender" in WebAssembly;
if (!STACKS && !process.env.LOOPSTEP_TRACES_CHILD) {
  // Node 20 calls it --experimental-wasm-stack-switching, later ones --experimental-wasm-jspi
  for (const option of ["--experimental-wasm-jspi", "--experimental-wasm-stack-switching"]) {
    const probe = "process.exit('Suspending' in WebAssembly || 'Suspender' in WebAssembly ? 0 : 1)";
    if (spawnSync(process.execPath, [option, "-e", probe]).status !== 0) continue;
    const child = spawnSync(process.execPath, [option, ...process.argv.slice(1)],
      { stdio: "inherit", env: { ...process.env, LOOPSTEP_TRACES_CHILD: "1" } });
    process.exit(child.status ?? 1);
  }
}
const CONFIG = JSON.parse(readFileSync(process.argv[configAt], "utf8"));
const JOB = CONFIG.traces;
const INDEX = CONFIG.pyodideDir.replace(/\/?$/, "/");
const bootAt = process.argv.indexOf("--boot") + 1;
const STAGED = bootAt ? process.argv[bootAt] : null;
const BOOT = (STAGED ?? CONFIG.bootDir).replace(/\/?$/, "/");
const DIR = STAGED ? path.join(STAGED, "traces") : JOB.dir;
const WORKER_ROOT = CONFIG.workerRoot; // web/assets.py WORKER_ROOT

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

function write(pyodide, files) {
  for (const { path: where, bytes } of files) {
    const target = `${WORKER_ROOT}/${where}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, bytes);
  }
}

async function boot() {
  const { bootPyodide } = await import(pathToFileURL(path.join(ROOT, "web/static/js/boot/boot.js")).href);
  const { settleRecorder } = await import(
    pathToFileURL(path.join(ROOT, "web/static/js/boot/snapshot-runtime.js")).href);
  const module = await import(pathToFileURL(INDEX + "pyodide.mjs").href);
  const booted = await bootPyodide(module, {
    indexURL: INDEX, bootURL: BOOT, snapshot: true, stdout: () => {}, stderr: () => {},
    readBytes: async (p) => readFileSync(p),
    loadStockSync: () => readFileSync(INDEX + "python_stdlib.zip"),
    loaderFor: (url) => () => readFileSync(url),
  });
  // the recorder's files only when the snapshot's is not these sources, as the worker does
  const recorder = settleRecorder(booted.pyodide, booted.recorder, JOB.runtime, WORKER_ROOT);
  if (recorder === "files") {
    write(booted.pyodide, CONFIG.runtimeModules.map((rel) => ({
      path: `runtime/${rel}`, bytes: new Uint8Array(readFileSync(path.join(CONFIG.runtimeDir, rel))),
    })));
  }
  return { pyodide: booted.pyodide, path: booted.path, recorder };
}

async function main() {
  const started = Date.now();
  const { pyodide, path: took, recorder } = await boot();
  // the worker's own entry (runtime/browser/worker.py), imported as the worker imports it
  const sysPath = pyodide.pyimport("sys").path;
  if (!sysPath.toJs().includes(WORKER_ROOT)) sysPath.insert(0, WORKER_ROOT);
  const entry = pyodide.pyimport("runtime.browser.worker");
  const out = `${DIR}.building`;
  rmSync(out, { recursive: true, force: true });
  const written = [];
  const lessons = {};
  for (const lesson of JOB.lessons) {
    write(pyodide, Object.entries(lesson.files).map(([where, abs]) => ({
      path: where, bytes: new Uint8Array(readFileSync(abs)),
    })));
    const version = createHash("sha256");
    for (const [block, presets] of Object.entries(lesson.runs)) {
      for (const preset of presets) {
        const roots = pyodide.toPy([`${WORKER_ROOT}/lessons`]);
        let packed = entry.record(lesson.id, block, preset, roots, JOB.maxSteps);
        // threads: again on stacks that suspend (runtime/world/stacks.py), as the worker does
        if (entry.threads_wanted() && STACKS) {
          packed = await entry.record.callPromising(lesson.id, block, preset, roots, JOB.maxSteps);
        }
        roots.destroy();
        const rel = `${lesson.id}/${block}/${preset}.json`;
        mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
        writeFileSync(path.join(out, rel), packed);
        version.update(`${rel}\0${sha256(packed)}\n`);
        written.push(rel);
      }
    }
    lessons[lesson.id] = { files: lesson.digest, version: version.digest("hex").slice(0, 16),
      runs: lesson.runs };
  }
  const done = spawnSync(process.execPath, [path.join(HERE, "precompress.mjs"), ...written],
    { cwd: out, stdio: "inherit" });
  if (done.status !== 0) throw new Error("precompress failed");
  writeFileSync(path.join(out, "index.json"), JSON.stringify({
    format: JOB.format, runtime: JOB.runtime, maxSteps: JOB.maxSteps, lessons,
  }, null, 1) + "\n");
  rmSync(DIR, { recursive: true, force: true });
  renameSync(out, DIR);
  console.log(`recorded ${written.length} block × preset runs (boot path ${took}, recorder ` +
    `${recorder}) into ${DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

await main();
