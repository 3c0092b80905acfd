// What the page hands a guest runtime (web/static/js/boot/guest-client.js runtimeFiles) and
// which runs are guests' (runtime-client.js isGuestRun).
import { test } from "node:test";
import assert from "node:assert/strict";
import { runtimeFiles } from "../../web/static/js/boot/guest-client.js";
import { isGuestRun } from "../../web/static/js/boot/runtime-client.js";

const BASE = "https://site.example/lessons/s06";
const CONFIG = {
  pyodide: { indexURL: "/vendor/pyodide-9.9.9/", bootURL: "/vendor/loopstep-boot-9.9.9/" },
  python: { bundles: ["/py/bundles/lessons/s06.bin"],
    runtime: { bundle: "/py/bundles/runtime.bin", compiled: "/static/pyc/runtime.cpython-314.bin" } },
};
const allowed = runtimeFiles(CONFIG, BASE);
const may = (url) => allowed(new URL(url, BASE));

test("the runtime's own files are handed over", () => {
  for (const url of ["/vendor/pyodide-9.9.9/pyodide.asm.wasm", "/vendor/pyodide-9.9.9/pyodide.mjs",
    "/vendor/loopstep-boot-9.9.9/snapshot.bin?v=abc", "/vendor/loopstep-boot-9.9.9/boot.json?v=1",
    "/py/bundles/lessons/s06.bin", "/py/bundles/runtime.bin", "/static/pyc/runtime.cpython-314.bin"]) {
    assert.ok(may(url), url);
  }
});

test("nothing else of the site, and nothing of another origin", () => {
  for (const url of ["/api/lessons", "/lessons/s06", "/private/payroll.txt", "/py/bundles/lessons/s01.bin",
    "/py/lessons/s06/setup.py", "/static/js/page.js", "/vendor/pyodide-9.9.9/",
    "/vendor/codemirror-6.0.2/codemirror.mjs", "https://evil.example/vendor/pyodide-9.9.9/pyodide.mjs",
    "/py/bundles/runtime.bin?x=1"]) {
    assert.ok(!may(url), url);
  }
});

test("no way out of a folder: dot segments, escapes, backslashes", () => {
  for (const url of ["/vendor/pyodide-9.9.9/%2e%2e/%2e%2e/private/payroll.txt",
    "/vendor/pyodide-9.9.9/..%2f..%2fprivate%2fpayroll.txt", "/vendor/pyodide-9.9.9/..\\..\\private",
    "/vendor/pyodide-9.9.9/a%00.wasm", "/vendor/loopstep-boot-9.9.9/../../api/lessons"]) {
    assert.ok(!may(url), url);
  }
});

test("a custom setup, a fork or a loaded recording is a guest's run; a preset's is not", () => {
  assert.equal(isGuestRun({ setup: "x = 1" }), true);
  assert.equal(isGuestRun({ setup: "" }), true);
  assert.equal(isGuestRun({ fork: { call: "model:1", value: {} } }), true);
  assert.equal(isGuestRun({ recording: { name: "r.json", text: "{}" } }), true);
  assert.equal(isGuestRun({ setup: null, questions: { watches: ["x"] } }), false);
  assert.equal(isGuestRun({}), false);
});
