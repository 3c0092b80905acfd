// The threads of a run (docs/design.md, "Threads"): which thread ran each step, each
// thread's state at a cursor, the steps where the running thread changes, and the step
// whose stack and locals a thread shows at a cursor. Pure: no DOM.
//
// A trace of a run that started a thread or an asyncio task has the header's `threads`
// ([{name, daemon, end}], in start order, MainThread first; then its tasks, {name, task:
// true, thread: the index of the thread whose loop ran it, end}), `thread(i)` per step
// (trace.js: the thread or task that ran it) and
// `thread_states`: [STEP, THREAD, STATE, ON, UNTIL] for each change of a thread's state,
// which holds from step STEP on (ON: what a blocked or sleeping thread waits on; UNTIL:
// the clock's time.monotonic() in seconds when its wait ends, or null). A thread's state at
// a cursor is its last change at or before it; the thread that ran the cursor's step is
// "running". A thread with no change at or before the cursor has not started yet
// ("not-started" in the list `at` gives).

import { END } from "./stepping.js";

export const STATES = Object.freeze(["running", "runnable", "blocked", "sleeping", "finished"]);

/** Whether `trace` is of a run that started a thread or an asyncio task. */
export function threaded(trace) {
  return (trace?.threads?.length ?? 0) > 1;
}

/** The runs of one thread in `trace`: {starts: Int32Array, threads: Int32Array}, run k
 * from step starts[k] to the step before starts[k + 1], run by thread threads[k]. */
export function runsOf(trace) {
  const starts = [];
  const threads = [];
  const n = trace?.count ?? 0;
  let last = -1;
  if (trace?.switchSteps) {   // trace.js keeps the steps where the thread changed
    for (let k = 0; k < trace.switchSteps.length; k++) {
      const step = trace.switchSteps[k];
      const thread = trace.switchThreads[k];
      if (step >= n || thread === last) continue;
      if (starts.length && starts[starts.length - 1] === step) threads[threads.length - 1] = thread;
      else { starts.push(step); threads.push(thread); }
      last = thread;
    }
  }
  if (!starts.length || starts[0] !== 0) { starts.unshift(0); threads.unshift(0); }
  return { starts: Int32Array.from(starts), threads: Int32Array.from(threads) };
}

/** Who made the model call whose step is `step`: {thread: NAME, agent: NAME or null}, the
 * agent being a peer agent (a loop a thread other than the main one runs, such as a
 * teammate's), which the conversation panel names, not a subagent; null in a run of one
 * thread. A call made in an asyncio task names the task; its agent is its thread's (a
 * task's loop is a subagent of the loop awaiting it, docs/design.md "Coroutines and tasks"). */
export function callerOf(trace, step) {
  if (!threaded(trace)) return null;
  const k = trace.thread(step);
  const name = trace.threads[k]?.name ?? String(k);
  const own = trace.ownThread(step);
  return { thread: name, agent: own === 0 ? null : trace.threads[own]?.name ?? String(own) };
}

export class Threads {
  constructor(trace) {
    this.trace = trace;
    this.list = trace.threads ?? [{ name: "MainThread", daemon: false, end: "finished" }];
    this.runs = runsOf(trace);
    // per thread: the steps its state changed at and the states, in order
    this.changes = this.list.map(() => ({ steps: [], states: [] }));
    for (const [step, thread, state, on = null, until = null] of trace.thread_states ?? []) {
      const c = this.changes[thread];
      if (!c) continue;
      if (c.steps.length && c.steps[c.steps.length - 1] === step) c.states[c.states.length - 1] = { state, on, until };
      else { c.steps.push(step); c.states.push({ state, on, until }); }
    }
  }

  get count() { return this.list.length; }

  name(k) { return this.list[k]?.name ?? String(k); }

  /** The index of the thread named `name`, or -1. */
  index(name) { return this.list.findIndex((t) => t.name === name); }

  /** The run holding step i (the last run starting at or before it). */
  runAt(i) {
    const starts = this.runs.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= i) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /** The thread that ran step i (null at END). */
  running(i) {
    if (i === END || i === null || i < 0) return null;
    return this.trace.thread(i);
  }

  /** The steps where the running thread changes: [{step, thread}] (the run's first is none). */
  switches() {
    const { starts, threads } = this.runs;
    const out = [];
    for (let k = 1; k < starts.length; k++) out.push({ step: starts[k], thread: threads[k] });
    return out;
  }

  /** The first step thread k ran, or -1. */
  firstStep(k) {
    const { starts, threads } = this.runs;
    for (let r = 0; r < starts.length; r++) if (threads[r] === k) return starts[r];
    return -1;
  }

  /** The last step at or before cursor i (END: the last step) that thread k ran, or -1:
   * where its stack and locals stand at the cursor. */
  lastStep(k, i) {
    const n = this.trace.count;
    const at = i === END || i === null || i >= n ? n - 1 : i;
    if (at < 0) return -1;
    const { starts, threads } = this.runs;
    let r = this.runAt(at);
    if (threads[r] === k) return at;
    for (r -= 1; r >= 0; r--) if (threads[r] === k) return starts[r + 1] - 1;
    return -1;
  }

  /** Thread k's state at cursor i (END: after the last step): {state, on, until}, or null
   * when it has not started by then. */
  state(k, i) {
    if (k === this.running(i)) return { state: "running", on: null, until: null };
    const c = this.changes[k];
    const at = i === END || i === null ? Infinity : i;
    let lo = 0;   // the changes at or before the cursor: c.steps[0 .. lo)
    let hi = c.steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (c.steps[mid] <= at) lo = mid + 1; else hi = mid;
    }
    const found = lo ? c.states[lo - 1] : null;
    if (found && found.state === "running" && at !== Infinity) {
      return { state: "runnable", on: null, until: null };   // it gave the turn away
    }
    if (!found && k === 0) return { state: i === END ? "finished" : "runnable", on: null, until: null };
    if (found && i === END && found.state !== "finished") return { ...found, state: "finished" };
    return found;
  }

  /** Every thread of the run with its state at cursor i: [{index, name, daemon, state, on,
   * until, current}] (state "not-started" for a thread the run starts after the cursor;
   * current: it ran the cursor's step). */
  at(i) {
    const running = this.running(i);
    const out = [];
    for (let k = 0; k < this.count; k++) {
      const s = this.state(k, i) ?? { state: "not-started", on: null, until: null };
      out.push({ index: k, name: this.name(k), daemon: Boolean(this.list[k].daemon), ...s,
        current: k === running });
    }
    return out;
  }
}
