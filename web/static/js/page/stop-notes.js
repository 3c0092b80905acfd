// Why the cursor stopped where it did, where a reader would not guess it: Debug with no
// breakpoint pauses at the block's first line (as Thonny does); Step into over a call of a
// function the block does not show (a setup's `ask`, another module's `run_loop`) runs it
// as one step. Pure: no DOM. The block's status says the note (block-status.js).

import { END } from "../model/stepping.js";
import { LINE } from "../model/events.js";

/** The note of a Debug that found no breakpoint to stop at: it paused at the first line. */
export const FIRST_LINE = Object.freeze({ kind: "first" });

/** Whether the block has no line breakpoint and no event breakpoint (`eventKeys`: the
 * event breakpoints' keys, known before any trace is). */
export function noStops(breakpoints, eventKeys) {
  return breakpoints.size === 0 && !(eventKeys?.length > 0);
}

/**
 * The note of a Step into from step `from` to `to` that did not enter a call: the names
 * the statement at `from` calls that the block does not show (`hiddenCalls`: {line:
 * [name]}, the page config's), or null when it entered one or called none.
 */
export function steppedOver(trace, from, to, hiddenCalls) {
  if (!trace || from === null || from === END || from < 0) return null;
  if (trace.eventCode(from) !== LINE) return null;
  if (to !== END && to !== null && to >= 0 && trace.depth(to) > trace.depth(from)) return null;
  const names = [];
  for (let line = trace.line(from); line <= trace.end(from); line++) {
    for (const name of hiddenCalls?.[line] ?? []) if (!names.includes(name)) names.push(name);
  }
  return names.length ? { kind: "hidden", names } : null;
}
