// The Python runtime: a module Web Worker that boots Pyodide and records traces.
//
// Protocol (docs/design.md): main → worker `boot` {base, config} (config: the page's
// runtime data island, its URLs relative to `base`) and `record` {id, lesson, block,
// scenario, maxSteps, setup?, probes?} (`setup`: the reader's setup text, only for
// scenario "custom"; `probes`: breakpoint conditions, hit counts, logpoints and watches,
// see runtime/probes.py);
// worker → main `progress` {loaded, total}, `ready` {python, path, marks, compiled, stale}
// (`compiled`: how many precompiled modules were written, `stale`: those whose source
// differs, so that Python compiled the source), `trace` {id, json} (the packed trace),
// `failed` {id?, message, boot?, fatal?}. `fatal`: Pyodide itself broke (e.g. the
// browser's stack overflowed under C recursion) and this worker can record no more.
//
// A wasm that cannot load fails the boot at once instead of leaving loadPyodide
// waiting: a missing file or one not served as application/wasm is caught when it
// is fetched, bytes that do not compile when WebAssembly rejects them.

// boot.js is imported when the boot message arrives, beside pyodide.mjs: a static import
// would add a round trip before this worker could start.
const bootModule = () => import("./boot.js");
let pycImport = null;
const pycModule = () => (pycImport ??= import("./pyc-bundle.js"));

let pyodide = null;
let bootPath = null; // "snapshot" | "trimmed" | "stock": which way Pyodide came up
let recordJson = null;
let roots = [];

// Python frames allowed: deeper recursion raises RecursionError instead of
// overflowing the browser's stack (fatal in Pyodide). Measured in Chromium's
// worker: recursion through a builtin (map) overflows past ~500 frames, plain
// recursion past ~3,000; the recorder's own frames need a margin on top.
const RECURSION_LIMIT = 400;

// Rejects as soon as the boot set is known to be unusable (checkWasm, watchWebAssembly).
let failBoot = () => {};
const bootFailed = new Promise((_, reject) => {
  failBoot = reject;
});
bootFailed.catch(() => {});

const post = (message) => self.postMessage(message);

// Download progress is posted at most this often: each post costs the page a style,
// layout and paint pass while the worker needs the CPU.
const PROGRESS_INTERVAL_MS = 200;

/** Boot milestones (performance marks, "loopstep:worker:*"), posted with "ready" as
 * absolute times so that the page can lay them on its own timeline. */
const mark = (name) => performance.mark(`loopstep:worker:${name}`);
const marks = () => performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("loopstep:"))
  .map((m) => ({ name: m.name, at: performance.timeOrigin + m.startTime }));
mark("evaluated");

/** Wrap fetch so bytes of the boot set are counted as they arrive; `onWasm` is called
 * once the wasm has been asked for (the big downloads have all been asked for by then:
 * what is asked for after them waits behind them, not before them). */
function countingFetch(sizes, onBytes, onWasm) {
  const original = self.fetch.bind(self);
  const counted = new Set(); // a file read twice (the wasm: boot.js, then Pyodide) counts once
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input); // string or URL
    const name = new URL(url, self.location.href).pathname.split("/").pop();
    const responded = original(input, init);
    if (name.endsWith(".wasm") && init?.cache !== "only-if-cached") onWasm(); // not a cache probe
    const response = await responded;
    if (name.endsWith(".wasm")) checkWasm(name, response);
    if (!response.ok || !response.body || !(name in sizes) || counted.has(name)) return response;
    if (init?.cache === "only-if-cached") return response; // a cache probe, not a download
    counted.add(name);
    // Count a clone's bytes and hand back the original response untouched: a response
    // rebuilt around a JS stream would lose the browser's compiled-wasm cache.
    countBytes(response.clone(), onBytes);
    return response;
  };
}

async function countBytes(response, onBytes) {
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onBytes(value.byteLength);
    }
  } catch {
    // the original response reports its own failure
  }
}

/** A wasm response that cannot be instantiated fails the boot now (it would hang). */
function checkWasm(name, response) {
  if (!response.ok) {
    failBoot(new Error(`${name}: HTTP ${response.status}`));
    return;
  }
  const type = (response.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/wasm") {
    failBoot(new Error(`${name}: served as ${type || "no type"}, not application/wasm`));
  }
}

/**
 * A wasm that does not compile or instantiate (corrupt bytes, a failed response)
 * fails the boot: Pyodide only logs a warning then and never settles.
 */
function watchWebAssembly() {
  for (const name of ["instantiate", "instantiateStreaming", "compile", "compileStreaming"]) {
    const original = WebAssembly[name];
    if (typeof original !== "function") continue;
    WebAssembly[name] = function (...args) {
      const result = original.apply(this, args);
      result.catch((error) => failBoot(new Error(`pyodide.asm.wasm: ${error?.message ?? error}`)));
      return result;
    };
  }
}

/** Fetch the recorder's and the lesson's Python files and the recorder's precompiled
 * modules (started while Pyodide boots, once its own downloads are under way, so that
 * they do not delay the runtime's first files). */
function fetchFiles(files, compiledURL) {
  const texts = Promise.all(files.map(async (file) => {
    const response = await fetch(file.url);
    if (!response.ok) throw new Error(`${file.url}: HTTP ${response.status}`);
    return response.text();
  }));
  texts.catch(() => {}); // awaited after the boot; a failure is reported there
  // without the precompiled modules Python compiles the sources: slower, not wrong
  const compiled = compiledURL
    ? fetch(compiledURL).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null)
    : Promise.resolve(null);
  return { texts, compiled };
}

/** Write the Python files, and the precompiled modules beside their sources: Python uses
 * one only if it was compiled from the source it finds (checked hash-based .pyc). */
async function writeFiles(files, fetched, sysPath) {
  const { unbundle } = await pycModule().catch(() => ({ unbundle: () => [] }));
  const texts = await fetched.texts;
  files.forEach((file, i) => {
    pyodide.FS.mkdirTree(file.path.slice(0, file.path.lastIndexOf("/")));
    pyodide.FS.writeFile(file.path, texts[i], { encoding: "utf8" });
  });
  const buffer = await fetched.compiled;
  const written = [];
  let bundled = [];
  try {
    bundled = buffer ? unbundle(buffer) : [];
  } catch {
    // not a bundle after all: the sources are compiled
  }
  for (const { path, bytes } of bundled) {
    const target = `${sysPath}/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, bytes);
    written.push(target);
  }
  return written;
}

const PRELUDE = `
import json, sys
if SYS_PATH not in sys.path:
    sys.path.insert(0, SYS_PATH)
from runtime import recorder

def _loopstep_stale(compiled):
    """The precompiled modules that were not compiled from the source beside them."""
    import _imp, importlib.util
    key = int.from_bytes(importlib.util.MAGIC_NUMBER, "little")
    stale = []
    for path in compiled:
        source = importlib.util.source_from_cache(path)
        with open(path, "rb") as pyc, open(source, "rb") as text:
            if pyc.read(16)[8:] != _imp.source_hash(key, text.read()):
                stale.append(source)
    return stale

def _loopstep_record(lesson, block, scenario, roots, max_steps, setup=None, probes=None):
    sys.setrecursionlimit(RECURSION_LIMIT)  # lesson code may have raised it
    kwargs = {"roots": list(roots)}
    if max_steps:
        kwargs["max_steps"] = int(max_steps)
    if setup is not None:
        kwargs["setup"] = setup
    if probes:
        kwargs["probes"] = json.loads(probes)
    return recorder.record_packed(lesson, block, scenario, **kwargs)

_loopstep_record, _loopstep_stale
`;

/** The boot message's runtime config ({pyodide, python}, the page's data island) with
 * its URLs resolved against the document's `base`. */
function bootConfig({ base, config }) {
  const url = (relative) => (relative ? new URL(relative, base).href : undefined);
  const { pyodide: runtime, python } = config;
  return {
    indexURL: url(runtime.indexURL),
    bootURL: url(runtime.bootURL),
    sizes: runtime.sizes ?? {},
    files: (python.files ?? []).map((f) => ({ url: url(f.url), path: f.path })),
    roots: python.roots ?? [],
    sysPath: python.sysPath,
    compiled: url(python.compiled),
  };
}

async function boot(request) {
  mark("boot-message");
  const message = bootConfig(request);
  const sizes = message.sizes ?? {};
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  let loaded = 0;
  let lastPost = 0;
  let booting = true; // no progress after "ready" (a download for the next visit is not one)
  const report = (force) => {
    const now = Date.now();
    if (booting && (force || now - lastPost > PROGRESS_INTERVAL_MS)) {
      lastPost = now;
      post({ type: "progress", loaded: Math.min(loaded, total), total });
    }
  };
  const files = message.files ?? [];
  let fetched = null;
  const fetchFilesOnce = () => {
    fetched ??= fetchFiles(files, message.compiled);
  };
  self.fetch = countingFetch(sizes, (n) => {
    loaded += n;
    report(false);
  }, fetchFilesOnce);
  watchWebAssembly();
  report(true);
  const module = import(new URL("pyodide.mjs", message.indexURL).href).then((imported) => {
    mark("pyodide-imported");
    loaded += sizes["pyodide.mjs"] ?? 0;
    return imported;
  });
  pycModule().catch(() => {}); // asked for now, used once Pyodide is up
  const { bootPyodide } = await bootModule();
  const booted = await Promise.race([bootFailed, bootPyodide(module, {
    indexURL: message.indexURL,
    bootURL: message.bootURL,
    packages: [],
    stdout: () => {},
    stderr: () => {},
  })]);
  mark("pyodide-booted");
  pyodide = booted.pyodide;
  bootPath = booted.path;
  loaded += sizes["pyodide.asm.mjs"] ?? 0;
  loaded = total;
  report(true);
  fetchFilesOnce();
  const sysPath = message.sysPath ?? "/loopstep";
  const compiled = await writeFiles(files, fetched, sysPath);
  mark("files-written");
  roots = message.roots ?? [];
  pyodide.globals.set("SYS_PATH", sysPath);
  pyodide.globals.set("RECURSION_LIMIT", RECURSION_LIMIT);
  const [recordFunction, staleFunction] = pyodide.runPython(PRELUDE).toJs({ depth: 1 });
  recordJson = recordFunction;
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  mark("recorder-imported");
  // recompiled from source: reported with "ready" (tests/browser/test_boot.py)
  const stale = staleFunction(pyodide.toPy(compiled)).toJs();
  staleFunction.destroy();
  booting = false;
  post({ type: "ready", python, path: bootPath, marks: marks(), compiled: compiled.length, stale });
  booted.warmUp();
}

function record(message) {
  const pyRoots = pyodide.toPy(roots);
  try {
    const json = recordJson(message.lesson, message.block, message.scenario, pyRoots,
      message.maxSteps ?? 0, message.setup ?? undefined, // JS null would not be None
      message.probes ? JSON.stringify(message.probes) : undefined);
    post({ type: "trace", id: message.id, json });
  } finally {
    pyRoots.destroy();
  }
}

function describe(error) {
  const text = error && error.message ? error.message : String(error);
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] || text;
}

self.addEventListener("message", async (event) => {
  const message = event.data ?? {};
  try {
    if (message.type === "boot") await boot(message);
    else if (message.type === "record") {
      if (!recordJson) throw new Error("runtime not ready");
      record(message);
    }
  } catch (error) {
    const fatal = Boolean(error?.pyodide_fatal_error);
    post({ type: "failed", id: message.id, message: describe(error), boot: message.type === "boot", fatal });
  }
});
