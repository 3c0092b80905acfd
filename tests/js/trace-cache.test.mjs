import { test } from "node:test";
import assert from "node:assert/strict";
import { TraceCache, traceBytes, TRACE_CACHE_BYTES } from "../../web/static/js/model/trace-cache.js";
import { fromPacked } from "../../web/static/js/model/trace.js";

/** Values that say their own size. */
const sized = (name, bytes) => ({ name, bytes });
const small = () => new TraceCache({ budget: 100, sizeOf: (v) => v.bytes });
const keys = (cache) => [...cache.entries.keys()];

test("the page's budget is 64 MB", () => {
  assert.equal(TRACE_CACHE_BYTES, 64 * 1024 * 1024);
  assert.equal(new TraceCache().budget, TRACE_CACHE_BYTES);
});

test("over budget, the least recently used go first", () => {
  const cache = small();
  cache.set("a", sized("a", 40));
  cache.set("b", sized("b", 40));
  assert.equal(cache.bytes, 80);
  cache.set("c", sized("c", 40)); // 120 > 100: a, the oldest, goes
  assert.deepEqual(keys(cache), ["b", "c"]);
  assert.equal(cache.bytes, 80);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.get("b").name, "b"); // b is now the most recently used
  cache.set("d", sized("d", 40));
  assert.deepEqual(keys(cache), ["b", "d"]);
  cache.set("e", sized("e", 90)); // needs both others out
  assert.deepEqual(keys(cache), ["e"]);
  assert.equal(cache.bytes, 90);
});

test("storing a key again replaces its value and its size", () => {
  const cache = small();
  cache.set("a", sized("a", 60));
  cache.set("a", sized("a2", 10));
  assert.equal(cache.bytes, 10);
  assert.equal(cache.get("a").name, "a2");
  assert.equal(cache.size, 1);
});

test("the run on screen and the run compared with are never dropped", () => {
  const cache = small();
  const shown = cache.set("shown", sized("shown", 40));
  const compared = cache.set("compared", sized("compared", 40));
  cache.hold("block shown", shown);
  cache.hold("block compared", compared);
  cache.set("c", sized("c", 30)); // 110: only c itself could go, and it was just stored
  assert.deepEqual(keys(cache), ["shown", "compared", "c"]);
  cache.set("d", sized("d", 10)); // c, the oldest not held, goes
  assert.deepEqual(keys(cache), ["shown", "compared", "d"]);
  assert.ok(cache.held(shown) && cache.held(compared));

  cache.hold("block shown", null); // the block shows nothing now: the run may go
  assert.ok(!cache.held(shown));
  cache.set("e", sized("e", 30));
  assert.deepEqual(keys(cache), ["compared", "d", "e"]);
  assert.equal(cache.bytes, 80);

  cache.hold("block compared", cache.get("e")); // another run compared: the old one may go
  cache.set("f", sized("f", 50)); // 130: the old compared run, now the oldest, goes
  assert.deepEqual(keys(cache), ["d", "e", "f"]);
});

test("a value over the whole budget is kept while it is the newest", () => {
  const cache = small();
  cache.set("a", sized("a", 10));
  cache.set("big", sized("big", 150));
  assert.deepEqual(keys(cache), ["big"]);
  cache.set("b", sized("b", 10));
  assert.deepEqual(keys(cache), ["b"]);
});

/** A packed trace of `n` steps of one frame, each changing a local to a `width`-char string. */
function packedTrace(n, width) {
  const set = [];
  for (let i = 0; i < n; i++) set.push(i === 0 ? 0 : 1, 1, 0, `'${String(i).padStart(width, "x")}'`);
  return JSON.stringify({
    format: 1, stdout: "out\n".repeat(100), status: "finished", stacks: [[]],
    packed: 1, count: n, frames: [[1, "f", 1, 0]], names: ["v"],
    event: "0" + "1".repeat(n - 1), line: Array.from({ length: n }, (_, i) => 1 + (i % 9)),
    frame: [0, n], end: [], out: [0, 400], set, del: [], ret: [], exc: [],
  });
}

test("a trace's size counts its typed arrays and the values it holds", () => {
  const narrow = fromPacked(packedTrace(10_000, 4));
  const wide = fromPacked(packedTrace(10_000, 200));
  const arrays = (t) => Object.values(t).filter(ArrayBuffer.isView).reduce((s, a) => s + a.byteLength, 0);
  assert.ok(arrays(narrow) >= 10_000 * 21, arrays(narrow)); // about 21 bytes a step (trace.js)
  assert.ok(traceBytes(narrow) > arrays(narrow) + 10_000 * 2 * 6); // + each value's characters
  // 10,000 values 196 characters longer, 2 bytes each
  const extra = traceBytes(wide) - traceBytes(narrow);
  assert.ok(Math.abs(extra / (10_000 * 196 * 2) - 1) < 0.01, extra);
  // within a small factor of its packed JSON text
  const json = packedTrace(10_000, 200).length;
  assert.ok(traceBytes(wide) > json && traceBytes(wide) < 4 * json, [traceBytes(wide), json]);
});

test("a page's traces stay within its budget, the one on screen kept", () => {
  const cache = new TraceCache({ budget: 8 * 1024 * 1024 }); // real sizes, a small page budget
  const kept = [];
  let shown = null;
  for (let i = 0; i < 12; i++) {
    const trace = cache.set(`block\nscenario${i}`, fromPacked(packedTrace(5_000, 100 + i)));
    if (i === 2) {
      shown = trace;
      cache.hold("block shown", trace);
    }
    kept.push(cache.size);
    assert.ok(cache.bytes <= cache.budget, `${cache.bytes} bytes after ${i + 1} traces`);
  }
  assert.ok(cache.has("block\nscenario2") && cache.get("block\nscenario2") === shown);
  assert.ok(!cache.has("block\nscenario0") && cache.has("block\nscenario11"));
  assert.ok(Math.max(...kept) < 12, kept);
});
