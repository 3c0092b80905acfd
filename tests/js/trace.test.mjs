import { test } from "node:test";
import assert from "node:assert/strict";
import { fromPacked, fromSteps, EVENTS } from "../../web/static/js/model/trace.js";

const steps = [
  { event: "call", line: 1, end: 1, fn: "f", frame: 1, depth: 1, stack: 0, set: { n: "3" }, out: 0 },
  { event: "line", line: 2, end: 4, fn: "f", frame: 1, depth: 1, stack: 0, set: { a: "1", b: "2" }, out: 0 },
  { event: "call", line: 5, end: 5, fn: "<lambda>", frame: 2, depth: 3, stack: 1, set: {}, out: 6 },
  { event: "exception", line: 5, end: 5, fn: "<lambda>", frame: 2, depth: 3, stack: 1, set: {}, out: 6,
    exc: { type: "ValueError", message: "bad" } },
  { event: "line", line: 7, end: 7, fn: "f", frame: 1, depth: 1, stack: 0, set: { b: "5" }, del: ["a"], out: 6 },
  { event: "return", line: 8, end: 8, fn: "f", frame: 1, depth: 1, stack: 0, set: {}, out: 9, ret: ["list", 1, "5"] },
];

// The same trace as runtime/trace/wire.py packs it.
const packed = JSON.stringify({
  format: 1, stdout: "hello\nbye", status: "finished", stacks: [[], [{ name: "g", line: 2, hidden: true }]],
  packed: 1, count: 6,
  frames: [[1, "f", 1, 0], [2, "<lambda>", 3, 1]],
  event: "010312", line: [1, 2, 5, 5, 7, 8], frame: [0, 2, 1, 2, 0, 2],
  end: [1, 4], out: [2, 6, 3, 9],
  set: [0, 1, 0, "3", 1, 2, 1, "1", 2, "2", 3, 1, 2, "5"],
  del: [4, 1, 1], ret: [5, ["list", 1, "5"]], exc: [3, "ValueError", "bad"],
  names: ["n", "a", "b"],
});

function same(a, b) {
  assert.equal(a.count, b.count);
  for (let i = 0; i < a.count; i++) {
    for (const field of ["event", "line", "end", "frame", "depth", "fn", "stack", "out", "set",
      "del", "ret", "exc"]) {
      assert.deepEqual(a[field](i), b[field](i), `${field}(${i})`);
    }
    assert.deepEqual(a.at(i), b.at(i));
  }
}

test("packed and dict forms give the same accessors", () => {
  const p = fromPacked(packed);
  const s = fromSteps(steps, { stdout: "hello\nbye", stacks: [] });
  same(p, s);
  assert.equal(p.stdout, "hello\nbye");
  assert.equal(p.status, "finished");
  assert.equal(p.stacks.length, 2);
});

test("accessors read each field of a step", () => {
  const t = fromPacked(packed);
  steps.forEach((s, i) => assert.deepEqual(t.at(i), s, `step ${i}`));
  assert.equal(t.end(1), 4);
  assert.equal(t.depth(3), 3);
  assert.equal(t.fn(2), "<lambda>");
  assert.deepEqual(t.del(0), []);
  assert.equal(t.ret(0), undefined);
  assert.equal(t.at(6), null);
  assert.deepEqual(EVENTS, ["call", "line", "return", "exception"]);
});

test("an empty trace has no steps", () => {
  const t = fromSteps([]);
  assert.equal(t.count, 0);
  assert.equal(t.at(0), null);
});

test("a million steps take about 21 bytes each in typed arrays", () => {
  const n = 1_000_000;
  const lines = new Array(n);
  for (let i = 0; i < n; i++) lines[i] = 3 + (i % 3);
  const t = fromPacked({ count: n, frames: [[1, "f", 1, 0]], event: "1".repeat(n), line: lines,
    frame: [0, n], end: [], out: [], set: [], del: [], ret: [], exc: [], names: [] });
  const bytes = [t.events, t.lines, t.ends, t.rows, t.outs, t.setStart]
    .reduce((sum, a) => sum + a.byteLength, 0);
  assert.ok(bytes / n <= 22, `${bytes / n} bytes per step`);
  assert.equal(t.line(999_999), 3 + (999_999 % 3));
});
