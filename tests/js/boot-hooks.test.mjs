// boot.js replaces WebAssembly.instantiateStreaming while an attempt loads Pyodide (the
// wasm compiled ahead is instantiated instead). A boot attempt that timed out and ends
// late must not take that hook from the attempt that runs next, nor leave it installed:
// bootPyodide with a stand-in Pyodide whose loads end when the test says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bootPyodide, sha256 } from "../../web/static/js/boot/boot.js";

const WASM = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]); // an empty, valid wasm module
const STDLIB = new TextEncoder().encode("the trimmed standard library");
const SNAPSHOT = new TextEncoder().encode("a memory snapshot");
const TIMEOUT_MS = 300;

const settle = () => new Promise((resolve) => setImmediate(resolve));

function deferred() {
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  return { promise, resolve };
}

/** A boot set, a Pyodide module whose n-th loadPyodide runs `loads[n]`, and the options. */
async function setUp(loads) {
  const manifest = {
    format: 1, pyodide: "0.0-test", python: "3.14.0", wasmSha256: await sha256(WASM),
    stdlib: { file: "python_stdlib.zip", sha256: await sha256(STDLIB) },
    snapshot: { sha256: await sha256(SNAPSHOT) }, lazy: [],
    hooks: { file: "runtime/browser/boot_hooks.py", source: "# the boot's import hooks" },
  };
  const files = {
    "boot.json": new TextEncoder().encode(JSON.stringify(manifest)),
    SHA256SUMS: new TextEncoder().encode(`${manifest.wasmSha256}  pyodide.asm.wasm\n`),
  };
  const compiled = await WebAssembly.compile(WASM);
  // the hooks' namespace as boot.js sees it after running boot.json's source
  const hooks = { after_snapshot: () => {}, python_version: () => "3.14.0",
    install_trimmed_on_demand: () => {}, install_stock_stdlib: () => {} };
  const pyodide = {
    FS: { readFile: () => STDLIB },
    toPy: () => new Map(),
    runPython: (code, { globals }) => {
      for (const [name, hook] of Object.entries(hooks)) globals.set(name, hook);
    },
  };
  const calls = [];
  const module = {
    version: "0.0-test",
    async loadPyodide(settings) {
      const n = calls.length;
      calls.push(settings._loadSnapshot ? "snapshot" : settings.stdLibURL ? "trimmed" : "stock");
      await loads[n]();
      return pyodide;
    },
  };
  const options = {
    indexURL: "test://pyodide/", bootURL: "test://boot/", timeoutMs: TIMEOUT_MS,
    readBytes: async (url) => files[url.split("/").pop()],
    given: { snapshot: Promise.resolve(SNAPSHOT), wasm: Promise.resolve(WASM),
      compiled: Promise.resolve(compiled) },
    loadStockSync: null, loaderFor: () => null,
  };
  return { module, options, calls, compiled };
}

/** WebAssembly.instantiateStreaming replaced by a spy for the test's length. */
function spyOnInstantiate(t) {
  const real = WebAssembly.instantiateStreaming;
  const spy = async () => {
    spy.calls += 1;
    return { module: "instantiated by the original", instance: null };
  };
  spy.calls = 0;
  WebAssembly.instantiateStreaming = spy;
  t.after(() => { WebAssembly.instantiateStreaming = real; });
  return spy;
}

const instantiate = () => WebAssembly.instantiateStreaming(
  Promise.resolve({ body: { cancel() {} } }), {});

test("a timed-out attempt that ends while the next one loads leaves it the hook", async (t) => {
  const spy = spyOnInstantiate(t);
  const late = deferred();
  const seen = {};
  const { module, options, calls, compiled } = await setUp([
    async () => {
      seen.first = (await instantiate()).module; // while it is current: the compiled wasm
      await late.promise; // … then stuck past its time
    },
    async () => {
      late.resolve(); // the snapshot attempt ends now, late
      await settle();
      seen.second = (await instantiate()).module;
    },
  ]);
  const booted = await bootPyodide(module, options);
  assert.deepEqual(calls, ["snapshot", "trimmed"]);
  assert.equal(booted.path, "trimmed");
  assert.match(booted.fallbacks.join(), /snapshot boot: no answer after 300 ms/);
  // (compared by identity: a wasm module in an assertion's message does not serialise)
  assert.ok(seen.first === compiled, "the first attempt did not use the compiled wasm");
  assert.ok(seen.second === compiled, "the late end of the first attempt took the hook away");
  assert.equal(spy.calls, 0);
  assert.ok(WebAssembly.instantiateStreaming === spy, "the hook was left installed");
});

test("attempts that end after the boot change nothing, and the stock boot is reached", async (t) => {
  const spy = spyOnInstantiate(t);
  const stuck = [deferred(), deferred()];
  const seen = {};
  const { module, options, calls, compiled } = await setUp([
    () => stuck[0].promise,
    () => stuck[1].promise,
    async () => { seen.stock = (await instantiate()).module; },
  ]);
  const booted = await bootPyodide(module, options);
  assert.deepEqual(calls, ["snapshot", "trimmed", "stock"]);
  assert.equal(booted.path, "stock");
  assert.ok(seen.stock === compiled, "the stock boot did not use the compiled wasm");
  assert.ok(WebAssembly.instantiateStreaming === spy, "the hook was left installed");
  stuck[0].resolve();
  await settle();
  stuck[1].resolve();
  await settle();
  assert.ok(WebAssembly.instantiateStreaming === spy, "a late attempt put a hook back");
  assert.equal((await instantiate()).module, "instantiated by the original");
  assert.equal(spy.calls, 1);
});
