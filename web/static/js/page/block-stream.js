// A long run's first steps, shown while the rest of it is recorded (docs/recordings.md,
// "A long run streams"): the block steps them as any run's, and the whole run takes their
// place when it arrives, the cursor kept where the reader left it. A command that would
// run past the last step shown waits, the block running, and goes on in the whole run.
// The block's `pending` says what the whole run is to do: {command, from, at} — the
// command, the step it started from (END: the run's start), the step the cursor then
// rested on — or null.

import { END, step as nextIndex, settle } from "../model/stepping.js";

/** Show `first` (a trace whose `partial` is set) in `block`, as a recording file's run
 * starts (Debug: the first breakpoint among its steps, else its first step while the
 * whole run decides). False when the block cannot start a run now. */
export function showFirst(block, first) {
  if (!block.act("record")) return false;
  block.showRun(first);
  const to = nextIndex(first, END, "debug", block.breakpoints, block.events.stops);
  const at = to === END ? settle(first, 0) : to;
  block.pending = to === END ? { command: "debug", from: END, at } : null;
  block.moveTo(at);
  return true;
}

/** Whether `block` shows a run's first steps only. */
function streaming(block) {
  return Boolean(block.trace?.partial);
}

/** A command whose move (`to`) runs past the steps shown: it waits for the whole run. */
export function waits(block, name, to) {
  if (!streaming(block) || to !== END || !block.act("record")) return false;
  block.pending = { command: name, from: block.index, at: block.index };
  block.render();
  return true;
}

/** The whole run `whole`, in place of `first` if the block still shows it: the cursor
 * stays, or the command that waited (or the start's, while the cursor has not moved)
 * goes on in it. False when the block has gone on to something else. */
export function showWhole(block, first, whole) {
  if (block.trace !== first) return false;
  const pending = block.pending;
  const waiting = block.state === "running";
  const at = block.index;
  block.pending = null;
  block.showRun(whole);
  if (pending && (waiting || at === pending.at)) {
    block.moveTo(nextIndex(whole, pending.from, pending.command, block.breakpoints, block.events.stops));
  } else {
    block.render();
    block.onChange(block);
  }
  return true;
}
