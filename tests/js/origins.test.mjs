// Message origins over a packed agent part: answers go to their call, other messages
// to the step that added them, tool results to their tool execution (by id, the n-th
// result of an id to its n-th execution, else by order), and the changed-after-send step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Calls } from "../../web/static/js/model/agent-calls.js";
import { Origins, pairResults } from "../../web/static/js/model/origins.js";

const agent = {
  conversations: [[0, null]],
  messages: [
    ["user", "read a and b"],                                                     // 0
    ["assistant", ["reading", ["tool_use", "a", "read_file", { path: "a" }],
      ["tool_use", "b", "read_file", { path: "b" }]]],                            // 1
    ["user", [["tool_result", "a", "alpha", false], ["tool_result", "b", "beta", false]]], // 2
    ["assistant", [["tool_use", "a", "read_file", { path: "a" }]]],                // 3 (id reused)
    ["user", [["tool_result", "a", "alpha again", false]]],                       // 4
    ["assistant", ["done"]],                                                      // 5
  ],
  calls: [
    [0, 3, 4, 0, [0], "tool_use", 1, null],
    [0, 20, 21, 1, [1, 2], "tool_use", 3, null],
    [0, 30, 31, 3, [3, 4], "end_turn", 5, null],
  ],
  tools: [[11, 12, "read_file", "a", {}, "alpha", 0], [15, 16, "read_file", "b", {}, "beta", 0],
    [24, 25, "read_file", "a", {}, "alpha again", 0]],
  added: [1, 5, 18, 22, 28, null],
  changed: [5, 22, null],
};

test("an answer's origin is its call; other messages the step that added them", () => {
  const origins = new Origins(new Calls(agent), agent);
  assert.equal(origins.messageStep(0), 1);
  assert.equal(origins.messageStep(1), 3);     // answered by the first call (added at 5)
  assert.equal(origins.messageStep(3), 20);
  assert.equal(origins.messageStep(2), 18);
  assert.equal(origins.messageStep(4), 28);
});

test("without a recorded step, a message's origin is the first call that sent it", () => {
  const bare = { ...agent, added: [null, null, null, null, null, null] };
  const origins = new Origins(new Calls(bare), bare);
  assert.equal(origins.messageStep(0), 3);
  assert.equal(origins.messageStep(2), 20);
  assert.equal(origins.messageStep(4), 30);
  const old = { ...agent };   // a trace from before the field existed
  delete old.added;
  delete old.changed;
  const fromOld = new Origins(new Calls(old), old);
  assert.equal(fromOld.messageStep(4), 30);
  assert.equal(fromOld.changedStep(0), null);
});

test("each tool_result part goes to its own tool execution, a reused id in turn", () => {
  const origins = new Origins(new Calls(agent), agent);
  assert.equal(origins.partStep(2, 0), 11);
  assert.equal(origins.partStep(2, 1), 15);
  assert.equal(origins.partStep(4, 0), 24);
  assert.equal(origins.partStep(0, 0), null);
});

test("tools called without a tool_use id pair with the unmatched results by order", () => {
  const noIds = agent.tools.map(([s, r, n, , i, res, e]) => ({ step: s, ret: r, name: n, id: null,
    input: i, result: res, error: Boolean(e) }));
  const paired = pairResults(agent.messages, noIds);
  assert.deepEqual([...paired.entries()], [["2:0", 0], ["2:1", 1], ["4:0", 2]]);
  const mixed = noIds.map((t, k) => (k === 1 ? { ...t, id: "b" } : t));
  assert.deepEqual([...pairResults(agent.messages, mixed).entries()].sort(),
    [["2:0", 0], ["2:1", 1], ["4:0", 2]]);
});

test("the changed-after-send step of each call", () => {
  const origins = new Origins(new Calls(agent), agent);
  assert.deepEqual([0, 1, 2].map((k) => origins.changedStep(k)), [5, 22, null]);
});

test("the recorded s06 run: the 42 result goes to the second read_file run", () => {
  const { packed } = JSON.parse(readFileSync(new URL("../fixtures/agent_calls.json", import.meta.url), "utf8"));
  const calls = new Calls(packed);
  const origins = new Origins(calls, packed);
  const ids = calls.ids(2);
  const result = ids.find((id) => JSON.stringify(calls.pool[id]).includes('"42"'));
  assert.equal(origins.partStep(result, 0), calls.tools[1].step);
  const before = ids[ids.indexOf(result) - 1];
  assert.equal(origins.messageStep(before), calls.calls[1].step);
});

test("the change of what a call sent: the step, how (removed, replaced, edited) and which message", () => {
  const withKinds = { ...agent, changed: [null, [22, "edited", 2], [40, "removed", 3]] };
  const origins = new Origins(new Calls(withKinds), withKinds);
  assert.equal(origins.change(0), null);
  assert.equal(origins.changedStep(0), null);
  assert.deepEqual(origins.change(1), { step: 22, kind: "edited", position: 2 });
  assert.deepEqual(origins.change(2), { step: 40, kind: "removed", position: 3 });
  assert.equal(origins.changedStep(2), 40);
  // a trace from before the kinds: a bare step, no kind
  assert.deepEqual(new Origins(new Calls(agent), agent).change(0), { step: 5, kind: null, position: null });
});

test("a tool_result part's execution says whether the recording answered it and cut it", () => {
  const recorded = { ...agent, tools: [
    [...agent.tools[0], 0, null, 1, null],
    [...agent.tools[1], 0, null, 1, { length: 7200 }],
    agent.tools[2],   // a trace from before the fields existed
  ] };
  const origins = new Origins(new Calls(recorded), recorded);
  assert.deepEqual([origins.partTool(2, 0).recorded, origins.partTool(2, 0).source_cut], [true, null]);
  assert.deepEqual(origins.partTool(2, 1).source_cut, { length: 7200 });
  assert.deepEqual([origins.partTool(4, 0).recorded, origins.partTool(4, 0).source_cut], [false, null]);
  assert.equal(origins.partTool(0, 0), null);
});
