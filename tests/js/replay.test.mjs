import { test } from "node:test";
import assert from "node:assert/strict";
import { replay, CHECKPOINT } from "../../web/static/js/model/replay.js";
import { fromSteps } from "../../web/static/js/model/trace.js";

const header = {
  stdout: "模型调用 1\n完成： answered\n",
  stacks: [
    [{ name: "<module>", file: "s06/entry/run_subagent.py", line: 3, hidden: true }],
    [{ name: "<module>", file: "s06/entry/run_subagent.py", line: 3, hidden: true },
     { name: "run_subagent", line: 15, frame: 1, hidden: false },
     { name: "run_loop", file: "s01/core/loop.py", line: 13, hidden: true }],
  ],
};
const steps = [
    { event: "call", line: 1, fn: "f", frame: 1, depth: 1, stack: 0, out: 0, set: { task: "'t'" } },
    { event: "line", line: 3, fn: "f", frame: 1, depth: 1, stack: 0, out: 0, set: {} },
    { event: "line", line: 4, fn: "f", frame: 1, depth: 1, stack: 0, out: 0, set: { selected: ["dict", 0] } },
    { event: "call", line: 15, fn: "<lambda>", frame: 2, depth: 3, stack: 1, out: 7, set: { history: ["list", 1, "1"] } },
    { event: "line", line: 15, fn: "<lambda>", frame: 2, depth: 3, stack: 1, out: 7 },
    { event: "return", line: 15, fn: "<lambda>", frame: 2, depth: 3, stack: 1, out: 7, ret: "None" },
    { event: "line", line: 7, fn: "f", frame: 1, depth: 1, stack: 0, out: 7, set: { selected: ["dict", 1, ["'a'", "1"]], name: "'a'" }, del: ["task"] },
    { event: "return", line: 8, fn: "f", frame: 1, depth: 1, stack: 0, out: 7, ret: "1" },
];
const trace = fromSteps(steps, header);

test("locals fold the set/del of the step's own frame", () => {
  const r = replay(trace);
  assert.deepEqual([...r.locals(0)], [["task", "'t'"]]);
  assert.deepEqual([...r.locals(2)], [["task", "'t'"], ["selected", ["dict", 0]]]);
  assert.deepEqual([...r.locals(4)], [["history", ["list", 1, "1"]]], "the lambda sees only its own locals");
  assert.deepEqual([...r.locals(6)], [["selected", ["dict", 1, ["'a'", "1"]]], ["name", "'a'"]], "del unbinds");
  assert.deepEqual([...r.locals(-1)], [...r.locals(7)], "the end shows the last step");
});

test("changed lists what the step set", () => {
  const r = replay(trace);
  assert.deepEqual([...r.changed(2)], ["selected"]);
  assert.deepEqual([...r.changed(4)], []);
  assert.deepEqual([...r.changed(6)].sort(), ["name", "selected"]);
});

test("output is stdout up to the step, all of it at the end", () => {
  const r = replay(trace);
  assert.equal(r.output(0), "");
  assert.equal(r.output(3), "模型调用 1\n");
  assert.equal(r.output(-1), trace.stdout);
});

test("stack: outer frames then the step's own frame", () => {
  const r = replay(trace);
  const names = r.stack(4).map((f) => `${f.name}${f.hidden ? "*" : ""}`);
  assert.deepEqual(names, ["<module>*", "run_subagent", "run_loop*", "<lambda>"]);
  assert.equal(r.stack(4).at(-1).current, true);
  assert.deepEqual(replay(fromSteps([])).stack(-1), []);
  assert.deepEqual(replay(null).stack(-1), []);
});

test("checkpoints give the same locals as a full fold, anywhere in a long trace", () => {
  const steps = [{ event: "call", line: 1, fn: "g", frame: 1, depth: 1, stack: 0, out: 0, set: { i: "0" } }];
  const n = CHECKPOINT * 40 + 17;
  for (let i = 1; i < n; i++) {
    const set = { i: String(i) };
    if (i % 7 === 0) set[`v${i % 5}`] = String(i);
    const s = { event: "line", line: 2, fn: "g", frame: 1, depth: 1, stack: 0, out: 0, set };
    if (i % 11 === 0) s.del = [`v${(i + 1) % 5}`];
    steps.push(s);
  }
  const r = replay(fromSteps(steps, { stacks: [[]], stdout: "" }));
  for (const at of [0, 1, CHECKPOINT - 1, CHECKPOINT, CHECKPOINT + 1, 1000, n - 1]) {
    const expected = new Map();
    for (let k = 0; k <= at; k++) {
      for (const [name, v] of Object.entries(steps[k].set ?? {})) expected.set(name, v);
      for (const name of steps[k].del ?? []) expected.delete(name);
    }
    assert.deepEqual(Object.fromEntries(r.locals(at)), Object.fromEntries(expected), `step ${at}`);
  }
});

// How fast such jumps are is measured in bench/ (bench/replay_jump.mjs).
test("a jump into a million-step trace gives that step's locals", () => {
  const steps = new Array(1_000_000);
  for (let i = 0; i < steps.length; i++) {
    steps[i] = { event: "line", line: 2, fn: "g", frame: 1 + (i % 3), depth: 1, stack: 0, out: 0, set: { i: String(i) } };
  }
  const r = replay(fromSteps(steps, { stacks: [[]], stdout: "" }));
  for (let k = 0; k < 200; k++) {
    const at = Math.floor((k * 7919 * 127) % steps.length);
    assert.deepEqual([...r.locals(at)], [["i", String(at)]], `step ${at}`);
  }
  assert.equal(r.locals(999_999).get("i"), "999999");
});

test("a generator keeps its locals across yield and resume, past checkpoints", () => {
  // frame 1 yields (a "return" step) and is resumed (a "call" step) 300 times, while
  // frame 2 (its consumer) runs in between; only what changed is recorded.
  const steps = [{ event: "call", line: 1, fn: "gen", frame: 1, depth: 2, stack: 0, out: 0,
    set: { script: "'s'", budget: "12" } }];
  for (let k = 0; k < 300; k++) {
    steps.push({ event: "line", line: 3, fn: "gen", frame: 1, depth: 2, stack: 0, out: 0, set: { turn: String(k) } });
    steps.push({ event: "return", line: 4, fn: "gen", frame: 1, depth: 2, stack: 0, out: 0, ret: String(k) });
    steps.push({ event: "line", line: 9, fn: "use", frame: 2, depth: 1, stack: 0, out: 0, set: { got: String(k) } });
    steps.push({ event: "call", line: 4, fn: "gen", frame: 1, depth: 2, stack: 0, out: 0 });
  }
  const r = replay(fromSteps(steps, { stacks: [[]], stdout: "" }));
  for (const k of [0, 1, CHECKPOINT, 299]) {
    const resumed = 4 + 4 * k;
    assert.deepEqual(Object.fromEntries(r.locals(resumed)), { script: "'s'", budget: "12", turn: String(k) },
      `after resume ${k}`);
    assert.deepEqual(Object.fromEntries(r.locals(resumed - 1)), { got: String(k) });
  }
});
