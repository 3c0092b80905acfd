// Stepping: from a step index, a command and the breakpoints to the next index.
//
// Pure: no DOM, no state. `trace` is a Trace (trace.js): the recorded statements
// by column, read through its accessors (no object per step). An index is a step
// position in it; END (-1) means the program ran to its end. `breakpoints` is any iterable of
// line numbers as the block shows them (1 = the def line of a function's `symbol` block;
// the file's own lines in a method's and a `symbols` block, which need not be contiguous).
//
// The cursor only lands on "line", "return" and "exception" steps: a "call" step
// describes the same place as the first line of the new frame.
//
// A breakpoint is hit by a "line" step whose [line, end] range contains it. A
// breakpoint line that the trace was recorded with a condition or hit count for
// (`trace.probes`, runtime/questions/questions.py) is hit exactly at its recorded steps; a
// logpoint's line never stops.
// While leaving a statement (continue, step over, step out), breakpoints on that
// statement's own lines do not fire again inside the calls it makes (a lambda
// written on the breakpoint line, for example); they fire again once control is
// back at the statement's depth or above.
//
// `events` (optional) is a set of step indices that stop like breakpoints: the
// event breakpoints' steps (event-stops.js: model calls, tools, error results,
// stop reasons); they stop wherever they fall, as a recorded condition does.
//
// In a trace of asyncio tasks (stacks with `{task: true}` frames, docs/design.md
// "Coroutines and tasks"), step over and step out stay in the cursor's task and the
// tasks awaiting it: a step of another task is passed over unless its frame is one of
// the cursor's outer frames, so stepping over an `await` stops after it in the same
// coroutine (a breakpoint still stops in any task).
//
// In a trace of threads (`trace.ownThread(i)`: the thread, an asyncio task's steps being
// its loop's thread's; docs/design.md "Threads"), step over, into, out and back stay in
// the cursor's thread: the steps of other threads between pass as
// one move; once the cursor's thread has no step left, the next step of any thread is
// the stop (stepping back from a thread's first step, the step before it). A breakpoint
// or an event breakpoint stops in any thread.

import { CALL, RETURN, hitsEvent } from "./events.js";

export const END = -1;

const NONE = Object.freeze({ count: 0 });
const NO_STOPS = Object.freeze({ lines: [], recorded: [], length: 0 });

function size(trace) {
  return trace?.count ?? 0;
}

/** Whether the cursor may rest on step i. */
export function stoppable(trace, i) {
  return trace.eventCode(i) !== CALL;
}

/** Whether step i hits one of the stops (see `normalize`). */
function hits(trace, i, bps) {
  const lines = bps.lines;
  for (let k = 0; k < bps.recorded.length; k++) if (bps.recorded[k].steps.has(i)) return true;
  if (!lines.length || !hitsEvent(trace.eventCode(i))) return false;
  const first = trace.line(i);
  const last = trace.end(i);
  for (let k = 0; k < lines.length; k++) if (lines[k] >= first && lines[k] <= last) return true;
  return false;
}

/** Whether step i hits one of the breakpoints. */
export function isHit(trace, i, breakpoints, events = null) {
  return hits(trace, i, normalize(breakpoints, trace, events));
}

/**
 * The stops of breakpoint lines in a trace: `lines`, sorted, hit wherever they run;
 * `recorded`, [{line, steps: Set}] for lines with a recorded condition or hit count.
 */
function normalize(breakpoints, trace, events = null) {
  const asked = new Map();
  for (const b of trace?.probes?.breakpoints ?? []) asked.set(b.line, b);
  const lines = [];
  const recorded = [];
  for (const b of breakpoints ?? []) {
    const n = Number(b);
    if (!Number.isInteger(n) || n <= 0) continue;
    const question = asked.get(n);
    if (!question) lines.push(n);
    else if (question.log === null || question.log === undefined) {
      recorded.push({ line: n, steps: new Set(question.steps) });
    }
  }
  if (events?.size) recorded.push({ line: 0, steps: events }); // line 0: outside any statement
  if (!lines.length && !recorded.length) return NO_STOPS;
  lines.sort((a, b) => a - b);
  return { lines, recorded, length: lines.length + recorded.length };
}

/**
 * Whether step j (after the step `origin`, or -1 for none) counts as a hit: a
 * deeper step hits only on lines outside the origin's statement.
 */
function hitsAfter(trace, origin, j, bps) {
  if (!hits(trace, j, bps)) return false;
  if (origin < 0 || trace.depth(j) <= trace.depth(origin)) return true;
  if (trace.ownThread(j) !== trace.ownThread(origin)) return true;   // another thread's statement
  const first = trace.line(origin);
  const last = trace.end(origin);
  const lo = trace.line(j);
  const hi = trace.end(j);
  for (const b of bps.lines) if (b >= lo && b <= hi && (b < first || b > last)) return true;
  for (const r of bps.recorded) if (r.steps.has(j) && (r.line < first || r.line > last)) return true;
  return false;
}

function firstHit(trace, bps) {
  if (!bps.length) return END;
  const n = size(trace);
  for (let j = 0; j < n; j++) if (hitsAfter(trace, -1, j, bps)) return j;
  return END;
}

function forward(trace, index, bps, stopsAt) {
  const n = size(trace);
  const checkHits = bps.length > 0;
  for (let j = index + 1; j < n; j++) {
    if (checkHits && hitsAfter(trace, index, j, bps)) return j;
    if (trace.eventCode(j) !== CALL && stopsAt(j)) return j;
  }
  return END;
}

/** For `origin`'s step: whether step j runs in another asyncio task (see the top). */
function otherTask(trace, origin) {
  const stacks = trace.stacks ?? [];
  if (!stacks.some((frames) => frames.some((f) => f.task))) return () => false;
  const tasks = new Map();
  const taskOf = (i) => {
    const at = trace.stack(i);
    if (!tasks.has(at)) {
      const frames = stacks[at] ?? [];
      let name = null;
      for (let k = frames.length - 1; k >= 0 && name === null; k--) if (frames[k].task) name = frames[k].name;
      tasks.set(at, name);
    }
    return tasks.get(at);
  };
  const own = taskOf(origin);
  const outer = new Set((stacks[trace.stack(origin)] ?? []).map((f) => f.frame));
  return (j) => taskOf(j) !== own && !outer.has(trace.frame(j));
}

/** `rule` (whether step j stops a step from `origin`) kept to origin's thread (see the
 * top): another thread's step does not stop, any step does once that thread has none left. */
function inThread(trace, origin, rule) {
  if (!trace.threadIds) return rule;
  const own = trace.ownThread(origin);
  let last = size(trace) - 1;
  while (last > origin && trace.ownThread(last) !== own) last--;
  return (j) => j > last || (trace.ownThread(j) === own && rule(j));
}

function lastStoppable(trace, before) {
  for (let j = before - 1; j >= 0; j--) if (stoppable(trace, j)) return j;
  return END;
}

function stepBack(trace, index) {
  if (index === END) return lastStoppable(trace, size(trace));
  const depth = trace.depth(index);
  const own = trace.threadIds ? trace.ownThread(index) : 0;
  for (let j = index - 1; j >= 0; j--) {
    if (stoppable(trace, j) && trace.depth(j) <= depth && trace.ownThread(j) === own) return j;
  }
  // a thread's first step: back to the step before it, whichever thread ran that
  const before = own === 0 ? END : lastStoppable(trace, index);
  return before === END ? index : before;
}

/**
 * The index after applying `command` at `index` (END when the program ends).
 * `debug` and `run` start from the beginning; `step-back` at the first step
 * stays there; any command but `debug`/`run`/`step-back` from END stays at END.
 */
export function step(trace, index, command, breakpoints, events = null) {
  const t = trace ?? NONE;
  const n = size(t);
  const bps = normalize(breakpoints, t, events);
  switch (command) {
    case "run":
      return END;
    case "debug":
      return firstHit(t, bps);
    case "step-back":
      return n ? stepBack(t, index) : END;
    default:
      break;
  }
  if (index === END || index < 0 || index >= n) return END;
  const depth = t.depth(index);
  switch (command) {
    case "continue":
      return forward(t, index, bps, () => false);
    case "step-into":
      return forward(t, index, bps, inThread(t, index, () => true));
    case "step-over": {
      const other = otherTask(t, index);
      return forward(t, index, bps, inThread(t, index, (j) => t.depth(j) <= depth && !other(j)));
    }
    case "step-out": {
      const leaving = t.eventCode(index) === RETURN;
      const frame = t.frame(index);
      const other = otherTask(t, index);
      return forward(t, index, bps, inThread(t, index, (j) => (t.depth(j) < depth && !other(j))
        || (!leaving && t.eventCode(j) === RETURN && t.frame(j) === frame)));
    }
    default:
      throw new Error(`unknown command: ${command}`);
  }
}

/** Whether `command` can move the cursor from `index` (for enabling buttons). */
export function applies(trace, index, command) {
  const n = size(trace);
  if (command === "debug" || command === "run") return true;
  if (command === "step-back") {
    if (!n) return false;
    return index === END ? lastStoppable(trace, n) !== END
      : stepBack(trace, index) !== index;
  }
  return index !== END && index >= 0 && index < n;
}

/** Indices of all steps that hit a breakpoint (for the timeline's ticks). */
export function hitIndices(trace, breakpoints, events = null) {
  const bps = normalize(breakpoints, trace, events);
  const out = [];
  if (!bps.length) return out;
  const n = size(trace);
  for (let j = 0; j < n; j++) if (hits(trace, j, bps)) out.push(j);
  return out;
}

/** The nearest stoppable step at or before `index` (for the timeline slider). */
export function settle(trace, index) {
  const n = size(trace);
  if (!n) return END;
  const i = Math.max(0, Math.min(index, n - 1));
  if (stoppable(trace, i)) return i;
  for (let j = i + 1; j < n; j++) if (stoppable(trace, j)) return j;
  return lastStoppable(trace, i);
}
