// Step events: their codes and which of them a breakpoint hits; the caps that end a run.
//
// Defined once for the page; runtime/trace/events.py holds the same for Python and
// tests/test_events.py checks that the two agree.

export const EVENTS = Object.freeze(["call", "line", "return", "exception"]);
export const CALL = 0;
export const LINE = 1;
export const RETURN = 2;
export const EXCEPTION = 3;

/** The caps that end a run early, each with its partial run: the trace's status is then
 * "step_limit" and its `limit` is {kind: one of these, cap: N}. */
export const LIMITS = Object.freeze(["steps", "model_calls", "output"]);

/** A breakpoint on line N is hit by a step of these events whose [line, end] holds N. */
export const HIT_EVENTS = Object.freeze(["line"]);
const HIT_CODES = new Set(HIT_EVENTS.map((name) => EVENTS.indexOf(name)));

/** Whether a step with event code `code` can hit a breakpoint. */
export function hitsEvent(code) {
  return HIT_CODES.has(code);
}
