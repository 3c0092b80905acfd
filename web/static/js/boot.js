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
// bootURL holds boot.json, python_stdlib.zip and snapshot.bin (immutable, versioned).
// Own options (not passed to loadPyodide):
//   snapshot   "cached" (default): use the snapshot only when the HTTP cache already has
//              it, else boot "trimmed"; the result's warmUp() fetches the snapshot in
//              the background, for the next visit (the first visit stays small: the snapshot is
//              3.3 MB brotli); true: always use it; false: never
//   timeoutMs  per fast attempt (default 20000); the stock boot is not timed out here
//   readBytes(url) → Uint8Array (default: fetch); loadStockSync() → Uint8Array (default:
//              synchronous XHR of indexURL + "python_stdlib.zip", in workers only)

const STDLIB_PATH = "/lib/python314.zip";
const FULL_STDLIB_PATH = "/lib/python314-stock.zip";

/** A boot milestone on the worker's timeline (docs/performance.md). */
const mark = (name) => globalThis.performance?.mark?.(`loopstep:boot:${name}`);

const slash = (url) => (url.endsWith("/") ? url : url + "/");

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function sha256(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether the HTTP cache holds `url` (never touches the network). */
async function isCached(url) {
  try {
    const response = await fetch(url, { cache: "only-if-cached", mode: "same-origin" });
    if (response.body) await response.body.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

function prefetchLater(url) {
  try {
    fetch(url, { priority: "low" }).then((r) => r.arrayBuffer()).catch(() => {});
  } catch {
    // no fetch here (Node with file paths): nothing to warm
  }
}

const NOTHING = () => {};

function withTimeout(promise, ms, what) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

function syncStockLoader(indexURL) {
  if (typeof XMLHttpRequest === "undefined" || typeof document !== "undefined") return null;
  return () => {
    const request = new XMLHttpRequest();
    request.open("GET", indexURL + "python_stdlib.zip", false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`python_stdlib.zip: HTTP ${request.status}`);
    return new Uint8Array(request.response);
  };
}

// Appended to sys.meta_path: only asked for modules nothing else found.
const LAZY_STDLIB = `
import importlib, sys, zipimport

class _LoopstepStockStdlib:
    def __init__(self, names, load, path):
        self.names, self.load, self.path, self.ready = frozenset(names), load, path, False

    def find_spec(self, name, path=None, target=None):
        if name not in self.names:
            return None
        if not self.ready:
            data = self.load().to_bytes()
            with open(self.path, "wb") as out:
                out.write(data)
            self.ready = True
            sys.path.append(self.path)
            importlib.invalidate_caches()
        package = name.rpartition(".")[0]
        where = self.path + ("/" + package.replace(".", "/") if package else "")
        return zipimport.zipimporter(where).find_spec(name)

def _install(names, load, path):
    sys.meta_path.append(_LoopstepStockStdlib(names, load, path))

_install
`;

const AFTER_SNAPSHOT = `
import sys
sys.path[:] = list(dict.fromkeys(sys.path))
if "random" in sys.modules:
    sys.modules["random"].seed()
`;

async function checkManifest(manifest, module, sums) {
  if (manifest.format !== 1) throw new Error(`boot.json format ${manifest.format}`);
  if (manifest.pyodide !== module.version) {
    throw new Error(`boot set is for Pyodide ${manifest.pyodide}, loaded ${module.version}`);
  }
  const line = sums.split("\n").find((row) => row.trim().endsWith(" pyodide.asm.wasm"));
  const wasm = line ? line.trim().split(/\s+/)[0] : null;
  if (wasm !== manifest.wasmSha256) throw new Error("boot set was built for another pyodide.asm.wasm");
}

async function fastBoot(module, manifest, snapshot, config) {
  const { indexURL, bootURL, options, loadStockSync } = config;
  const settings = { ...options, indexURL, packages: [], stdLibURL: bootURL + manifest.stdlib.file };
  if (snapshot) settings._loadSnapshot = snapshot;
  const pyodide = await module.loadPyodide(settings);
  mark(snapshot ? "snapshot-restored" : "trimmed-loaded");
  const stdlib = pyodide.FS.readFile(STDLIB_PATH);
  if ((await sha256(stdlib)) !== manifest.stdlib.sha256) {
    throw new Error("trimmed python_stdlib.zip did not load intact");
  }
  if (snapshot) pyodide.runPython(AFTER_SNAPSHOT);
  const version = pyodide.runPython("import sys, json; sys.version.split()[0]");
  if (version !== manifest.python) throw new Error(`Python ${version}, expected ${manifest.python}`);
  if (loadStockSync && manifest.lazy.length) {
    const install = pyodide.runPython(LAZY_STDLIB);
    const load = () => {
      const bytes = loadStockSync();
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    };
    install(manifest.lazy, load, FULL_STDLIB_PATH);
    install.destroy();
  }
  return pyodide;
}

/**
 * Boot Pyodide from `pyodideModule` (the imported pyodide.mjs, or the promise of it):
 * snapshot, else trimmed, else stock.
 * Returns {pyodide, path: "snapshot"|"trimmed"|"stock", fallbacks: [reason, ...], warmUp}.
 * `warmUp()` fetches the snapshot into the HTTP cache for the next visit ("cached" mode
 * after a trimmed boot; else it does nothing): call it once the runtime is ready, so that
 * the download does not compete with the first imports.
 */
export async function bootPyodide(pyodideModule, { indexURL, bootURL, ...rest } = {}) {
  // `pyodideModule` may be the import's promise: the boot set's files are asked for
  // while pyodide.mjs is still arriving.
  const imported = Promise.resolve(pyodideModule);
  imported.catch(() => {});
  let module = null;
  const {
    snapshot: snapshotMode = "cached", timeoutMs = 20000, readBytes = fetchBytes,
    loadStockSync, ...options
  } = rest;
  indexURL = slash(indexURL);
  const fallbacks = [];
  if (bootURL) {
    bootURL = slash(bootURL);
    const config = {
      indexURL, bootURL, options,
      loadStockSync: loadStockSync === undefined ? syncStockLoader(indexURL) : loadStockSync,
    };
    const text = (bytes) => new TextDecoder().decode(bytes);
    const manifestP = readBytes(bootURL + "boot.json").then((b) => JSON.parse(text(b)));
    const sumsP = readBytes(indexURL + "SHA256SUMS").then(text);
    // Awaited below; until then a failure must not surface as an unhandled rejection.
    manifestP.catch(() => {});
    sumsP.catch(() => {});
    const snapshotURL = bootURL + "snapshot.bin";
    const useSnapshot = snapshotMode === "cached" ? await isCached(snapshotURL) : !!snapshotMode;
    const snapshotP = useSnapshot ? readBytes(snapshotURL) : null;
    snapshotP?.catch(() => {});
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
        const bytes = await withTimeout(snapshotP, timeoutMs, "snapshot.bin");
        if ((await sha256(bytes)) !== manifest.snapshot.sha256) throw new Error("sha256 mismatch");
        const pyodide = await withTimeout(fastBoot(module, manifest, bytes, config),
          timeoutMs, "snapshot boot");
        return { pyodide, path: "snapshot", fallbacks, warmUp: NOTHING };
      } catch (error) {
        fallbacks.push(`snapshot: ${error.message ?? error}`);
      }
    }
    if (manifest) {
      try {
        const pyodide = await withTimeout(fastBoot(module, manifest, null, config),
          timeoutMs, "trimmed boot");
        const warm = snapshotMode === "cached" && !useSnapshot && manifest.snapshot;
        const warmUp = warm ? () => prefetchLater(snapshotURL) : NOTHING;
        return { pyodide, path: "trimmed", fallbacks, warmUp };
      } catch (error) {
        fallbacks.push(`trimmed: ${error.message ?? error}`);
      }
    }
  }
  module ??= await imported;
  const pyodide = await module.loadPyodide({ ...options, indexURL });
  return { pyodide, path: "stock", fallbacks, warmUp: NOTHING };
}
