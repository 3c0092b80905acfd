// Replay: rebuild what the program looked like at any step of a trace.
//
// Pure: no DOM. A trace (trace.js) stores only what changed per step (`set`/`del`
// of the step's frame); the locals of a frame at step i are the fold of that
// frame's steps up to i. One pass over the trace links each step to the previous
// step of its frame (an Int32Array) and keeps a full copy of a frame's locals
// every CHECKPOINT steps of that frame, so any step is rebuilt from at most
// CHECKPOINT deltas whatever the trace length. The index is made once per trace.

import { RETURN } from "./events.js";

export const CHECKPOINT = 128;
const made = new WeakMap();

/**
 * Index a trace for replay. Returns an object with `locals(i)`, `changed(i)`,
 * `output(i)`, `stack(i)`; every method takes a step index (-1 for the end).
 */
export function replay(trace) {
  if (!trace) return new Replay(null, new Int32Array(0), new Map());
  let found = made.get(trace);
  if (!found) {
    found = build(trace);
    made.set(trace, found);
  }
  return found;
}

// A frame id is new only once: a generator keeps its id across yield (a "return"
// step) and resume (a "call" step), and its locals carry over. At a return the
// frame's working copy of its locals is dropped (most frames never come back); a
// frame that does come back starts again from its last step's locals.
function build(trace) {
  const n = trace.count;
  const previous = new Int32Array(n);
  const snapshots = new Map();
  const result = new Replay(trace, previous, snapshots);
  const live = new Map(); // frame id → {last, locals, count}; locals null after a return
  for (let i = 0; i < n; i++) {
    const frame = trace.frame(i);
    let state = live.get(frame);
    if (!state) {
      state = { last: -1, locals: new Map(), count: 0 };
      live.set(frame, state);
    } else if (!state.locals) {
      state.locals = result.locals(state.last);
    }
    previous[i] = state.last;
    applyDelta(state.locals, trace, i);
    state.last = i;
    state.count++;
    if (state.count % CHECKPOINT === 0) snapshots.set(i, new Map(state.locals));
    if (trace.eventCode(i) === RETURN) state.locals = null;
  }
  return result;
}

function applyDelta(locals, trace, i) {
  const start = trace.setStart[i];
  const last = trace.setStart[i + 1];
  for (let e = start; e < last; e++) locals.set(trace.names[trace.setNames[e]], trace.setValues[e]);
  if (trace.dels.size) for (const name of trace.del(i)) locals.delete(name);
}

class Replay {
  constructor(trace, previous, snapshots) {
    this.trace = trace;
    this.previous = previous;
    this.snapshots = snapshots;
  }

  get length() {
    return this.trace?.count ?? 0;
  }

  resolve(i) {
    return i < 0 || i >= this.length ? this.length - 1 : i;
  }

  /** The locals of the frame of step i, as a Map name → VALUE, in binding order. */
  locals(i) {
    const at = this.resolve(i);
    if (at < 0) return new Map();
    const chain = [];
    let j = at;
    let base = null;
    while (j >= 0) {
      const snap = this.snapshots.get(j);
      if (snap) {
        base = snap;
        break;
      }
      chain.push(j);
      j = this.previous[j];
    }
    const locals = new Map(base ?? []);
    for (let k = chain.length - 1; k >= 0; k--) applyDelta(locals, this.trace, chain[k]);
    return locals;
  }

  /** Names that step i bound or changed in its frame. */
  changed(i) {
    const at = this.resolve(i);
    const names = new Set();
    if (at >= 0) this.trace.eachSet(at, (name) => names.add(name));
    return names;
  }

  /** What the program printed up to step i (everything when i is -1). */
  output(i) {
    const stdout = this.trace?.stdout ?? "";
    if (i < 0 || i >= this.length) return stdout;
    return stdout.slice(0, this.trace.out(i));
  }

  /**
   * The call stack at step i, outermost first: the recorded outer frames, then
   * the step's own frame. Each frame: {name, line, file?, hidden, current}.
   */
  stack(i) {
    const at = this.resolve(i);
    if (at < 0) return [];
    const t = this.trace;
    const outer = (t.stacks ?? [])[t.stack(at)] ?? [];
    const frames = outer.map((f) => ({ ...f, hidden: Boolean(f.hidden), current: false }));
    frames.push({ name: t.fn(at), line: t.line(at), frame: t.frame(at), hidden: false, current: true });
    return frames;
  }
}
