import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCall, recordedValue, recordedStart, valueText, forkProblem } from "../../web/static/js/model/fork-url.js";
import { encodeFork, decodeFork } from "../../web/static/js/page/url-state.js";
import { toolNumbers } from "../../web/static/js/agent/fork-button.js";

// a packed "agent" part (runtime/agent/wire.py): calls [C, STEP, RET, SHARED, NEW, STOP, RESPONSE, ERROR],
// tools [STEP, RET, NAME, ID, INPUT, RESULT, ERROR, RETURNED, CUT]
const AGENT = {
  conversations: [[0, null]],
  messages: [["user", "q"], ["assistant", [["tool_use", "t1", "read_file", { path: "a" }]]],
    ["user", [["tool_result", "t1", "text of a", false]]], ["assistant", ["done"]]],
  calls: [[0, 1, 2, 0, [0], "tool_use", 1, null], [0, 5, 6, 2, [2], "end_turn", 3, null], [0, 9, null, 0, [], null, null, null]],
  tools: [[3, 4, "read_file", "t1", { path: "a" }, "text of a", 0, { result: "text of a", warnings: [] }, 0],
    [7, 8, "grep", null, { q: "x" }, [["tool_result", "t2", "hit", true]], 1, null, 0],
    [10, 11, "grep", null, { q: "y" }, "long…", 0, { result: "long…" }, 1]],
};

test("a call is model:K or tool:K, K from 1", () => {
  assert.deepEqual(parseCall("model:2"), { kind: "model", index: 2 });
  assert.deepEqual(parseCall("tool:11"), { kind: "tool", index: 11 });
  for (const bad of ["model:0", "model:", "tools:1", "model:1x", "", null, "model:123456"]) assert.equal(parseCall(bad), null, bad);
});

test("the editor starts from the recorded answer as JSON of its parts", () => {
  assert.deepEqual(recordedValue(AGENT, "model:1"), {
    stop_reason: "tool_use", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a" } }],
  });
  assert.deepEqual(recordedValue(AGENT, "model:2"), { stop_reason: "end_turn", content: [{ type: "text", text: "done" }] });
  assert.equal(recordedValue(AGENT, "model:3"), undefined);     // never returned
  assert.equal(recordedValue(AGENT, "model:4"), undefined);
  // a tool: what its function returned, not the result text shown from it
  assert.deepEqual(recordedValue(AGENT, "tool:1"), { result: "text of a", warnings: [] });
  assert.deepEqual(recordedStart(AGENT, "tool:1"), { value: { result: "text of a", warnings: [] }, cut: false });
  // a call that raised returned nothing: its recorded result (the error) is the start
  assert.deepEqual(recordedValue(AGENT, "tool:2"), [{ type: "tool_result", tool_use_id: "t2", content: "hit", is_error: true }]);
  assert.deepEqual(recordedStart(AGENT, "tool:3"), { value: { result: "long…" }, cut: true });
  assert.equal(recordedStart(AGENT, "model:1").cut, false);
  assert.equal(valueText({ a: [1] }), '{\n  "a": [\n    1\n  ]\n}');
});

test("what cannot run is told before running", () => {
  assert.equal(forkProblem("model:1", '{"content": [{"type": "text", "text": "x"}]}'), null);
  assert.equal(forkProblem("model:1", '{"content": "x", "stop_reason": "end_turn"}'), null);
  assert.equal(forkProblem("model:1", "{").key, "fork_not_json");
  assert.deepEqual(forkProblem("model:1", "[1]"), { key: "fork_model_shape", values: { kind: "list" } });
  assert.equal(forkProblem("model:1", '{"content": 3}').key, "fork_model_content");
  assert.equal(forkProblem("model:1", '{"content": [{"text": "no type"}]}').key, "fork_model_content");
  assert.equal(forkProblem("tool:1", "[1, 2]"), null);            // a tool's value: any JSON
  assert.equal(forkProblem("tool:1", "'x'").key, "fork_not_json");
  assert.equal(forkProblem("nope", "1").key, "fork_bad_call");
});

test("a fork survives the URL round trip; what is not one is rejected", async () => {
  const text = '{"content": [{"type": "text", "text": "改答"}]}';
  const encoded = await encodeFork("model:2", text);
  assert.match(encoded, /^model:2~[A-Za-z0-9_-]+$/);
  assert.deepEqual(await decodeFork(encoded), { call: "model:2", text });
  await assert.rejects(decodeFork("model:0~AAAA"), /model:K/);
  await assert.rejects(decodeFork("nothing"), /model:K/);
  await assert.rejects(decodeFork("tool:1~not base64!"));
});

test("tool results are numbered by the tool call that answered them", () => {
  const tools = [{ name: "read_file", id: null, input: { path: "a" } }, { name: "bash", id: "t9", input: {} },
    { name: "read_file", id: null, input: { path: "b" } }];
  const pool = [["assistant", [["tool_use", "u1", "read_file", { path: "b" }], ["tool_use", "u2", "read_file", { path: "a" }]]],
    ["assistant", "text"], ["assistant", [["tool_use", "t9", "bash", {}], ["tool_use", "u3", "deploy", {}]]]];
  assert.deepEqual([...toolNumbers(tools, pool)], [["t9", 2], ["u1", 3], ["u2", 1]]);
});
