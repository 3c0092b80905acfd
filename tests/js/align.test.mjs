import { test } from "node:test";
import assert from "node:assert/strict";
import { align, stepKeys, rowOf, stepAt, GAP } from "../../web/static/js/model/align.js";
import { fromSteps } from "../../web/static/js/model/trace.js";

/** The LCS length by the textbook dynamic program: the oracle for small inputs. */
function lcsLength(a, b) {
  let prev = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const row = new Int32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    }
    prev = row;
  }
  return prev[b.length];
}

/** Every step of each side appears once, in order; matched rows have equal keys. */
function checkValid(a, b, rows) {
  let i = 0;
  let j = 0;
  let matches = 0;
  for (let k = 0; k < rows.length; k++) {
    assert.ok(rows.a[k] !== GAP || rows.b[k] !== GAP, `row ${k} is empty`);
    if (rows.a[k] !== GAP) assert.equal(rows.a[k], i++);
    if (rows.b[k] !== GAP) assert.equal(rows.b[k], j++);
    if (rows.a[k] !== GAP && rows.b[k] !== GAP) {
      assert.equal(a[rows.a[k]], b[rows.b[k]]);
      matches++;
    }
  }
  assert.equal(i, a.length);
  assert.equal(j, b.length);
  return matches;
}

function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

test("identical runs: all matches, no divergence", () => {
  const a = Int32Array.from([1, 2, 3, 2, 3, 4]);
  const rows = align(a, a.slice());
  assert.equal(checkValid(a, a, rows), 6);
  assert.equal(rows.divergence, -1);
});

test("the divergence is the first row after the common prefix", () => {
  const a = Int32Array.from([1, 2, 3, 4, 5, 9]);
  const b = Int32Array.from([1, 2, 3, 7, 7, 4, 5, 9]);
  const rows = align(a, b);
  assert.equal(checkValid(a, b, rows), 6);
  assert.equal(rows.divergence, 3);
  assert.equal(rows.a[3], GAP);
  assert.equal(rows.b[3], 3);
});

test("a run that stops early diverges where it stops", () => {
  const a = Int32Array.from([1, 2, 3]);
  const b = Int32Array.from([1, 2, 3, 4]);
  const rows = align(a, b);
  assert.equal(rows.divergence, 3);
  assert.deepEqual([rows.a[3], rows.b[3]], [GAP, 3]);
  assert.equal(align(new Int32Array(0), b).divergence, 0);
  assert.equal(align(new Int32Array(0), new Int32Array(0)).divergence, -1);
});

test("random sequences: a valid alignment with as many matches as the LCS", () => {
  const rand = random(7);
  for (let round = 0; round < 400; round++) {
    const alphabet = 1 + Math.floor(rand() * 6);
    const a = Int32Array.from({ length: Math.floor(rand() * 40) }, () => Math.floor(rand() * alphabet));
    const b = Int32Array.from({ length: Math.floor(rand() * 40) }, () => Math.floor(rand() * alphabet));
    const rows = align(a, b);
    assert.equal(checkValid(a, b, rows), lcsLength(a, b), `round ${round}: ${a} / ${b}`);
    let prefix = 0;
    while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
    const same = prefix === a.length && prefix === b.length;
    assert.equal(rows.divergence, same ? -1 : prefix);
  }
});

test("past the work budget the rest is aligned greedily, still valid", () => {
  const a = Int32Array.from({ length: 50 }, (_, i) => i);
  const b = Int32Array.from({ length: 50 }, (_, i) => 100 + i);
  const rows = align(a, b, { budget: 10 });
  assert.equal(checkValid(a, b, rows), 0);
  assert.equal(rows.divergence, 0);
  // a loop whose branch differs from some iteration on: the greedy pass resynchronises
  const loop = (from) => Int32Array.from({ length: 2000 }, (_, i) => (i % 4 === 2 && i >= from ? 5 : i % 4));
  const [la, lb] = [loop(4000), loop(600)];
  const greedy = align(la, lb, { budget: 10 });
  assert.equal(checkValid(la, lb, greedy), lcsLength(la, lb));
  assert.equal(greedy.divergence, 602);
});

test("long loops: two 10,000-step runs that differ in a few iterations stay aligned", () => {
  const loop = (skip) => {
    const keys = [];
    for (let i = 0; i < 2500; i++) {
      keys.push(1, 2);
      keys.push(skip(i) ? 5 : 3, 4);
    }
    return Int32Array.from(keys);
  };
  const a = loop(() => false);
  const b = loop((i) => i % 500 === 7);
  const rows = align(a, b);
  assert.equal(checkValid(a, b, rows), lcsLength(a, b));
  assert.equal(rows.divergence, 4 * 7 + 2);
});

test("step keys are (depth, line, event); rowOf and stepAt map between sides", () => {
  const step = (event, line, depth) => ({ event, line, fn: "f", frame: 1, depth, stack: 0, out: 0, set: {} });
  const ta = fromSteps([step("call", 1, 1), step("line", 2, 1), step("line", 3, 1), step("return", 3, 1)]);
  const tb = fromSteps([step("call", 1, 1), step("line", 2, 1), step("line", 2, 2), step("line", 3, 1), step("return", 3, 1)]);
  const ka = stepKeys(ta);
  const kb = stepKeys(tb);
  assert.notEqual(ka[1], kb[2]); // same line, other depth
  assert.notEqual(ka[2], ka[3]); // same line, other event
  const rows = align(ka, kb);
  assert.equal(rows.divergence, 2);
  const rowsOfA = rowOf(rows.a, ta.count);
  assert.deepEqual([...rowsOfA], [0, 1, 3, 4]);
  assert.equal(stepAt(rows.b, rowsOfA[2]), 3);
  assert.equal(stepAt(rows.a, 2), 1); // B's extra step: A rests at its step before
});
