// Why the cursor stopped where it did (page/stop-notes.js): Step into over a call of a
// function the block does not show, and Debug with no breakpoint.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FIRST_LINE, noStops, steppedOver } from "../../web/static/js/page/stop-notes.js";
import { END, step } from "../../web/static/js/model/stepping.js";
import { fromSteps } from "../../web/static/js/model/trace.js";

const S = (event, line, depth, extra = {}) =>
  ({ event, line, end: extra.end ?? line, fn: "f", frame: depth, depth, stack: 0, out: 0, ...extra });

// line 7 calls child_tools (not shown); line 15-16 calls run_loop (not shown), which calls
// a lambda the block shows
const trace = fromSteps([
  S("call", 1, 1),                 // 0
  S("line", 7, 1),                 // 1
  S("line", 8, 1),                 // 2
  S("line", 15, 1, { end: 16 }),   // 3
  S("call", 15, 2),                // 4
  S("line", 15, 2),                // 5
  S("return", 15, 2),              // 6
  S("line", 17, 1),                // 7
  S("return", 17, 1),              // 8
]);
const hidden = { 7: ["child_tools"], 15: ["run_loop", "ask"], 16: ["run_loop"] };

test("a step into that stayed in the frame names the hidden calls of its statement", () => {
  const to = step(trace, 1, "step-into", []);
  assert.equal(to, 2);
  assert.deepEqual(steppedOver(trace, 1, to, hidden), { kind: "hidden", names: ["child_tools"] });
});

test("a step into that entered a shown function says nothing", () => {
  const to = step(trace, 3, "step-into", []);
  assert.equal(to, 5);
  assert.equal(steppedOver(trace, 3, to, hidden), null);
});

test("a statement that calls nothing hidden, a return step and the end say nothing", () => {
  assert.equal(steppedOver(trace, 2, 3, hidden), null);
  assert.equal(steppedOver(trace, 6, 7, hidden), null);
  assert.equal(steppedOver(trace, END, END, hidden), null);
  assert.deepEqual(steppedOver(trace, 1, END, hidden), { kind: "hidden", names: ["child_tools"] });
});

test("no stops: no line breakpoint and no event breakpoint", () => {
  assert.equal(noStops(new Set(), null), true);
  assert.equal(noStops(new Set(), []), true);
  assert.equal(noStops(new Set([3]), []), false);
  assert.equal(noStops(new Set(), ["model:"]), false);
  assert.equal(FIRST_LINE.kind, "first");
});
