// Event breakpoints: stops at conversation events of a run with model calls, as a
// set of step indices that stepping.js treats like recorded breakpoint steps.
//
// Pure: no DOM. An event breakpoint is {kind, value}:
//   model        value "" (any model call) or K (the K-th, 1-based): the call's mark step
//   tool         value "" (any tool) or a tool's name: the tool's mark step
//   error        (value ignored) a tool whose result has error true, or that raised
//   stop-reason  value "" (any response) or a stop_reason: the first step that sees it
//   thread-start value "" (any thread but the main one) or a thread's name: its first step
//   switch       value "" (any) or a thread's name: each step where that thread takes
//                over the run (model/threads.js)
// The URL carries them as "KIND:VALUE" texts (url-state.js).

import { stoppable } from "./stepping.js";
import { Threads, threaded } from "./threads.js";

export const EVENT_KINDS = Object.freeze(["model", "tool", "error", "stop-reason", "thread-start", "switch"]);
const THREAD_KINDS = Object.freeze(["thread-start", "switch"]);

/** The {kind, value} of a form's input, or {error: message key, …} for bad input. */
export function eventBreakpoint(kind, value) {
  const text = String(value ?? "").trim();
  if (!EVENT_KINDS.includes(kind)) return { error: "event_bp_kind", kind, value: text };
  if (kind === "model" && text !== "" && !/^[1-9]\d*$/.test(text)) {
    return { error: "event_bp_number", kind, value: text };
  }
  return { kind, value: kind === "error" ? "" : text };
}

/** "KIND:VALUE": the key of an event breakpoint (data-event-bp, the URL). */
export function eventKey(bp) {
  return `${bp.kind}:${bp.value}`;
}

/** The event breakpoint of a key, or null when the key is not one. */
export function parseEventKey(key) {
  const text = String(key ?? "");
  const colon = text.indexOf(":");
  if (colon < 0) return null;
  const bp = eventBreakpoint(text.slice(0, colon), text.slice(colon + 1));
  return bp.error ? null : bp;
}

/** The first step at or after `s` the cursor may rest on (a model call's step may be a call event). */
function restingAt(trace, s) {
  const n = trace.count;
  for (let j = Math.max(0, s); j < n; j++) if (stoppable(trace, j)) return j;
  return -1;
}

/** The steps (before settling) one event breakpoint stops at, in the packed agent part. */
function rawSteps(agent, bp) {
  const out = [];
  if (bp.kind === "model") {
    agent.calls.forEach((call, k) => {
      if (bp.value === "" || Number(bp.value) === k + 1) out.push(call[1]);
    });
  } else if (bp.kind === "stop-reason") {
    for (const call of agent.calls) {
      const [, step, ret, , , stop, response] = call;
      if (response === null || response === undefined) continue;
      if (bp.value === "" || stop === bp.value) out.push(ret ?? step);
    }
  } else {
    for (const [step, , name, , , , error] of agent.tools) {
      if (bp.kind === "tool" ? (bp.value === "" || name === bp.value) : Boolean(error)) out.push(step);
    }
  }
  return out;
}

/** The steps (before settling) a thread event breakpoint stops at. */
function threadSteps(threads, bp) {
  const named = (k) => (bp.value === "" ? true : threads.name(k) === bp.value);
  if (bp.kind === "switch") return threads.switches().filter((s) => named(s.thread)).map((s) => s.step);
  const out = [];
  for (let k = 1; k < threads.count; k++) {
    const first = named(k) ? threads.firstStep(k) : -1;
    if (first >= 0) out.push(first);
  }
  return out;
}

/** The set of step indices where the event breakpoints `bps` stop in `trace`. */
export function eventSteps(trace, bps) {
  const steps = new Set();
  const agent = trace?.agent;
  if (!bps?.length) return steps;
  const threads = threaded(trace) ? new Threads(trace) : null;
  for (const bp of bps) {
    const thread = THREAD_KINDS.includes(bp.kind);
    if (thread ? !threads : !agent?.calls) continue;
    for (const s of thread ? threadSteps(threads, bp) : rawSteps(agent, bp)) {
      const j = restingAt(trace, s);
      if (j >= 0) steps.add(j);
    }
  }
  return steps;
}
