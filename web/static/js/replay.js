// Replay: rebuild what the program looked like at any step of a trace.
//
// Pure: no DOM. A trace stores only what changed per step (`set`/`del` of the
// step's frame); the locals of a frame at step i are the fold of that frame's
// steps up to i. One pass over the trace links each step to the previous step of
// its frame and keeps a full copy of a frame's locals every CHECKPOINT steps of
// that frame, so any step is rebuilt from at most CHECKPOINT deltas whatever the
// trace length.

export const CHECKPOINT = 128;

/**
 * Index a trace for replay. Returns an object with `locals(i)`, `changed(i)`,
 * `output(i)`, `stack(i)`; every method takes a step index (-1 for the end).
 */
export function replay(trace) {
  const steps = trace?.steps ?? [];
  const n = steps.length;
  const previous = new Int32Array(n);
  const snapshots = new Map();
  const live = new Map();
  const counts = new Map();
  for (let i = 0; i < n; i++) {
    const s = steps[i];
    const state = live.get(s.frame);
    previous[i] = state ? state.last : -1;
    const locals = state ? state.locals : new Map();
    applyDelta(locals, s);
    live.set(s.frame, { last: i, locals });
    const count = (counts.get(s.frame) ?? 0) + 1;
    counts.set(s.frame, count);
    if (count % CHECKPOINT === 0) snapshots.set(i, new Map(locals));
    if (s.event === "return") {
      live.delete(s.frame);
      counts.delete(s.frame);
    }
  }
  return new Replay(trace, steps, previous, snapshots);
}

function applyDelta(locals, s) {
  if (s.set) for (const name of Object.keys(s.set)) locals.set(name, s.set[name]);
  if (s.del) for (const name of s.del) locals.delete(name);
}

class Replay {
  constructor(trace, steps, previous, snapshots) {
    this.trace = trace;
    this.steps = steps;
    this.previous = previous;
    this.snapshots = snapshots;
  }

  get length() {
    return this.steps.length;
  }

  resolve(i) {
    return i < 0 || i >= this.steps.length ? this.steps.length - 1 : i;
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
    for (let k = chain.length - 1; k >= 0; k--) applyDelta(locals, this.steps[chain[k]]);
    return locals;
  }

  /** Names that step i bound or changed in its frame. */
  changed(i) {
    const at = this.resolve(i);
    if (at < 0) return new Set();
    return new Set(Object.keys(this.steps[at].set ?? {}));
  }

  /** What the program printed up to step i (everything when i is -1). */
  output(i) {
    const stdout = this.trace?.stdout ?? "";
    if (i < 0 || i >= this.steps.length) return stdout;
    const out = this.steps[i].out;
    return typeof out === "number" ? stdout.slice(0, out) : stdout;
  }

  /**
   * The call stack at step i, outermost first: the recorded outer frames, then
   * the step's own frame. Each frame: {name, line, file?, hidden, current}.
   */
  stack(i) {
    const at = this.resolve(i);
    if (at < 0) return [];
    const s = this.steps[at];
    const outer = (this.trace.stacks ?? [])[s.stack] ?? [];
    const frames = outer.map((f) => ({ ...f, hidden: Boolean(f.hidden), current: false }));
    frames.push({ name: s.fn, line: s.line, frame: s.frame, hidden: false, current: true });
    return frames;
  }
}
