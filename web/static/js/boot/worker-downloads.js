// The worker's downloads during the boot (worker.js): what the page began to download
// before the worker ran (`head` messages, runtime-early.js), the bytes of the boot set
// counted as they arrive, and a wasm that cannot load failing the boot at once instead of
// leaving loadPyodide waiting: a missing file or one not served as application/wasm is
// caught when it is fetched, bytes that do not compile when WebAssembly rejects them.

/** What the page began to download before this worker ran (runtime-early.js posts
 * `head` {name, chunks | done | module | error}): name → {promise, resolve, reject, chunks}.
 * "snapshot.bin" and "pyodide.asm.wasm" settle to their bytes, "module" to the wasm
 * compiled in the page. */
const heads = new Map();
let onHeadBytes = () => {};

/** `count(name, bytes)` is called as a head's bytes arrive. */
export function countHeadBytes(count) {
  onHeadBytes = count;
}

export function head(name) {
  let entry = heads.get(name);
  if (!entry) {
    entry = { chunks: [] };
    entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
    entry.promise.catch(() => {}); // awaited by the boot, which reports what failed
    heads.set(name, entry);
  }
  return entry;
}

export function receiveHead({ name, chunks, done, module, error }) {
  const entry = head(name);
  if (error !== undefined) entry.reject(new Error(`${name}: ${error}`));
  else if (module) entry.resolve(module);
  else if (chunks) {
    entry.chunks.push(...chunks);
    onHeadBytes(name, chunks.reduce((n, c) => n + c.byteLength, 0));
  } else if (done) {
    const bytes = new Uint8Array(entry.chunks.reduce((n, c) => n + c.byteLength, 0));
    entry.chunks.reduce((at, c) => (bytes.set(c, at), at + c.byteLength), 0);
    entry.chunks = [];
    entry.resolve(bytes);
  }
}

/** Wrap fetch so bytes of the boot set are counted as they arrive; `onWasm` is called
 * once the wasm has been asked for (the big downloads have all been asked for by then:
 * what is asked for after them waits behind them, not before them). */
export function countingFetch(sizes, onBytes, onWasm, counted, fail) {
  const original = self.fetch.bind(self);
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input); // string or URL
    const name = new URL(url, self.location.href).pathname.split("/").pop();
    const responded = original(input, init);
    if (name.endsWith(".wasm")) onWasm();
    const response = await responded;
    if (name.endsWith(".wasm")) checkWasm(name, response, fail);
    if (!response.ok || !response.body || !(name in sizes) || counted.has(name)) return response;
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
function checkWasm(name, response, failBoot) {
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
 * fails the boot (`failBoot(error)`): Pyodide only logs a warning then and never settles.
 */
export function watchWebAssembly(failBoot) {
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
