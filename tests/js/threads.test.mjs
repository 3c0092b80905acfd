// The threads of a run (model/threads.js): states at a cursor, the step each thread's
// stack stands at, switch marks; stepping that stays in the cursor's thread (stepping.js)
// and the thread event breakpoints (event-stops.js), over one small two-thread trace.
import { test } from "node:test";
import assert from "node:assert/strict";
import { END, step } from "../../web/static/js/model/stepping.js";
import { fromSteps } from "../../web/static/js/model/trace.js";
import { Threads, threaded, callerOf } from "../../web/static/js/model/threads.js";
import { eventSteps, eventBreakpoint } from "../../web/static/js/model/event-stops.js";

const S = (event, line, fn, frame, depth, thread) =>
  ({ event, line, end: line, fn, frame, depth, stack: 0, out: 0, thread });

// main (MainThread) starts worker at step 2, sleeps at 3; worker blocks on a lock at 6;
// main releases it at 8 and sleeps at 9; worker ends at 11; main goes on.
const steps = [
  S("call", 1, "main", 1, 1, 0),     // 0
  S("line", 2, "main", 1, 1, 0),     // 1
  S("line", 3, "main", 1, 1, 0),     // 2  t.start()
  S("line", 4, "main", 1, 1, 0),     // 3  time.sleep(1)
  S("call", 9, "work", 2, 0, 1),     // 4
  S("line", 10, "work", 2, 0, 1),    // 5
  S("line", 11, "work", 2, 0, 1),    // 6  lock.acquire()
  S("line", 5, "main", 1, 1, 0),     // 7
  S("line", 6, "main", 1, 1, 0),     // 8  lock.release()
  S("line", 7, "main", 1, 1, 0),     // 9  time.sleep(1)
  S("line", 12, "work", 2, 0, 1),    // 10
  S("return", 12, "work", 2, 0, 1),  // 11
  S("line", 8, "main", 1, 1, 0),     // 12
  S("return", 8, "main", 1, 1, 0),   // 13
];
const header = {
  threads: [{ name: "MainThread", daemon: false, end: "finished" },
    { name: "worker", daemon: false, end: "finished" }],
  thread_states: [[0, 0, "running", null, null], [3, 1, "runnable", null, null],
    [4, 0, "sleeping", "sleep", 1.0], [4, 1, "running", null, null],
    [7, 1, "blocked", "Lock.acquire", null], [7, 0, "running", null, null],
    [9, 1, "runnable", null, null], [10, 0, "sleeping", "sleep", 2.0],
    [10, 1, "running", null, null], [12, 1, "finished", null, null], [12, 0, "running", null, null]],
};
const trace = fromSteps(steps, header);
const threads = new Threads(trace);
const brief = (i) => threads.at(i).map((t) => [t.name, t.state, t.on, t.until, t.current]);

test("a thread's state at a cursor is its last change at or before it", () => {
  assert.ok(threaded(trace));
  assert.ok(!threaded(fromSteps(steps.map((s) => ({ ...s, thread: 0 })))));
  assert.deepEqual(brief(2), [["MainThread", "running", null, null, true],
    ["worker", "not-started", null, null, false]]);
  assert.equal(threads.state(1, 2), null);
  assert.deepEqual(brief(3), [["MainThread", "running", null, null, true],
    ["worker", "runnable", null, null, false]]);
  assert.deepEqual(brief(5), [["MainThread", "sleeping", "sleep", 1, false],
    ["worker", "running", null, null, true]]);
  assert.deepEqual(brief(8), [["MainThread", "running", null, null, true],
    ["worker", "blocked", "Lock.acquire", null, false]]);
  assert.equal(threads.state(1, 9).state, "runnable");
  assert.equal(threads.state(1, 12).state, "finished");
  assert.deepEqual(brief(END).map((t) => t[1]), ["finished", "finished"]);
});

test("a thread that does not run at the cursor shows its own last step before it", () => {
  assert.equal(threads.lastStep(1, 2), -1);
  assert.equal(threads.lastStep(1, 8), 6);
  assert.equal(threads.lastStep(0, 5), 3);
  assert.equal(threads.lastStep(0, 7), 7);
  assert.equal(threads.lastStep(1, END), 11);
  assert.equal(threads.firstStep(1), 4);
  assert.equal(threads.index("worker"), 1);
});

test("the switch marks are the steps where the running thread changes", () => {
  assert.deepEqual(threads.switches(), [{ step: 4, thread: 1 }, { step: 7, thread: 0 },
    { step: 10, thread: 1 }, { step: 12, thread: 0 }]);
});

test("step over, into, out and back stay in the cursor's thread", () => {
  const cases = [
    [3, "step-over", [], 7], [3, "step-into", [], 7], [6, "step-over", [], 10],
    [5, "step-into", [], 6], [10, "step-over", [], 11],
    [11, "step-over", [], 12],   // the worker has no step left: the next step of any thread
    [5, "step-out", [], 11], [11, "step-out", [], 12],   // the worker returns, then main goes on
    [7, "step-out", [], 13], [7, "step-back", [], 3], [10, "step-back", [], 6],
    [5, "step-back", [], 3],     // the worker's first line: back to the step before it
    [3, "continue", [12], 10],   // a breakpoint stops in any thread
    [9, "step-over", [], 12], [9, "step-over", [12], 10],  // also while stepping over in another
    [8, "step-over", [], 9], [13, "step-over", [], END],
  ];
  for (const [from, command, bps, to] of cases) {
    assert.equal(step(trace, from, command, bps), to, `${command} from ${from} with ${bps}`);
  }
});

test("thread event breakpoints stop at a thread's start and at switches", () => {
  const at = (kind, value) => [...eventSteps(trace, [eventBreakpoint(kind, value)])].sort((a, b) => a - b);
  assert.deepEqual(at("thread-start", ""), [5]);
  assert.deepEqual(at("thread-start", "worker"), [5]);
  assert.deepEqual(at("thread-start", "MainThread"), []);
  assert.deepEqual(at("switch", "MainThread"), [7, 12]);
  assert.deepEqual(at("switch", ""), [5, 7, 10, 12]);
  assert.deepEqual(at("switch", "nobody"), []);
  assert.equal(step(trace, 0, "continue", [], eventSteps(trace, [eventBreakpoint("switch", "worker")])), 5);
  assert.deepEqual([...eventSteps(fromSteps(steps.map((s) => ({ ...s, thread: 0 }))),
    [eventBreakpoint("switch", "")])], []);
});

test("a model call made in a thread other than the main one is a peer agent's", () => {
  assert.deepEqual(callerOf(trace, 8), { thread: "MainThread", agent: null });
  assert.deepEqual(callerOf(trace, 5), { thread: "worker", agent: "worker" });
  assert.equal(callerOf(fromSteps(steps.map((s) => ({ ...s, thread: 0 }))), 5), null);
});

test("asyncio tasks are listed as threads are; their steps are their loop's thread's", () => {
  // Task-1 (asyncio.run's) gathers Task-2 at step 1; Task-2 runs 2–4; Task-1 goes on
  const T = (event, line, fn, frame, thread) => S(event, line, fn, frame, 1, thread);
  const run = fromSteps([T("call", 1, "main", 1, 1), T("line", 2, "main", 1, 1),
    T("call", 5, "sub", 2, 2), T("line", 6, "sub", 2, 2), T("return", 6, "sub", 2, 2),
    T("line", 3, "main", 1, 1)], {
    threads: [{ name: "MainThread", daemon: false, end: "finished" },
      { name: "Task-1", task: true, thread: 0, end: "finished" },
      { name: "Task-2", task: true, thread: 0, end: "finished" }],
    thread_states: [[0, 0, "blocked", "event loop", null], [0, 1, "running", null, null],
      [2, 1, "blocked", "gather", null], [2, 2, "running", null, null],
      [5, 2, "finished", null, null], [5, 1, "running", null, null]],
  });
  const tasks = new Threads(run);
  assert.ok(threaded(run));
  assert.deepEqual(tasks.at(3).map((t) => [t.name, t.state, t.on, t.current]), [
    ["MainThread", "blocked", "event loop", false], ["Task-1", "blocked", "gather", false],
    ["Task-2", "running", null, true]]);
  assert.deepEqual(tasks.switches(), [{ step: 2, thread: 2 }, { step: 5, thread: 1 }]);
  assert.equal(run.ownThread(3), 0);
  assert.deepEqual(callerOf(run, 3), { thread: "Task-2", agent: null });   // a subagent's
  assert.equal(step(run, 1, "step-into", []), 3);   // into the gathered task, as before
});
