// The page's other pure helpers: value text, key map, stage lookup, messages (the URL
// state: url-state.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { text, isContainer } from "../../web/static/js/model/values.js";
import { commandFor } from "../../web/static/js/page/keys.js";
import { stageAt } from "../../web/static/js/page/diagram.js";
import { Messages } from "../../web/static/js/page/messages.js";
import { guestRun } from "../../web/static/js/page/run-source.js";

test("value text is repr-like", () => {
  const cases = [
    ["'abc'", "'abc'"],
    ["None", "None"],
    [["dict", 0], "{}"],
    [["list", 0], "[]"],
    [["set", 0], "set()"],
    [["tuple", 1, "1"], "(1,)"],
    [["tuple", 2, "1", "2"], "(1, 2)"],
    [["set", 2, "1", "2"], "{1, 2}"],
    [["str", "'长长'", 1201], "'长长…'"],
    [["dict", 2, ["'status'", "'answered'"], ["'calls'", "3"]], "{'status': 'answered', 'calls': 3}"],
    [["list", 60, "0", "1"], "[0, 1, …]"],
    [["dict", 3], "{…}"],
    [["dict", 1, ["'a'", ["list", 1, ["dict", 1, ["'b'", "<function <lambda>>"]]]]],
      "{'a': [{'b': <function <lambda>>}]}"],
  ];
  for (const [value, expected] of cases) assert.equal(text(value), expected, JSON.stringify(value));
  assert.equal(isContainer(["str", "'x'", 3]), false);
  assert.equal(isContainer(["dict", 0]), true);
});

test("deeply nested values render without recursion", () => {
  let v = "0";
  for (let i = 0; i < 20000; i++) v = ["list", 1, v];
  const out = text(v);
  assert.equal(out.length, 20000 * 2 + 1);
});

test("debugger keys", () => {
  const key = (k, shiftKey = false, ctrlKey = false) => ({ key: k, shiftKey, ctrlKey, altKey: false, metaKey: false });
  assert.equal(commandFor(key("F8")), "continue");
  assert.equal(commandFor(key("F10")), "step-over");
  assert.equal(commandFor(key("F11")), "step-into");
  assert.equal(commandFor(key("F11", true)), "step-out");
  assert.equal(commandFor(key("F10", false, true)), null);
  assert.equal(commandFor(key("a")), null);
  assert.equal(commandFor(key("[")), "prev-call");
  assert.equal(commandFor(key("]")), "next-call");
});

test("stages come from lesson data", () => {
  const stages = [
    { id: "child_tools", lines: [{ block: "child_tools", from: 1, to: 8 }, { block: "run_subagent", from: 7, to: 7 }] },
    { id: "run_subagent", lines: [{ block: "run_subagent", from: 1, to: 6 }, { block: "run_subagent", from: 8, to: 17 }] },
  ];
  assert.equal(stageAt(stages, "run_subagent", 7), "child_tools");
  assert.equal(stageAt(stages, "run_subagent", 15), "run_subagent");
  assert.equal(stageAt(stages, "task_result", 3), null);
  assert.equal(stageAt(undefined, "x", 1), null);
});

test("messages format placeholders", () => {
  const m = new Messages({ paused: "已暂停 第 {line} 行", raw: "{x} {y}" });
  assert.equal(m.format("paused", { line: 7 }), "已暂停 第 7 行");
  assert.equal(m.format("raw", { x: 1 }), "1 {y}");
  assert.equal(m.get("missing_key"), "missing_key");
});

test("a cursor line is spoken short", async () => {
  const { spokenCode } = await import("../../web/static/js/page/announce.js");
  assert.equal(spokenCode("    return outcome"), "return outcome");
  assert.equal(spokenCode("    outcome = run_loop(lambda history: ask(history, restricted), execute,"),
    "outcome = run_loop(…)");
  assert.equal(spokenCode(`x = "${"a".repeat(50)}"`).length, 40);
  assert.ok(spokenCode(`x = "${"a".repeat(50)}"`).endsWith("…"));
  assert.equal(spokenCode(undefined), "");
});

test("a guest's run: the custom setup, a fork shown, a recording file loaded (not a live run's)", () => {
  const block = (fields) => ({ scenario: "normal", config: { customScenario: "custom" }, urlFork: null,
    recording: null, ...fields });
  assert.equal(guestRun(block({})), false);
  assert.equal(guestRun(block({ scenario: "custom" })), true);
  assert.equal(guestRun(block({ urlFork: "model:2~abc" })), true);
  assert.equal(guestRun(block({ recording: { name: "r.json", text: "{}", key: "k" } })), true);
  assert.equal(guestRun(block({ recording: { name: "live", text: "{}", key: "k", live: true } })), false);
});
