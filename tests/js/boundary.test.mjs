// The subagent's boundary over a packed agent part: a parent call asks for a task,
// the task tool runs a child loop of two calls, the parent gets its text back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Calls } from "../../web/static/js/model/agent-calls.js";
import { boundary, returned, messageChars } from "../../web/static/js/model/boundary.js";

const agent = {
  conversations: [[0, null], [1, 0]],
  messages: [
    ["user", "find the test framework"],                         // 0
    ["assistant", [["tool_use", "t1", "task", { prompt: "read requirements.txt" }]]], // 1
    ["user", "read requirements.txt"],                             // 2 (the child's task)
    ["assistant", [["tool_use", "c1", "read_file", { path: "requirements.txt" }]]], // 3
    ["user", [["tool_result", "c1", "pytest>=8.0", false]]],       // 4
    ["assistant", ["pytest 8"]],                                   // 5
    ["user", [["tool_result", "t1", "pytest 8", false]]],          // 6
    ["assistant", ["done"]],                                       // 7
  ],
  // [C, STEP, RET, SHARED, NEW, STOP, RESPONSE, ERROR]
  calls: [
    [0, 2, 3, 0, [0], "tool_use", 1, null],
    [1, 5, 6, 0, [2], "tool_use", 3, null],
    [1, 8, 9, 1, [3, 4], "end_turn", 5, null],
    [0, 12, 13, 1, [1, 6], "end_turn", 7, null],
  ],
  // [STEP, RET, NAME, ID, INPUT, RESULT, ERROR]
  tools: [[4, 11, "task", "t1", {}, "pytest 8", 0], [6, 7, "read_file", "c1", {}, "pytest>=8.0", 0]],
};
const calls = new Calls(agent);

test("the outermost conversation has no boundary", () => {
  assert.equal(boundary(calls, 0), null);
  assert.equal(boundary(calls, 3), null);
  assert.equal(boundary(calls, 9), null);
});

test("at the child's first call: the parent's list then, the child's one message", () => {
  const b = boundary(calls, 1);
  assert.deepEqual(b.parent, { messages: 2, chars: "find the test framework".length
    + `task ${JSON.stringify({ prompt: "read requirements.txt" })}`.length });
  assert.deepEqual(b.child, { messages: 1, chars: "read requirements.txt".length });
  assert.equal(b.crossedIn, "read requirements.txt");
  assert.equal(b.crossedOut, "pytest 8");
  assert.equal(b.returnedAt, 11);
  assert.equal(returned(b, 6), false);
  assert.equal(returned(b, 11), true);
  assert.equal(returned(b, -1), true);
});

test("at the child's second call the child side grows, the parent side stays", () => {
  const b = boundary(calls, 2);
  assert.equal(b.child.messages, 3);
  assert.equal(b.parent.messages, 2);
  assert.equal(messageChars(agent.messages[4][1]), "pytest>=8.0".length);
});
