// Boot Pyodide the fast way when it is safe, the stock way otherwise.
//
//   import { bootPyodide } from "./boot.js";
//   const module = await import(indexURL + "pyodide.mjs");
//   const { pyodide, path } = await bootPyodide(module, { indexURL, bootURL, stdout, stderr });
//
// Paths, tried in order (each verified; any failure falls through to the next):
//   "snapshot"  restore a memory snapshot made at build time (scripts/build_boot.mjs) on
//               the trimmed standard library; Python is already initialised and the
//               recorder's modules are imported
//   "trimmed"   a normal boot on the trimmed, precompiled (.pyc) standard library
//   "stock"     module.loadPyodide({indexURL, ...options}) exactly as shipped
// On the fast paths a module that the trimmed zip lacks still imports: the first such
// import fetches the stock python_stdlib.zip (synchronously, in a worker) and uses it.
//
// bootURL holds boot.json, python_stdlib.zip, empty.zip and snapshot.bin (served as
// immutable: `bootVersion`, a digest of the set, is put on each URL as ?v=, so that a
// rebuilt set is fetched anew). snapshot.bin is stored as a delta against the wasm's data segments
// (snapshot-delta.js), so the wasm is read beside it; on the snapshot path the trimmed
// zip is loaded on the first import that needs it (empty.zip stands in until then), where
// a synchronous loader exists (workers), else up front.
// Own options (not passed to loadPyodide):
//   snapshot   true (default): the snapshot, on every visit (Python's start-up is skipped,
//              which on a later visit too beats a trimmed boot on wasm code the browser
//              may not have optimised: bench/notes.md); false: never. After a snapshot
//              boot, warmUp() fetches the trimmed zip that the first import outside the
//              snapshot will read
//   bootVersion  the boot set's version, added to its files' URLs (?v=); none in Node
//   timeoutMs  per fast attempt (default 20000); the stock boot is not timed out here
//   early      compile the wasm while the rest downloads (default true; compileEarly)
//   given      {snapshot, wasm, compiled}: promises of the snapshot's bytes, the wasm's bytes
//              and the compiled wasm, downloads begun before the boot (the page's head
//              script, worker.js): the snapshot path is tried with them
//   readBytes(url) → Uint8Array (default: fetch); loadStockSync() → Uint8Array (default:
//              synchronous XHR of indexURL + "python_stdlib.zip", in workers only);
//   loaderFor(url) → (() → Uint8Array) | null: a synchronous loader of the trimmed zip
//              (default: XHR in workers, none elsewhere)
//   digest(bytes) → Promise of the hex sha256 (default: sha256, Web Crypto)

import { sha256 } from "./digest.js";

/** The string-hash seed of the page's Python (PYTHONHASHSEED), the CLI's default too: the
 * snapshot is made with it (scripts/build_boot.mjs), the other paths start with it. */
export const HASH_SEED = "0";

export { sha256 };

const STDLIB_PATH = "/lib/python314.zip";
const DELTA = "xor-data-segments"; // boot.json snapshot.encoding steps (snapshot-delta.js)
const ZERO_RUNS = "zero-runs";
const FULL_STDLIB_PATH = "/lib/python314-stock.zip";

/** A boot milestone on the worker's timeline (docs/performance.md). */
const mark = (name) => globalThis.performance?.mark?.(`loopstep:boot:${name}`);

const slash = (url) => (url.endsWith("/") ? url : url + "/");

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}


function prefetchLater(url) {
  try {
    fetch(url, { priority: "low" }).then((r) => r.arrayBuffer()).catch(() => {});
  } catch {
    // no fetch here (Node with file paths): nothing to warm
  }
}

const NOTHING = () => {};

/** Compile the wasm while everything else downloads (a browser over http(s) only):
 * {compiled: the compiled module's promise, bytes: its bytes' promise when `withBytes`
 * (the snapshot's delta is decoded with them), from the same response}, or null.
 * Pyodide would only start compiling it once it is asked to load, after the snapshot
 * has arrived and been decoded. */
function compileEarly(indexURL, withBytes) {
  if (!/^https?:/.test(indexURL) || typeof WebAssembly.compileStreaming !== "function") return null;
  const url = indexURL + "pyodide.asm.wasm";
  // the copy taken before anything reads the body; the browser's own response compiled,
  // so that its compiled code is cached for the next visit
  const fetched = fetch(url).then((response) => [response, withBytes ? response.clone() : null]);
  const compiled = WebAssembly.compileStreaming(fetched.then(([response]) => response));
  compiled.catch(() => {}); // then Pyodide compiles it itself, and reports what fails
  const bytes = withBytes ? fetched.then(async ([, copy]) => {
    if (!copy.ok) throw new Error(`${url}: HTTP ${copy.status}`);
    return new Uint8Array(await copy.arrayBuffer());
  }) : null;
  return { compiled, bytes };
}

/** What loadPyodide would ask for only once called, after the snapshot has arrived and
 * been decoded, asked for now (a browser over http(s) only): pyodide.asm.mjs is imported
 * (loadPyodide's import of the same URL gets this module), and the promise of the lock
 * file's contents is returned for loadPyodide's `lockFileContents`; else null. */
function ahead(indexURL, imported) {
  if (!/^https?:/.test(indexURL)) return null;
  // (a guest's worker hands loadPyodide the module itself: `createPyodideModule`)
  if (!imported) import(indexURL + "pyodide.asm.mjs").catch(() => {}); // loadPyodide reports what fails
  const lockFile = fetch(indexURL + "pyodide-lock.json").then((response) => {
    if (!response.ok) throw new Error(`pyodide-lock.json: HTTP ${response.status}`);
    return response.json();
  });
  lockFile.catch(() => {});
  return lockFile;
}

// The WebAssembly hook: while an attempt loads Pyodide, WebAssembly.instantiateStreaming
// instantiates the wasm compiled ahead. An attempt that timed out may still be loading
// (and end late) while the next one runs, so the hook belongs to one attempt at a time,
// the current one (a token): an attempt that is no longer current never installs or
// restores it again, and the function it replaced is put back exactly once.
const hook = { owner: null, original: null };

/** A new attempt's token, now the only one that may install the hook. */
function claimHook() {
  releaseHook(hook.owner);
  hook.owner = {};
  return hook.owner;
}

/** `attempt` is over (ended, failed or timed out): the hook goes if it is still its own. */
function releaseHook(attempt) {
  if (!attempt || hook.owner !== attempt) return;
  if (hook.original) WebAssembly.instantiateStreaming = hook.original;
  hook.owner = null;
  hook.original = null;
}

/** Run `load` (a loadPyodide call) for `attempt` with the wasm instantiated from
 * `compiled` when it compiled (Pyodide instantiates it with instantiateStreaming: same
 * result, no second compilation), else as Pyodide does; the hook only while `attempt`
 * is current. */
async function withCompiled(attempt, compiled, load) {
  if (compiled && hook.owner === attempt && !hook.original) {
    const original = (hook.original = WebAssembly.instantiateStreaming);
    WebAssembly.instantiateStreaming = async function instantiateCompiled(source, imports) {
      const module = await compiled.catch(() => null);
      if (!module) return original.call(WebAssembly, source, imports);
      Promise.resolve(source).then((r) => r?.body?.cancel?.()).catch(() => {}); // not read
      return { module, instance: await WebAssembly.instantiate(module, imports) };
    };
  }
  try {
    return await load();
  } finally {
    releaseHook(attempt);
  }
}

/** One boot attempt, `boot(attempt)` within `ms`; timed out or failed, it loses the hook
 * at once, so that its late end changes nothing for the next attempt. */
async function attemptBoot(boot, ms, what) {
  const attempt = claimHook();
  try {
    return await withTimeout(boot(attempt), ms, what);
  } finally {
    releaseHook(attempt);
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** A synchronous loader of `url` (worker XHR), or null where there is none. */
function syncLoader(url) {
  if (typeof XMLHttpRequest === "undefined" || typeof document !== "undefined") return null;
  return () => {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`${url}: HTTP ${request.status}`);
    return new Uint8Array(request.response);
  };
}

const asPython = (load) => () => {
  const bytes = load();
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

async function checkManifest(manifest, module, sums) {
  if (manifest.format !== 1) throw new Error(`boot.json format ${manifest.format}`);
  if (typeof manifest.hooks?.source !== "string") throw new Error("boot.json has no import hooks");
  if (manifest.pyodide !== module.version) {
    throw new Error(`boot set is for Pyodide ${manifest.pyodide}, loaded ${module.version}`);
  }
  const line = sums.split("\n").find((row) => row.trim().endsWith(" pyodide.asm.wasm"));
  const wasm = line ? line.trim().split(/\s+/)[0] : null;
  if (wasm !== manifest.wasmSha256) throw new Error("boot set was built for another pyodide.asm.wasm");
}

/** The boot's import hooks (runtime/browser/boot_hooks.py, whose text boot.json carries)
 * run in a namespace of their own: `python(name)` is one of its functions. */
function bootHooks(pyodide, manifest) {
  const namespace = pyodide.toPy({ __name__: "boot_hooks" });
  pyodide.runPython(manifest.hooks.source, { globals: namespace });
  return (name) => namespace.get(name);
}

async function fastBoot(module, manifest, snapshot, config, attempt) {
  const { indexURL, options, loadStockSync } = config;
  // After a snapshot the trimmed zip can wait for the first import that needs it, where
  // it can be loaded synchronously; an empty zip stands in for it until then.
  const loadTrimmedSync = snapshot && manifest.placeholder
    ? config.loaderFor(config.at(manifest.stdlib.file)) : null;
  const stdlibFile = loadTrimmedSync ? manifest.placeholder : manifest.stdlib.file;
  const settings = { ...options, indexURL, packages: [], stdLibURL: config.at(stdlibFile) };
  if (config.lockFile) Object.assign(settings, { lockFileContents: config.lockFile, packageBaseUrl: indexURL });
  const trampoline = { ptr: null };
  if (snapshot) {
    settings._loadSnapshot = snapshot;
    settings.createPyodideModule = keepingTrampoline(() => options.createPyodideModule
      ?? import(indexURL + "pyodide.asm.mjs").then((m) => m.default), trampoline);
  }
  const pyodide = await withCompiled(attempt, config.compiled, () => module.loadPyodide(settings));
  if (snapshot) restoreTrampoline(pyodide._module, trampoline.ptr);
  mark(snapshot ? "snapshot-restored" : "trimmed-loaded");
  if (!loadTrimmedSync) {
    const stdlib = pyodide.FS.readFile(STDLIB_PATH);
    if ((await config.digest(stdlib)) !== manifest.stdlib.sha256) {
      throw new Error("trimmed python_stdlib.zip did not load intact");
    }
  }
  const python = bootHooks(pyodide, manifest);
  if (snapshot) python("after_snapshot")();
  const version = python("python_version")();
  if (version !== manifest.python) throw new Error(`Python ${version}, expected ${manifest.python}`);
  if (loadTrimmedSync) {
    python("install_trimmed_on_demand")(asPython(loadTrimmedSync), STDLIB_PATH,
      manifest.stdlib.sha256);
  }
  if (loadStockSync && manifest.lazy.length) {
    python("install_stock_stdlib")(manifest.lazy, asPython(loadStockSync), FULL_STDLIB_PATH);
  }
  return pyodide;
}

// CPython calls a C function through its pointer by a trampoline (Python/emscripten_trampoline.c):
// a wasm one that Pyodide builds as the module starts (its preRun: where the engine can,
// as browsers do) or, when `_PyRuntime`'s slot for it holds 0, a JavaScript function. A
// snapshot restored over memory puts back the slot of the process that made it (Node:
// 0), so that every call would pass through a JavaScript frame, slower, and a Python stack
// with a JavaScript frame on it cannot suspend (JSPI: the run's threads,
// runtime/world/stacks.py). So the slot this instance set is read before the restore and
// written back after it.

/** Slot of the trampoline in `M`'s memory. */
const trampolineSlot = (M) =>
  (M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >> 2]) >> 2;

/** Pyodide's module factory (`factory()` gives it, or its promise: asked for only when
 * Pyodide calls for it) that keeps, in `kept.ptr`, the trampoline the module set up before
 * the snapshot is restored over it. */
function keepingTrampoline(factory, kept) {
  return async (settings) => {
    const M = await (await factory())(settings);
    kept.ptr = M.HEAP32[trampolineSlot(M)];
    return M;
  };
}

/** Put the instance's own trampoline back after the restore (when it was read). */
function restoreTrampoline(M, ptr) {
  if (typeof ptr === "number") M.HEAP32[trampolineSlot(M)] = ptr;
}

/** The snapshot as Pyodide wants it: checked, and decoded as boot.json's `encoding` says
 * ("zero-runs+xor-data-segments": its zero runs expanded, then XOR the wasm's data). */
async function snapshotBytes(stored, wasmP, manifest, digest) {
  mark("snapshot-fetched");
  if ((await digest(stored)) !== manifest.snapshot.sha256) throw new Error("sha256 mismatch");
  mark("snapshot-checked");
  const encoding = manifest.snapshot.encoding;
  if (encoding === undefined) return stored;
  const steps = encoding.split("+");
  if (steps.some((step) => step !== ZERO_RUNS && step !== DELTA)) {
    throw new Error(`unknown encoding ${encoding}`);
  }
  // imported only here: a static import would add a round trip before the boot starts
  const [codec, wasm] = await Promise.all([import("./snapshot-delta.js"), wasmP]);
  mark("wasm-fetched");
  let bytes = steps.includes(ZERO_RUNS) ? codec.expandZeroRuns(stored) : stored;
  if (steps.includes(DELTA)) {
    if ((await digest(wasm)) !== manifest.wasmSha256) throw new Error("pyodide.asm.wasm differs");
    bytes = codec.xorDataSegments(bytes, wasm);
  }
  mark("snapshot-decoded");
  return bytes;
}

/**
 * Boot Pyodide from `pyodideModule` (the imported pyodide.mjs, or the promise of it):
 * snapshot, else trimmed, else stock.
 * Returns {pyodide, path: "snapshot"|"trimmed"|"stock", fallbacks: [reason, ...], warmUp,
 * recorder}; `recorder` is boot.json's `snapshot.runtime` on the snapshot path (the modules
 * the snapshot has imported), else undefined.
 * `warmUp()` fetches the trimmed zip that a snapshot boot left for later into the HTTP
 * cache (else it does nothing): call it once the runtime is ready, so that the download
 * does not compete with the first imports.
 */
export async function bootPyodide(pyodideModule, { indexURL, bootURL, ...rest } = {}) {
  // `pyodideModule` may be the import's promise: the boot set's files are asked for
  // while pyodide.mjs is still arriving.
  const imported = Promise.resolve(pyodideModule);
  imported.catch(() => {});
  let module = null;
  const {
    snapshot: snapshotMode = true, timeoutMs = 20000, readBytes = fetchBytes, early = true,
    given, loadStockSync, loaderFor = syncLoader, digest = sha256, bootVersion, ...options
  } = rest;
  // every path starts Python with one string-hash seed (runtime/world/hashing.py)
  options.env = { PYTHONHASHSEED: HASH_SEED, ...options.env };
  indexURL = slash(indexURL);
  let compiled = null;
  const fallbacks = [];
  if (bootURL) {
    bootURL = slash(bootURL);
    const config = {
      indexURL, options,
      at: (name) => bootURL + name + (bootVersion ? `?v=${encodeURIComponent(bootVersion)}` : ""),
      loadStockSync: loadStockSync === undefined ? syncLoader(indexURL + "python_stdlib.zip")
        : loadStockSync,
      loaderFor,
      digest,
      compiled: null,
    };
    const text = (bytes) => new TextDecoder().decode(bytes);
    const manifestP = readBytes(config.at("boot.json")).then((b) => JSON.parse(text(b)));
    const sumsP = readBytes(indexURL + "SHA256SUMS").then(text);
    // Awaited below; until then a failure must not surface as an unhandled rejection.
    manifestP.catch(() => {});
    sumsP.catch(() => {});
    const useSnapshot = Boolean(given || snapshotMode);
    const snapshotP = given ? given.snapshot
      : useSnapshot ? readBytes(config.at("snapshot.bin")) : null;
    const wasm = given ? { compiled: given.compiled, bytes: given.wasm }
      : early ? compileEarly(indexURL, useSnapshot) : null;
    compiled = config.compiled = wasm?.compiled ?? null;
    // a delta-coded snapshot is decoded with the wasm's data segments
    const wasmP = useSnapshot ? wasm?.bytes ?? readBytes(indexURL + "pyodide.asm.wasm") : null;
    snapshotP?.catch(() => {});
    wasmP?.catch(() => {});
    config.lockFile = ahead(indexURL, Boolean(options.createPyodideModule));
    module = await imported;
    let manifest = null;
    try {
      manifest = await withTimeout(manifestP, timeoutMs, "boot.json");
      await checkManifest(manifest, module, await withTimeout(sumsP, timeoutMs, "SHA256SUMS"));
      mark("manifest-checked");
    } catch (error) {
      fallbacks.push(`boot set: ${error.message ?? error}`);
      manifest = null;
    }
    if (manifest && snapshotP && manifest.snapshot) {
      try {
        const stored = await withTimeout(snapshotP, timeoutMs, "snapshot.bin");
        const bytes = await withTimeout(snapshotBytes(stored, wasmP, manifest, digest),
          timeoutMs, "pyodide.asm.wasm");
        const pyodide = await attemptBoot((attempt) => fastBoot(module, manifest, bytes, config,
          attempt), timeoutMs, "snapshot boot");
        // the trimmed zip left for later is read by the first import outside the
        // snapshot: have it in the cache by then
        const warmUp = manifest.placeholder
          ? () => prefetchLater(config.at(manifest.stdlib.file)) : NOTHING;
        // the recorder imported with the snapshot (web/static/js/boot/snapshot-runtime.js)
        const recorder = manifest.snapshot.runtime ?? null;
        return { pyodide, path: "snapshot", fallbacks, warmUp, recorder };
      } catch (error) {
        fallbacks.push(`snapshot: ${error.message ?? error}`);
      }
    }
    if (manifest) {
      try {
        const pyodide = await attemptBoot((attempt) => fastBoot(module, manifest, null, config,
          attempt), timeoutMs, "trimmed boot");
        return { pyodide, path: "trimmed", fallbacks, warmUp: NOTHING };
      } catch (error) {
        fallbacks.push(`trimmed: ${error.message ?? error}`);
      }
    }
  }
  module ??= await imported;
  if (early) compiled ??= compileEarly(indexURL, false)?.compiled ?? null;
  const attempt = claimHook(); // the stock boot is not timed out
  const pyodide = await withCompiled(attempt, compiled,
    () => module.loadPyodide({ ...options, indexURL }));
  return { pyodide, path: "stock", fallbacks, warmUp: NOTHING };
}
