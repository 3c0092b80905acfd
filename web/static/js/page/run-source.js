// Where the shown run came from, on the block (the contract's "Recorded runs"):
// `data-trace` "shipped" (the build's trace, web/shipped_traces.py) or "live" (recorded in
// this page), and `data-run-source` "scripted" (the setup answered the model calls) or
// "recorded" (a recording did: a preset's `recording` or a file loaded into the block).
// A recorded run's details (recording/recording-view.js) are imported with the first one.

import { SEL } from "../selectors.js";

const RECORDED_HOOKS = [SEL.recordingInfo, SEL.replayDivergence, SEL.actionNamed("download-recording")];

/** Whether `block`'s run is a guest's: code or answers that a link or a file brought —
 * the custom setup, a fork shown against the run, a recording file loaded (a live run's
 * recording is not one). `loopstep:finish` carries no output of such a run. */
export function guestRun(block) {
  return block.scenario === block.config.customScenario || Boolean(block.urlFork)
    || Boolean(block.recording && !block.recording.live);
}

/** Show where `trace` (null: no run shown) came from on `block`. */
export function showSource(block, trace) {
  const data = block.root.dataset;
  if (trace?.madeBy) data.trace = trace.madeBy;
  else delete data.trace;
  if (trace) data.runSource = !trace.replay ? "scripted" : block.recording?.live ? "live" : "recorded";
  else delete data.runSource;
  if (trace?.replay?.tolerant) data.replay = "tolerant"; // went on past differences
  else delete data.replay;
  if (trace?.replay) {
    import("../recording/recording-view.js").then(({ showRecorded }) => {
      if (block.trace === trace) showRecorded(block, trace);
    });
    return;
  }
  for (const selector of RECORDED_HOOKS) {
    const node = block.root.querySelector(selector);
    if (node) node.hidden = true;
  }
}
