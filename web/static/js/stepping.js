// Stepping: from a step index, a command and the breakpoints to the next index.
//
// Pure: no DOM, no state. `trace.steps` is the recorded list of statements
// (docs/design.md, trace format 1). An index is a position in that list; END (-1)
// means the program ran to its end. `breakpoints` is any iterable of 1-based
// line numbers within the displayed function.
//
// The cursor only lands on "line", "return" and "exception" steps: a "call" step
// describes the same place as the first line of the new frame.
//
// A breakpoint is hit by a "line" step whose [line, end] range contains it.
// While leaving a statement (continue, step over, step out), breakpoints on that
// statement's own lines do not fire again inside the calls it makes (a lambda
// written on the breakpoint line, for example); they fire again once control is
// back at the statement's depth or above.

export const END = -1;

export const COMMANDS = Object.freeze([
  "debug", "run", "continue", "step-over", "step-into", "step-out", "step-back",
]);

/** Whether the cursor may rest on step `s`. */
export function stoppable(s) {
  return s.event !== "call";
}

function endLine(s) {
  return s.end ?? s.line;
}

/** Breakpoint lines (sorted numbers) that step `s` hits. */
function linesHit(s, bps) {
  if (s.event !== "line") return [];
  const last = endLine(s);
  return bps.filter((b) => b >= s.line && b <= last);
}

/** Whether step `s` hits one of the breakpoints. */
export function isHit(s, breakpoints) {
  return linesHit(s, normalize(breakpoints)).length > 0;
}

function normalize(breakpoints) {
  const out = [];
  for (const b of breakpoints ?? []) {
    const n = Number(b);
    if (Number.isInteger(n) && n > 0) out.push(n);
  }
  return out.sort((a, b) => a - b);
}

/** Whether step `s` (after `origin`) counts as a breakpoint hit. */
function hitsAfter(origin, s, bps) {
  const lines = linesHit(s, bps);
  if (lines.length === 0) return false;
  if (!origin || s.depth <= origin.depth) return true;
  const last = endLine(origin);
  return lines.some((b) => b < origin.line || b > last);
}

function firstHit(steps, bps) {
  for (let j = 0; j < steps.length; j++) {
    if (hitsAfter(null, steps[j], bps)) return j;
  }
  return END;
}

function forward(steps, index, bps, stopsAt) {
  const origin = steps[index];
  for (let j = index + 1; j < steps.length; j++) {
    const s = steps[j];
    if (hitsAfter(origin, s, bps)) return j;
    if (stoppable(s) && stopsAt(s)) return j;
  }
  return END;
}

function lastStoppable(steps, before) {
  for (let j = before - 1; j >= 0; j--) {
    if (stoppable(steps[j])) return j;
  }
  return END;
}

function stepBack(steps, index) {
  if (index === END) return lastStoppable(steps, steps.length);
  const depth = steps[index].depth;
  for (let j = index - 1; j >= 0; j--) {
    const s = steps[j];
    if (stoppable(s) && s.depth <= depth) return j;
  }
  return index;
}

/**
 * The index after applying `command` at `index` (END when the program ends).
 * `debug` and `run` start from the beginning; `step-back` at the first step
 * stays there; any command but `debug`/`run`/`step-back` from END stays at END.
 */
export function step(trace, index, command, breakpoints) {
  const steps = trace?.steps ?? [];
  const bps = normalize(breakpoints);
  switch (command) {
    case "run":
      return END;
    case "debug":
      return firstHit(steps, bps);
    case "step-back":
      return steps.length ? stepBack(steps, index) : END;
    default:
      break;
  }
  if (index === END || index < 0 || index >= steps.length) return END;
  const here = steps[index];
  switch (command) {
    case "continue":
      return forward(steps, index, bps, () => false);
    case "step-into":
      return forward(steps, index, bps, () => true);
    case "step-over":
      return forward(steps, index, bps, (s) => s.depth <= here.depth);
    case "step-out": {
      const leaving = here.event === "return";
      return forward(steps, index, bps, (s) => s.depth < here.depth
        || (!leaving && s.event === "return" && s.frame === here.frame));
    }
    default:
      throw new Error(`unknown command: ${command}`);
  }
}

/** Whether `command` can move the cursor from `index` (for enabling buttons). */
export function applies(trace, index, command) {
  const steps = trace?.steps ?? [];
  if (command === "debug" || command === "run") return true;
  if (command === "step-back") {
    if (!steps.length) return false;
    return index === END ? lastStoppable(steps, steps.length) !== END
      : stepBack(steps, index) !== index;
  }
  return index !== END && index >= 0 && index < steps.length;
}

/** Indices of all steps that hit a breakpoint (for the timeline's ticks). */
export function hitIndices(trace, breakpoints) {
  const steps = trace?.steps ?? [];
  const bps = normalize(breakpoints);
  const out = [];
  if (!bps.length) return out;
  for (let j = 0; j < steps.length; j++) {
    if (linesHit(steps[j], bps).length) out.push(j);
  }
  return out;
}

/** The nearest stoppable step at or before `index` (for the timeline slider). */
export function settle(trace, index) {
  const steps = trace?.steps ?? [];
  if (!steps.length) return END;
  const i = Math.max(0, Math.min(index, steps.length - 1));
  if (stoppable(steps[i])) return i;
  for (let j = i + 1; j < steps.length; j++) if (stoppable(steps[j])) return j;
  return lastStoppable(steps, i);
}
