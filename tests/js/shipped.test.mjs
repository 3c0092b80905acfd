import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.document ??= { baseURI: "http://site.example/lessons/s06/" };
const { ShippedTraces } = await import("../../web/static/js/page/shipped.js");

const TRACES = { url: "../../vendor/loopstep-boot-1/traces/s06/", version: "abc123",
  runs: { run_subagent: ["normal", "limit"] } };

function stubFetch(answer) {
  const asked = [];
  globalThis.fetch = async (url, init) => {
    asked.push({ url, init });
    return answer(url);
  };
  return asked;
}

test("a preset's recording: its URL under the page's base, with the lesson's version", () => {
  const shipped = new ShippedTraces(TRACES, "");
  assert.equal(shipped.url("run_subagent", "limit"),
    "http://site.example/vendor/loopstep-boot-1/traces/s06/run_subagent/limit.json?v=abc123");
  assert.equal(shipped.url("run_subagent", "custom"), null);
  assert.equal(shipped.url("task_result", "normal"), null);
  assert.equal(new ShippedTraces(null, "").url("run_subagent", "normal"), null);
  // ?trace=live: every run is recorded live
  assert.equal(new ShippedTraces(TRACES, "?trace=live").url("run_subagent", "normal"), null);
});

test("a recording that does not load is null, and live from then on", async () => {
  const asked = stubFetch(() => ({ ok: false, status: 404, text: async () => "gone" }));
  const shipped = new ShippedTraces(TRACES, "");
  assert.equal(await shipped.trace("run_subagent", "normal"), null);
  assert.equal(shipped.url("run_subagent", "normal"), null);
  assert.equal(await shipped.trace("run_subagent", "normal"), null);
  assert.equal(asked.length, 1);
});

test("a prefetched recording is fetched once, at a low priority, and read", async () => {
  // a shipped trace of the build (`make build`)
  const { readFileSync, readdirSync } = await import("node:fs");
  const folder = new URL("../../web/vendor/", import.meta.url);
  const boot = readdirSync(folder).find((n) => n.startsWith("loopstep-boot-"));
  const packed = readFileSync(new URL(`${boot}/traces/s06/run_subagent/normal.json`, folder), "utf8");
  const asked = stubFetch(() => ({ ok: true, status: 200, text: async () => packed }));
  const shipped = new ShippedTraces(TRACES, "");
  shipped.prefetch("run_subagent", "normal");
  const trace = await shipped.trace("run_subagent", "normal");
  assert.equal(asked.length, 1);
  assert.equal(asked[0].init.priority, "low");
  assert.equal(trace.status, "finished");
});
