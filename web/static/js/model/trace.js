// A recorded trace held by column: typed arrays, no object per step.
//
// `fromPacked(json)` reads the packed form the worker posts (docs/design.md,
// "Packed trace"); `fromSteps(steps, header)` builds the same from the dict form
// (a list of step objects, for tests). Both give a Trace: the header fields of the
// dict form (`stdout`, `stacks`, `status`, `error`, …) plus `count` and O(1)
// accessors by step index: event, line, end, frame, depth, fn, stack, out, set,
// del, ret, exc, thread (the index into `threads` of the thread that ran it; 0 in a
// trace of one thread; `switchSteps`/`switchThreads` where it changed, model/threads.js).
// Per step it holds about 21 bytes (event, line, end, frame row, stdout length, offset
// of the changed locals) plus the changed locals themselves.

import { EVENTS } from "./events.js";

export { EVENTS, CALL, LINE, RETURN, EXCEPTION } from "./events.js";

const BODY = new Set(["packed", "count", "frames", "names", "event", "line", "frame",
  "end", "out", "set", "del", "ret", "exc", "steps", "thread"]);
const NO_NAMES = Object.freeze([]);

export class Trace {
  constructor(data) {
    for (const [key, value] of Object.entries(data)) if (!BODY.has(key)) this[key] = value;
    const n = data.count ?? data.line.length;
    this.count = n;
    this.events = new Uint8Array(n);
    const codes = data.event;
    for (let i = 0; i < n; i++) this.events[i] = codes.charCodeAt(i) - 48;
    this.lines = Int32Array.from(data.line);
    this.ends = this.lines.slice();
    this.rows = new Int32Array(n);
    this.outs = new Int32Array(n);
    this.frameIds = Int32Array.from(data.frames, (f) => f[0]);
    this.frameFns = data.frames.map((f) => f[1]);
    this.frameDepths = Int32Array.from(data.frames, (f) => f[2]);
    this.frameStacks = Int32Array.from(data.frames, (f) => f[3]);
    this.names = data.names ?? [];
    this.readRows(data.frame ?? []);
    this.readSparse(data);
    this.readThreads(data.thread ?? []);
  }

  /** The running thread of each step, from the steps where it changed (none: all 0). */
  readThreads(flat) {
    this.threadIds = flat.length ? new Uint16Array(this.count) : null;
    this.switchSteps = new Int32Array(flat.length / 2);   // model/threads.js reads them
    this.switchThreads = new Int32Array(flat.length / 2);
    let index = 0;
    for (let k = 0; k < flat.length; k += 2) {
      index += flat[k];
      this.threadIds.fill(flat[k + 1], index);
      this.switchSteps[k / 2] = index;
      this.switchThreads[k / 2] = flat[k + 1];
    }
  }

  readRows(runs) {
    let at = 0;
    for (let k = 0; k < runs.length; k += 2) {
      this.rows.fill(runs[k], at, at + runs[k + 1]);
      at += runs[k + 1];
    }
  }

  readSparse(data) {
    const n = this.count;
    let index = 0;
    const end = data.end ?? [];
    for (let k = 0; k < end.length; k += 2) {
      index += end[k];
      this.ends[index] = end[k + 1];
    }
    const out = data.out ?? [];
    let from = 0;
    let units = 0;
    index = 0;
    for (let k = 0; k < out.length; k += 2) {
      index += out[k];
      this.outs.fill(units, from, index);
      units = out[k + 1];
      from = index;
    }
    this.outs.fill(units, from, n);
    this.readSets(data.set ?? []);
    this.dels = new Map();
    const del = data.del ?? [];
    index = 0;
    for (let k = 0; k < del.length; k += 2 + del[k + 1]) {
      index += del[k];
      this.dels.set(index, del.slice(k + 2, k + 2 + del[k + 1]).map((id) => this.names[id]));
    }
    this.rets = new Map();
    const ret = data.ret ?? [];
    index = 0;
    for (let k = 0; k < ret.length; k += 2) {
      index += ret[k];
      this.rets.set(index, ret[k + 1]);
    }
    this.excs = new Map();
    const exc = data.exc ?? [];
    index = 0;
    for (let k = 0; k < exc.length; k += 3) {
      index += exc[k];
      this.excs.set(index, { type: exc[k + 1], message: exc[k + 2] });
    }
  }

  /** Changed locals: those of step i are entries setStart[i] .. setStart[i + 1]. */
  readSets(flat) {
    const n = this.count;
    let total = 0;
    for (let k = 0; k < flat.length; k += 2 + 2 * flat[k + 1]) total += flat[k + 1];
    this.setStart = new Int32Array(n + 1);
    this.setNames = new Int32Array(total);
    this.setValues = new Array(total);
    let index = 0;
    let next = 0;
    let e = 0;
    for (let k = 0; k < flat.length; k += 2 + 2 * flat[k + 1]) {
      index += flat[k];
      this.setStart.fill(e, next, index + 1);
      next = index + 1;
      for (let j = 0; j < flat[k + 1]; j++) {
        this.setNames[e] = flat[k + 2 + 2 * j];
        this.setValues[e] = flat[k + 3 + 2 * j];
        e++;
      }
    }
    this.setStart.fill(e, next, n + 1);
  }

  eventCode(i) { return this.events[i]; }
  event(i) { return EVENTS[this.events[i]]; }
  line(i) { return this.lines[i]; }
  end(i) { return this.ends[i]; }
  frame(i) { return this.frameIds[this.rows[i]]; }
  depth(i) { return this.frameDepths[this.rows[i]]; }
  fn(i) { return this.frameFns[this.rows[i]]; }
  stack(i) { return this.frameStacks[this.rows[i]]; }
  out(i) { return this.outs[i]; }
  thread(i) { return this.threadIds ? this.threadIds[i] : 0; }

  /** The thread that ran step i: thread(i), or for a step of an asyncio task the thread
   * whose loop ran it (its header entry's `thread`, model/threads.js). */
  ownThread(i) {
    const k = this.thread(i);
    const entry = k ? this.threads?.[k] : null;
    return entry?.task ? entry.thread ?? 0 : k;
  }

  /** Calls fn(name, VALUE) for each local step i bound or changed, in order. */
  eachSet(i, fn) {
    for (let e = this.setStart[i], last = this.setStart[i + 1]; e < last; e++) {
      fn(this.names[this.setNames[e]], this.setValues[e]);
    }
  }

  /** The locals step i bound or changed: {name: VALUE} (a new object). */
  set(i) {
    const out = {};
    this.eachSet(i, (name, value) => { out[name] = value; });
    return out;
  }

  /** Names step i unbound (an empty list when none). */
  del(i) { return this.dels.get(i) ?? NO_NAMES; }
  /** The return VALUE of a "return" step, else undefined. */
  ret(i) { return this.rets.get(i); }
  /** {type, message} of an "exception" step, else undefined. */
  exc(i) { return this.excs.get(i); }

  /** Step i as one object in the dict form (for the cursor's step; not for scans). */
  at(i) {
    if (!(i >= 0 && i < this.count)) return null;
    const step = {
      event: this.event(i), line: this.line(i), end: this.end(i), fn: this.fn(i),
      frame: this.frame(i), depth: this.depth(i), stack: this.stack(i), set: this.set(i),
    };
    if (this.dels.has(i)) step.del = this.del(i);
    step.out = this.out(i);
    if (this.rets.has(i)) step.ret = this.ret(i);
    if (this.excs.has(i)) step.exc = this.exc(i);
    if (this.threadIds) step.thread = this.thread(i);
    return step;
  }
}

/** A Trace from the packed form: its JSON text or the parsed object. */
export function fromPacked(packed) {
  return new Trace(typeof packed === "string" ? JSON.parse(packed) : packed);
}

/**
 * A Trace from the dict form: `steps` as in docs/design.md (missing `end` means
 * `line`, missing `set`/`out`/`stack` mean {}/0/0), `header` the other fields.
 */
export function fromSteps(steps, header = {}) {
  const rows = new Map();
  const names = new Map();
  const nameId = (name) => {
    if (!names.has(name)) names.set(name, names.size);
    return names.get(name);
  };
  const data = { ...header, count: steps.length, frames: [], line: [], frame: [],
    end: [], out: [], set: [], del: [], ret: [], exc: [] };
  const codes = [];
  const last = { end: 0, out: 0, set: 0, del: 0, ret: 0, exc: 0, thread: 0 };
  const threads = [];
  let thread = 0;
  const gap = (field, i) => {
    const d = i - last[field];
    last[field] = i;
    return d;
  };
  let out = 0;
  steps.forEach((s, i) => {
    const stack = s.stack ?? 0;
    const key = `${s.frame}\u0000${s.fn}\u0000${s.depth}\u0000${stack}`;
    if (!rows.has(key)) {
      rows.set(key, data.frames.length);
      data.frames.push([s.frame, s.fn, s.depth, stack]);
    }
    const row = rows.get(key);
    const runs = data.frame;
    if (runs.length && runs[runs.length - 2] === row) runs[runs.length - 1]++;
    else runs.push(row, 1);
    codes.push(EVENTS.indexOf(s.event));
    data.line.push(s.line);
    if (s.end !== undefined && s.end !== s.line) data.end.push(gap("end", i), s.end);
    if ((s.out ?? 0) !== out) {
      out = s.out ?? 0;
      data.out.push(gap("out", i), out);
    }
    const set = Object.entries(s.set ?? {});
    if (set.length) data.set.push(gap("set", i), set.length, ...set.flatMap(([k, v]) => [nameId(k), v]));
    if (s.del?.length) data.del.push(gap("del", i), s.del.length, ...s.del.map(nameId));
    if ("ret" in s) data.ret.push(gap("ret", i), s.ret);
    if (s.exc) data.exc.push(gap("exc", i), s.exc.type, s.exc.message);
    if ((s.thread ?? 0) !== thread) {
      thread = s.thread;
      threads.push(gap("thread", i), thread);
    }
  });
  if (threads.length) data.thread = threads;
  data.event = codes.map((c) => String.fromCharCode(48 + c)).join("");
  data.names = [...names.keys()];
  return new Trace(data);
}
