// Value history: the steps at which one local of one frame changed (binding included).
//
// Pure: no DOM. `history(trace, replay, frame, name)` scans the steps that changed
// locals once and returns {steps, lines, values}: step N is where the new value is
// first seen (the cursor shows it there), line L the statement that made it, i.e. the
// line of the frame's previous step (the step's own line for a binding at the call).
// `changedAt(h, i)` is the position of the change holding the value at step i.

import { lastAtOrBefore } from "./sorted.js";

const made = new WeakMap(); // trace → Map("frame name") → history

export function history(trace, replay, frame, name) {
  let perTrace = made.get(trace);
  if (!perTrace) made.set(trace, (perTrace = new Map()));
  const key = `${frame}\u0000${name}`;
  let found = perTrace.get(key);
  if (!found) perTrace.set(key, (found = build(trace, replay, frame, name)));
  return found;
}

function build(trace, replay, frame, name) {
  const id = trace.names.indexOf(name);
  const steps = [];
  const values = [];
  if (id >= 0) {
    const { setStart, setNames, setValues } = trace;
    const n = trace.count;
    for (let i = 0; i < n; i++) {
      const last = setStart[i + 1];
      for (let e = setStart[i]; e < last; e++) {
        if (setNames[e] === id && trace.frame(i) === frame) {
          steps.push(i);
          values.push(setValues[e]);
          break;
        }
      }
    }
  }
  const lines = new Int32Array(steps.length);
  steps.forEach((i, k) => {
    const before = replay.previous[i];
    lines[k] = before >= 0 ? trace.line(before) : trace.line(i);
  });
  return { frame, name, steps: Int32Array.from(steps), lines, values };
}

/** The position in `h` of the change whose value step i shows (−1: not bound yet). */
export function changedAt(h, i) {
  return lastAtOrBefore(h.steps, i);
}
