import { test } from "node:test";
import assert from "node:assert/strict";
import { hostOrigin, installEmbedBridge } from "../../web/static/js/page/embed-bridge.js";

const HOST = "https://docs.example";

test("the host's origin: the browser's word first, then origin=, then the referrer", () => {
  assert.equal(hostOrigin({ ancestorOrigins: [HOST], search: "?origin=https://other.example",
    referrer: "https://third.example/page" }), HOST);
  assert.equal(hostOrigin({ ancestorOrigins: [], search: `?scenario=limit&origin=${encodeURIComponent(HOST)}`,
    referrer: "https://third.example/page" }), HOST);
  assert.equal(hostOrigin({ search: "?scenario=limit", referrer: `${HOST}/lessons/one.html?x=1` }), HOST);
  assert.equal(hostOrigin({ ancestorOrigins: ["null"], search: "", referrer: `${HOST}/` }), HOST);
  assert.equal(hostOrigin({ search: "?origin=http://127.0.0.1:8123" }), "http://127.0.0.1:8123");
});

test("no origin known: none", () => {
  assert.equal(hostOrigin({ ancestorOrigins: [], search: "", referrer: "" }), null);
  assert.equal(hostOrigin({}), null);
  // an origin= that is not an origin alone counts for nothing
  for (const bad of ["*", "null", "docs.example", `${HOST}/path`, "javascript:alert(1)", "about:blank"]) {
    assert.equal(hostOrigin({ search: `?origin=${encodeURIComponent(bad)}` }), null, bad);
  }
});

/** A frame whose parent records what it was sent, with the target origin. */
function frame({ ancestorOrigins, search = "", referrer = "" }) {
  const sent = [];
  const listeners = new Map();
  const win = {
    location: { ancestorOrigins, search },
    parent: { postMessage: (message, target) => sent.push({ message, target }) },
  };
  const doc = {
    referrer,
    body: {},
    documentElement: { scrollHeight: 321.4 },
    addEventListener: (type, fn) => listeners.set(type, fn),
  };
  const dispatch = (type, detail) => listeners.get(type)?.({ detail });
  return { win, doc, sent, dispatch };
}

globalThis.ResizeObserver = class {
  observe() {}
};

test("every message goes to the host's origin, never to any", () => {
  const f = frame({ search: `?origin=${encodeURIComponent(HOST)}` });
  installEmbedBridge(f.win, f.doc);
  f.dispatch("loopstep:pause", { block: "s06/run_subagent", scenario: "limit", step: 3, line: 15 });
  f.dispatch("loopstep:finish", { block: "s06/run_subagent", scenario: "limit", status: "finished",
    output: "ok\n" });
  assert.deepEqual(f.sent.map((s) => s.message.type), ["loopstep:resize", "loopstep:pause", "loopstep:finish"]);
  assert.ok(f.sent.every((s) => s.target === HOST), JSON.stringify(f.sent));
  assert.deepEqual(f.sent[0].message, { type: "loopstep:resize", height: 322 });
  assert.deepEqual(f.sent[1].message, { type: "loopstep:pause", block: "s06/run_subagent",
    scenario: "limit", step: 3, line: 15 });
});

test("no host origin known: nothing is posted", () => {
  const f = frame({ ancestorOrigins: [], search: "?scenario=limit", referrer: "" });
  installEmbedBridge(f.win, f.doc);
  f.dispatch("loopstep:pause", { block: "s06/run_subagent", step: 0, line: 1 });
  assert.deepEqual(f.sent, []);
});
