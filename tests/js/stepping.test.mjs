// Tables of (start, command, breakpoints) → expected index over small traces,
// in the manner of CPython's bdb tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { END, step, applies, hitIndices, settle, isHit } from "../../web/static/js/model/stepping.js";
import { fromSteps } from "../../web/static/js/model/trace.js";

const S = (event, line, fn, frame, depth, extra = {}) =>
  ({ event, line, end: extra.end ?? line, fn, frame, depth, stack: 0, out: 0, ...extra });

// run_subagent-like: line 15 calls run_loop (hidden) which calls a lambda on
// line 15 and `execute` (lines 19-24); then line 17 returns.
const nested = fromSteps([
    S("call", 11, "run_subagent", 1, 1),            // 0
    S("line", 13, "run_subagent", 1, 1),            // 1
    S("line", 15, "run_subagent", 1, 1, { end: 16 }), // 2
    S("call", 15, "<lambda>", 2, 3),                // 3
    S("line", 15, "<lambda>", 2, 3),                // 4
    S("return", 15, "<lambda>", 2, 3),              // 5
    S("call", 19, "execute", 3, 3),                 // 6
    S("line", 20, "execute", 3, 3, { end: 21 }),    // 7
    S("line", 24, "execute", 3, 3),                 // 8
    S("return", 24, "execute", 3, 3),               // 9
    S("call", 15, "<lambda>", 4, 3),                // 10
    S("line", 15, "<lambda>", 4, 3),                // 11
    S("return", 15, "<lambda>", 4, 3),              // 12
    S("line", 17, "run_subagent", 1, 1),            // 13
    S("return", 17, "run_subagent", 1, 1),          // 14
]);

// child_tools-like loop: line 4 loop header, 7 body.
const loop = fromSteps([
    S("call", 1, "f", 1, 1),   // 0
    S("line", 3, "f", 1, 1),   // 1
    S("line", 4, "f", 1, 1),   // 2
    S("line", 7, "f", 1, 1),   // 3
    S("line", 4, "f", 1, 1),   // 4
    S("line", 7, "f", 1, 1),   // 5
    S("line", 4, "f", 1, 1),   // 6
    S("line", 8, "f", 1, 1),   // 7
    S("return", 8, "f", 1, 1), // 8
]);
const empty = fromSteps([]);

// an async agent (tests/async_lesson.py, block "tools"): agent_loop in Task-1 gathers two
// run_tool tasks; read_file (Task-2) sleeps longer than count_words (Task-3)
const M = { name: "<module>", file: "e.py", line: 1, hidden: true };
const T = (name) => ({ name, task: true, hidden: true });
const LOOP = { name: "agent_loop", line: 36, frame: 1, hidden: false };
const tasks = fromSteps([
    S("call", 27, "agent_loop", 1, 2),                     // 0
    S("line", 36, "agent_loop", 1, 2),                     // 1: await asyncio.gather(…)
    S("call", 21, "run_tool", 2, 4, { stack: 1 }),         // 2
    S("line", 23, "run_tool", 2, 4, { stack: 1 }),         // 3: await handler(…)
    S("call", 9, "read_file", 3, 5, { stack: 2 }),         // 4
    S("line", 10, "read_file", 3, 5, { stack: 2 }),        // 5: await asyncio.sleep(0.5)
    S("call", 21, "run_tool", 4, 4, { stack: 3 }),         // 6
    S("line", 23, "run_tool", 4, 4, { stack: 3 }),         // 7
    S("call", 15, "count_words", 5, 5, { stack: 4 }),      // 8
    S("line", 16, "count_words", 5, 5, { stack: 4 }),      // 9
    S("return", 18, "count_words", 5, 5, { stack: 4 }),    // 10
    S("line", 24, "run_tool", 4, 4, { stack: 3 }),         // 11
    S("return", 24, "run_tool", 4, 4, { stack: 3 }),       // 12
    S("line", 11, "read_file", 3, 5, { stack: 2 }),        // 13
    S("return", 12, "read_file", 3, 5, { stack: 2 }),      // 14
    S("line", 24, "run_tool", 2, 4, { stack: 1 }),         // 15
    S("return", 24, "run_tool", 2, 4, { stack: 1 }),       // 16
    S("line", 37, "agent_loop", 1, 2),                     // 17
], { stacks: [[M, T("Task-1")], [M, T("Task-1"), LOOP, T("Task-2")],
  [M, T("Task-1"), LOOP, T("Task-2"), { name: "run_tool", line: 23, frame: 2, hidden: false }],
  [M, T("Task-1"), LOOP, T("Task-3")],
  [M, T("Task-1"), LOOP, T("Task-3"), { name: "run_tool", line: 23, frame: 4, hidden: false }]] });

const cases = [
  // [name, trace, start, command, breakpoints, expected]
  ["run ignores breakpoints", loop, END, "run", [7], END],
  ["debug stops at first hit", loop, END, "debug", [7], 3],
  ["debug without breakpoints runs to the end", loop, END, "debug", [], END],
  ["debug on a line never reached runs to the end", loop, END, "debug", [2], END],
  ["continue to the next hit", loop, 3, "continue", [7], 5],
  ["continue past the last hit ends", loop, 5, "continue", [7], END],
  ["continue with two breakpoints", loop, 3, "continue", [7, 8], 5],
  ["step over in a flat frame", loop, 3, "step-over", [], 4],
  ["step over onto the return step", loop, 7, "step-over", [], 8],
  ["step over from the return step ends", loop, 8, "step-over", [], END],
  ["step back in a flat frame", loop, 4, "step-back", [], 3],
  ["step back at the first stop stays", loop, 1, "step-back", [], 1],
  ["step back from the end lands on the last step", loop, END, "step-back", [], 8],
  ["step into in a flat frame", loop, 3, "step-into", [], 4],
  ["step out of the outermost frame stops at its return", loop, 3, "step-out", [], 8],
  ["step out from the return step ends", loop, 8, "step-out", [], END],
  ["breakpoint on a multi-line statement's second line", nested, END, "debug", [16], 2],

  ["step over a call that runs nested frames", nested, 2, "step-over", [], 13],
  ["step over with the breakpoint on the same line does not stop in the lambda", nested, 2, "step-over", [15], 13],
  ["continue from the line 15 breakpoint skips the lambda on that line", nested, 2, "continue", [15], END],
  ["step over stops at a breakpoint inside a nested call", nested, 2, "step-over", [24], 8],
  ["continue stops at a breakpoint inside a nested call", nested, 2, "continue", [20], 7],
  ["step into enters the lambda (skipping its call step)", nested, 2, "step-into", [], 4],
  ["step into walks the nested frames", nested, 4, "step-into", [], 5],
  ["step into from a return goes to the next frame's first line", nested, 5, "step-into", [], 7],
  ["step over inside execute stays in execute", nested, 7, "step-over", [], 8],
  ["step out of execute stops at its return", nested, 7, "step-out", [], 9],
  ["step out from execute's return goes to the caller's depth or above", nested, 9, "step-out", [], 13],
  ["step out of the lambda stops at a breakpoint in execute", nested, 4, "step-out", [24], 5],
  ["step out from a return skips ahead to a breakpoint in a sibling call", nested, 5, "step-out", [24], 8],
  ["step back from a nested frame's first line returns to the caller", nested, 4, "step-back", [], 2],
  ["step back over nested calls stays in the frame", nested, 13, "step-back", [], 2],
  ["step back inside execute", nested, 8, "step-back", [], 7],
  ["debug into a nested breakpoint", nested, END, "debug", [24], 8],
  ["breakpoint on a lambda's line hits the caller first", nested, END, "debug", [15], 2],
  ["continue from inside the lambda on a breakpointed line hits the next lambda", nested, 4, "continue", [15], 11],
  ["commands other than back stay at the end", nested, END, "continue", [15], END],
  ["step over an await in a task stops after it in that task", tasks, 3, "step-over", [], 15],
  ["step over the gather stops after it", tasks, 1, "step-over", [], 17],
  ["step over in the other task stays in it", tasks, 7, "step-over", [], 11],
  ["step over a task's return goes to the task awaiting it", tasks, 12, "step-over", [], 17],
  ["step out of a coroutine in a task skips the other task", tasks, 5, "step-out", [], 14],
  ["step out from a task's return goes to the task awaiting it", tasks, 16, "step-out", [], 17],
  ["step out from the other task's return passes over this task", tasks, 12, "step-out", [], 17],
  ["a breakpoint in the other task still stops a step over", tasks, 3, "step-over", [16], 9],
  ["step into goes into the other task", tasks, 5, "step-into", [], 7],
];

for (const [name, trace, start, command, bps, expected] of cases) {
  test(`${name}: ${command} from ${start} with [${bps}] → ${expected}`, () => {
    assert.equal(step(trace, start, command, bps), expected);
  });
}

test("unknown commands throw", () => {
  assert.throws(() => step(loop, 1, "jump", []), /unknown command/);
});

test("breakpoints given as strings or a Set work", () => {
  assert.equal(step(loop, END, "debug", new Set(["7"])), 3);
  assert.equal(step(loop, END, "debug", ["x", 0, -3]), END);
});

test("an empty trace ends at once", () => {
  for (const command of ["debug", "run", "continue", "step-back"]) {
    assert.equal(step(empty, END, command, [1]), END);
  }
});

test("applies: what a paused and a finished cursor can do", () => {
  assert.equal(applies(loop, 3, "step-over"), true);
  assert.equal(applies(loop, END, "step-over"), false);
  assert.equal(applies(loop, END, "continue"), false);
  assert.equal(applies(loop, END, "step-back"), true);
  assert.equal(applies(loop, 1, "step-back"), false);
  assert.equal(applies(empty, END, "step-back"), false);
});

test("hitIndices lists every hit, nested ones included", () => {
  assert.deepEqual(hitIndices(loop, [7]), [3, 5]);
  assert.deepEqual(hitIndices(nested, [15]), [2, 4, 11]);
  assert.deepEqual(hitIndices(nested, []), []);
  assert.equal(isHit(nested, 3, [15]), false, "call steps never hit");
});

test("settle moves a slider position onto a stoppable step", () => {
  assert.equal(settle(nested, 3), 4);
  assert.equal(settle(nested, 0), 1);
  assert.equal(settle(nested, 99), 14);
  assert.equal(settle(empty, 0), END);
});
