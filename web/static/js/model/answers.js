// Reading a trace's recorded answers (`trace.probes`, docs/design.md "Questions and answers").
//
// Pure: no DOM. `answerIndex(trace)` (made once per trace) gives the watches' values
// in the frame of any step, whether the step changed them, the logpoint lines up to
// a step and the breakpoints' errors.

import { lastAtOrBefore } from "./sorted.js";

const made = new WeakMap();

export function answerIndex(trace) {
  let found = made.get(trace);
  if (!found) {
    found = new AnswerIndex(trace);
    made.set(trace, found);
  }
  return found;
}

/** A watch value that is an error: {error: "NameError: …"}. */
export function isError(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && typeof value.error === "string";
}

class AnswerIndex {
  constructor(trace) {
    const p = trace.probes ?? {};
    this.trace = trace;
    this.watches = p.watches ?? [];
    this.breakpoints = p.breakpoints ?? [];
    const log = p.log ?? [];
    this.logSteps = [];
    this.logLines = [];
    for (let k = 0; k < log.length; k += 3) {
      this.logSteps.push(log[k]);
      this.logLines.push({ step: log[k], line: this.breakpoints[log[k + 1]]?.line, text: log[k + 2] });
    }
    // per watch: frame id → {steps: [], values: []} of its changes in that frame
    this.changes = this.watches.map(() => new Map());
    const flat = p.watch ?? [];
    let index = 0;
    for (let k = 0; k < flat.length; k += 2 + 2 * flat[k + 1]) {
      index += flat[k];
      const frame = trace.frame(index);
      for (let j = 0; j < flat[k + 1]; j++) {
        const w = flat[k + 2 + 2 * j];
        let list = this.changes[w].get(frame);
        if (!list) this.changes[w].set(frame, (list = { steps: [], values: [] }));
        list.steps.push(index);
        list.values.push(flat[k + 3 + 2 * j]);
      }
    }
  }

  /** [{expression, value, changed}] in the frame of step i (-1: the last step). */
  watchesAt(i) {
    const t = this.trace;
    const at = i < 0 || i >= t.count ? t.count - 1 : i;
    if (at < 0) return [];
    const frame = t.frame(at);
    return this.watches.map((expression, w) => {
      const list = this.changes[w].get(frame);
      const k = list ? lastAtOrBefore(list.steps, at) : -1;
      return {
        expression,
        value: k >= 0 ? list.values[k] : undefined,
        changed: k >= 0 && list.steps[k] === at,
      };
    });
  }

  /** The logpoint lines written up to step i (all of them for -1). */
  logUpTo(i) {
    if (i < 0) return this.logLines;
    return this.logLines.slice(0, lastAtOrBefore(this.logSteps, i) + 1);
  }

  /** [{line, error}] of breakpoints whose condition or log expression raised. */
  errors() {
    return this.breakpoints.filter((b) => b.error).map((b) => ({ line: b.line, error: b.error }));
  }
}
