// The conversation model (web/static/js/model/agent-calls.js) on packed "agent" data.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Calls, parts, inputText } from "../../web/static/js/model/agent-calls.js";

// Two conversations: the parent (0) calls at steps 2 and 20; a subagent (1, depth 1)
// calls at 6 and 12 while the parent's tool runs. As runtime/agent/wire.py packs it.
const AGENT = {
  conversations: [[0, null], [1, 0]],
  messages: [
    ["user", "task"],
    ["assistant", [["tool_use", "t1", "task", { prompt: "sub" }]]],
    ["user", "sub"],
    ["assistant", [["tool_use", "s1", "read_file", { path: "a.txt" }]]],
    ["user", [["tool_result", "s1", "A", false]]],
    ["assistant", ["done"]],
    ["user", [["tool_result", "t1", ["x", "done"], true]]],
    ["assistant", ["<b>end</b>"]],
  ],
  calls: [
    [0, 2, 3, 0, [0], "tool_use", 1, null],
    [1, 6, 7, 0, [2], "tool_use", 3, null],
    [1, 12, 13, 1, [3, 4], "end_turn", 5, null],
    [0, 20, 21, 1, [1, 6], "end_turn", 7, null],
  ],
  tools: [[4, 18, "task", "t1", { prompt: "sub" }, "done", 0], [8, 10, "read_file", "s1", { path: "a.txt" }, "A", 0]],
};

test("the call at a cursor, its messages and what is new", () => {
  const calls = new Calls(AGENT);
  assert.equal(calls.view(1), null);
  let v = calls.view(2);
  assert.deepEqual([v.number, v.total, v.depth, v.levels], [1, 4, 0, [0]]);
  assert.deepEqual(v.messages.map((m) => [m.id, m.author, m.isNew]), [[0, "user", true]]);
  assert.equal(v.response, null);                       // not returned yet at its own step
  assert.deepEqual(calls.view(3).response, { stop: "tool_use", id: 1 });
  v = calls.view(12);
  assert.deepEqual(v.levels, [0, 1]);
  assert.deepEqual(v.messages.map((m) => [m.id, m.isNew]), [[2, false], [3, true], [4, true]]);
  v = calls.view(-1);                                   // END: the last call, returned
  assert.deepEqual(v.messages.map((m) => [m.id, m.isNew]), [[0, false], [1, true], [6, true]]);
  assert.deepEqual(v.response, { stop: "end_turn", id: 7 });
});

test("previous and next model call", () => {
  const calls = new Calls(AGENT);
  assert.equal(calls.target("next", 0), 2);
  assert.equal(calls.target("next", 2), 6);
  assert.equal(calls.target("next", 7), 12);
  assert.equal(calls.target("next", 20), null);
  assert.equal(calls.target("prev", 2), null);
  assert.equal(calls.target("prev", 6), 2);
  assert.equal(calls.target("prev", 7), 6);
  assert.equal(calls.target("prev", -1), 20);
  assert.equal(calls.target("next", -1), null);
});

test("parts, pairing data and marks", () => {
  const calls = new Calls(AGENT);
  assert.deepEqual(calls.messageParts(1), [{ kind: "tool_use", id: "t1", name: "task", input: { prompt: "sub" } }]);
  assert.deepEqual(calls.messageParts(6), [{ kind: "tool_result", id: "t1", text: "x\ndone", error: true }]);
  assert.deepEqual(parts("<b>x</b>"), [{ kind: "text", text: "<b>x</b>" }]);
  assert.equal(inputText({ path: "a" }), '{\n  "path": "a"\n}');
  assert.deepEqual(calls.marks().map((m) => [m.kind, m.step]),
    [["model", 2], ["model", 6], ["model", 12], ["model", 20], ["tool", 4], ["tool", 8]]);
});

test("calls that share a step are reached one by one", () => {
  // a subagent run by code that is not displayed: both its calls happen during step 11
  const calls = new Calls({
    conversations: [[0, null], [1, 0]],
    messages: [["user", "q"], ["user", "sub"], ["assistant", ["a"]], ["user", "more"]],
    calls: [[0, 2, 3, 0, [0], "tool_use", 2, null], [1, 11, 12, 0, [1], "tool_use", 2, null],
      [1, 11, 12, 1, [2, 3], "end_turn", 2, null], [0, 16, 17, 1, [3], "end_turn", 2, null]],
    tools: [],
  });
  assert.equal(calls.view(11).number, 3);               // the cursor alone: the last call there
  assert.equal(calls.hop("next", 2), 1);
  assert.equal(calls.view(11, 1).number, 2);            // pinned: the first call of the step
  assert.equal(calls.view(11, 1).messages.length, 1);
  assert.equal(calls.hop("next", 11, 1), 2);
  assert.equal(calls.hop("next", 11, 2), 3);
  assert.equal(calls.hop("prev", 11, 2), 1);
  assert.equal(calls.hop("prev", 11, 1), 0);
  assert.equal(calls.view(12, 1).number, 3);            // a pin holds only on its own step
});

test("tool rows leave out their trailing defaults, and a missing returned is the result", () => {
  const calls = new Calls({
    conversations: [], messages: [], calls: [],
    tools: [
      [3, 4, "read_file", "t1", { path: "a" }, "A", 0],
      [5, 6, "read_file", "t2", { path: "b" }, "B", 0, { result: "B", warnings: [] }],
      [7, 8, "bash", "t3", {}, "Boom: no", 1, null],
      [9, 10, "read_file", "t4", {}, "C", 0, "C", 1, 1, { length: 9 }],
    ],
  });
  const base = { cut: false, recorded: false, source_cut: null };
  assert.deepEqual(calls.tools.map(({ returned, cut, recorded, source_cut }) => ({ returned, cut, recorded, source_cut })), [
    { ...base, returned: "A" },
    { ...base, returned: { result: "B", warnings: [] } },
    { ...base, returned: null },
    { returned: "C", cut: true, recorded: true, source_cut: { length: 9 } },
  ]);
  assert.deepEqual(calls.tools.map((t) => t.error), [false, false, true, false]);
});

test("a tolerant replay's differences: on the call shown, its marks and the count", () => {
  const marked = {
    ...AGENT,
    calls: AGENT.calls.map((c, k) => (k === 2 ? [...c, "messages[1].content[0].text"] : c)),
    tools: [AGENT.tools[0], [...AGENT.tools[1], "A", 0, 1, null, 1, "tool:read_file"]],
  };
  const calls = new Calls(marked);
  assert.equal(calls.view(6).differs, null);
  assert.equal(calls.view(13).differs, "messages[1].content[0].text");
  assert.deepEqual(calls.marks().filter((m) => m.differs !== null).map((m) => [m.kind, m.number]),
    [["model", 3], ["tool", 2]]);
  assert.equal(calls.tools[1].stand_in, true);
  assert.equal("stand_in" in calls.tools[0] || "differs" in calls.tools[0], false);
  assert.deepEqual(calls.differing(), { model: 1, tool: 1 });
  assert.deepEqual(new Calls(AGENT).differing(), { model: 0, tool: 0 });
});
