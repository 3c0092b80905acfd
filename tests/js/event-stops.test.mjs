// Event breakpoints: from the packed agent part to the steps that stop, and the
// stepping over them (Debug, Continue) with and without line breakpoints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { END, step, hitIndices } from "../../web/static/js/model/stepping.js";
import { fromSteps } from "../../web/static/js/model/trace.js";
import { eventSteps, eventBreakpoint, eventKey, parseEventKey } from "../../web/static/js/model/event-stops.js";

const S = (event, line, depth = 1) => ({ event, line, end: line, fn: "loop", frame: 1, depth, stack: 0, out: 0 });

// A loop: model call at 2 (tool_use), tools at 4 and 5 (the second raised), model call at 7
// (end_turn); step 3 is a call event (a helper entered), so a stop there settles on 4.
const steps = [
  S("call", 1), S("line", 2), S("line", 3), S("call", 9, 2), S("line", 4), S("line", 5),
  S("line", 6), S("line", 7), S("line", 8), S("return", 8),
];
const agent = {
  conversations: [[0, null]],
  messages: [],
  // [C, STEP, RET, SHARED, NEW, STOP, RESPONSE, ERROR]
  calls: [[0, 2, 3, 0, [], "tool_use", 0, null], [0, 7, 8, 0, [], "end_turn", 1, null]],
  // [STEP, RET, NAME, ID, INPUT, RESULT, ERROR]
  tools: [[4, 5, "read_file", "a", {}, "x", 0], [5, 6, "bash", "b", {}, "Boom: no", 1]],
};
const trace = fromSteps(steps, { agent });
const stops = (...keys) => [...eventSteps(trace, keys.map(parseEventKey))].sort((a, b) => a - b);

test("each kind stops at its steps", () => {
  assert.deepEqual(stops("model:"), [2, 7]);
  assert.deepEqual(stops("model:2"), [7]);
  assert.deepEqual(stops("model:3"), []);
  assert.deepEqual(stops("tool:"), [4, 5]);
  assert.deepEqual(stops("tool:bash"), [5]);
  assert.deepEqual(stops("tool:write_file"), []);
  assert.deepEqual(stops("error:"), [5]);
  // a response's stop reason stops where its result is first seen (ret 3 is a call event: 4)
  assert.deepEqual(stops("stop-reason:tool_use"), [4]);
  assert.deepEqual(stops("stop-reason:end_turn"), [8]);
  assert.deepEqual(stops("stop-reason:"), [4, 8]);
  assert.deepEqual(stops("model:1", "tool:bash"), [2, 5]);
});

test("no agent part or no event breakpoints: no stops", () => {
  assert.equal(eventSteps(fromSteps(steps), [parseEventKey("model:")]).size, 0);
  assert.equal(eventSteps(trace, []).size, 0);
  assert.equal(eventSteps(null, [parseEventKey("model:")]).size, 0);
});

test("Debug and Continue stop at event steps as at breakpoints", () => {
  const ev = eventSteps(trace, [parseEventKey("tool:")]);
  assert.equal(step(trace, END, "debug", [], ev), 4);
  assert.equal(step(trace, 4, "continue", [], ev), 5);
  assert.equal(step(trace, 5, "continue", [], ev), END);
  // with a line breakpoint on 7 too
  assert.equal(step(trace, 5, "continue", [7], ev), 7);
  assert.equal(step(trace, END, "debug", [6], ev), 4);
  // a step over from line 3 does not skip an event stop inside the helper it enters
  assert.equal(step(trace, 2, "step-over", [], new Set([4])), 4);
  assert.deepEqual(hitIndices(trace, [8], ev), [4, 5, 8]);
  assert.deepEqual(hitIndices(trace, [], null), []);
});

test("form input: bad model numbers and kinds are refused; error ignores its value", () => {
  assert.deepEqual(eventBreakpoint("model", " 3 "), { kind: "model", value: "3" });
  assert.equal(eventBreakpoint("model", "0").error, "event_bp_number");
  assert.equal(eventBreakpoint("model", "two").error, "event_bp_number");
  assert.equal(eventBreakpoint("line", "3").error, "event_bp_kind");
  assert.deepEqual(eventBreakpoint("error", "x"), { kind: "error", value: "" });
  assert.equal(eventKey({ kind: "tool", value: "read_file" }), "tool:read_file");
  assert.deepEqual(parseEventKey("stop-reason:max_tokens"), { kind: "stop-reason", value: "max_tokens" });
  assert.deepEqual(parseEventKey("tool:a:b"), { kind: "tool", value: "a:b" });
  assert.equal(parseEventKey("nonsense"), null);
  assert.equal(parseEventKey("model:x"), null);
});
