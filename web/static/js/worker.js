// The Python runtime: a module Web Worker that boots Pyodide and records traces.
//
// Protocol (docs/design.md): main → worker `boot` {indexURL, files, sizes,
// sysPath, roots} and `record` {id, lesson, block, scenario, maxSteps};
// worker → main `progress` {loaded, total}, `ready` {python}, `trace` {id, json} (the packed trace),
// `failed` {id?, message}.

import { bootPyodide } from "./boot.js";

let pyodide = null;
let bootPath = null; // "snapshot" | "trimmed" | "stock": which way Pyodide came up
let recordJson = null;
let roots = [];

const post = (message) => self.postMessage(message);

/** Wrap fetch so bytes of the boot set are counted as they arrive. */
function countingFetch(sizes, onBytes) {
  const original = self.fetch.bind(self);
  return async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input.url;
    const name = new URL(url, self.location.href).pathname.split("/").pop();
    if (!response.ok || !response.body || !(name in sizes)) return response;
    const reader = response.body.getReader();
    const counted = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        onBytes(value.byteLength);
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

async function writeFiles(files) {
  const texts = await Promise.all(files.map(async (file) => {
    const response = await fetch(file.url);
    if (!response.ok) throw new Error(`${file.url}: HTTP ${response.status}`);
    return response.text();
  }));
  files.forEach((file, i) => {
    pyodide.FS.mkdirTree(file.path.slice(0, file.path.lastIndexOf("/")));
    pyodide.FS.writeFile(file.path, texts[i], { encoding: "utf8" });
  });
}

const PRELUDE = `
import json, sys
if SYS_PATH not in sys.path:
    sys.path.insert(0, SYS_PATH)
from runtime import recorder

def _loopstep_record(lesson, block, scenario, roots, max_steps):
    kwargs = {"roots": list(roots)}
    if max_steps:
        kwargs["max_steps"] = int(max_steps)
    return recorder.record_packed(lesson, block, scenario, **kwargs)

_loopstep_record
`;

async function boot(message) {
  const sizes = message.sizes ?? {};
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  let loaded = 0;
  let lastPost = 0;
  const report = (force) => {
    const now = Date.now();
    if (force || now - lastPost > 50) {
      lastPost = now;
      post({ type: "progress", loaded: Math.min(loaded, total), total });
    }
  };
  self.fetch = countingFetch(sizes, (n) => {
    loaded += n;
    report(false);
  });
  report(true);
  const module = await import(new URL("pyodide.mjs", message.indexURL).href);
  loaded += sizes["pyodide.mjs"] ?? 0;
  const booted = await bootPyodide(module, {
    indexURL: message.indexURL,
    bootURL: message.bootURL,
    packages: [],
    stdout: () => {},
    stderr: () => {},
  });
  pyodide = booted.pyodide;
  bootPath = booted.path;
  loaded += sizes["pyodide.asm.mjs"] ?? 0;
  loaded = total;
  report(true);
  await writeFiles(message.files ?? []);
  roots = message.roots ?? [];
  pyodide.globals.set("SYS_PATH", message.sysPath ?? "/loopstep");
  recordJson = pyodide.runPython(PRELUDE);
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  post({ type: "ready", python, path: bootPath });
}

function record(message) {
  const pyRoots = pyodide.toPy(roots);
  try {
    const json = recordJson(message.lesson, message.block, message.scenario, pyRoots,
      message.maxSteps ?? 0);
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
    post({ type: "failed", id: message.id, message: describe(error), boot: message.type === "boot" });
  }
});
