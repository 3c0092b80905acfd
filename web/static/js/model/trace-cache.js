// The page's recorded traces, kept for reuse under one memory budget.
//
// A block records a trace once per scenario, custom setup text and set of probes, and
// shows it again from here when it comes back to one of them. The cache is bounded by
// bytes (each trace's estimated size, traceBytes) with one budget for the whole page:
// storing a trace drops the least recently used ones until the total fits again. A
// trace that someone holds (the run a block shows, the run it is compared with) is
// never dropped, and neither is the one just stored; while they alone exceed the budget
// the cache holds more than it. Pure: no DOM.

export const TRACE_CACHE_BYTES = 64 * 1024 * 1024; // the page's budget

const SLOT_BYTES = 8; // a reference or a number, in an array or an object
const OBJECT_BYTES = 32; // an array's or an object's own header
const SAMPLE = 1024; // items walked of a longer array or map: the rest is estimated from them

/**
 * The estimated size of a trace in bytes: its typed arrays exactly, every other value it
 * holds (the changed locals, the output, the stacks, agent calls and probes) as 2 bytes
 * per string character plus a slot per item and a header per container. Of an array or
 * map longer than SAMPLE items, SAMPLE items spread over it are walked and stand for the
 * rest, so a million-step trace costs about as much as a small one. Without recursion;
 * a trace is parsed JSON in typed arrays and maps, with no cycles.
 */
export function traceBytes(trace) {
  let bytes = 0;
  const stack = [trace, 1]; // value, weight: how many values like it it stands for
  const visit = (value, weight) => {
    if (typeof value === "string") bytes += weight * 2 * value.length;
    else if (value !== null && typeof value === "object") stack.push(value, weight);
  };
  while (stack.length) {
    const weight = stack.pop();
    const value = stack.pop();
    if (ArrayBuffer.isView(value)) {
      bytes += weight * value.byteLength;
      continue;
    }
    bytes += weight * OBJECT_BYTES;
    if (Array.isArray(value)) {
      const n = value.length;
      bytes += weight * SLOT_BYTES * n;
      const step = Math.max(1, n / SAMPLE);
      for (let k = 0; k < Math.min(n, SAMPLE); k++) visit(value[Math.floor(k * step)], weight * step);
    } else if (value instanceof Map) {
      bytes += weight * 2 * SLOT_BYTES * value.size;
      const each = weight * Math.max(1, value.size / SAMPLE);
      let k = 0;
      for (const [key, item] of value) {
        if (k++ === SAMPLE) break;
        visit(key, each);
        visit(item, each);
      }
    } else {
      for (const key of Object.keys(value)) {
        bytes += weight * SLOT_BYTES;
        visit(key, weight);
        visit(value[key], weight);
      }
    }
  }
  return Math.round(bytes);
}

export class TraceCache {
  /** `budget`: bytes; `sizeOf(value)`: a value's size in bytes (traceBytes). */
  constructor({ budget = TRACE_CACHE_BYTES, sizeOf = traceBytes } = {}) {
    this.budget = budget;
    this.sizeOf = sizeOf;
    this.entries = new Map(); // key → {value, bytes}, least recently used first
    this.holders = new Map(); // holder → the value it holds
    this.bytes = 0;
  }

  get size() {
    return this.entries.size;
  }

  has(key) {
    return this.entries.has(key);
  }

  /** The value stored under `key` (undefined when none); it is now the most recently used. */
  get(key) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Store `value` under `key` as the most recently used, then drop the least recently
   * used values that nobody holds until the total fits the budget (never this one). */
  set(key, value) {
    this.delete(key);
    const bytes = this.sizeOf(value);
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    this.evict(key);
    return value;
  }

  delete(key) {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    return true;
  }

  /** `holder` (any key: "BLOCK shown", "BLOCK compared") now holds `value` (null: nothing),
   * instead of what it held before; a held value is never dropped. */
  hold(holder, value) {
    if (value === null || value === undefined) this.holders.delete(holder);
    else this.holders.set(holder, value);
  }

  /** Whether someone holds `value`. */
  held(value) {
    for (const v of this.holders.values()) if (v === value) return true;
    return false;
  }

  evict(keep) {
    if (this.bytes <= this.budget) return;
    const held = new Set(this.holders.values());
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      if (key === keep || held.has(entry.value)) continue;
      this.delete(key);
    }
  }
}
