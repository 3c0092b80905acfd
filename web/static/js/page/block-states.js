// A debugger block's states and the actions between them (docs/design.md, "Page state"),
// and which toolbar command applies in which state: block.js changes its state only
// through these actions.

import { END, applies } from "../model/stepping.js";

export const STEP_COMMANDS = ["continue", "step-over", "step-into", "step-out", "step-back"];
export const CALL_COMMANDS = ["prev-call", "next-call"]; // shown for runs with model calls
export const WHATIF_COMMANDS = ["edit-setup", "run-custom"]; // handled by whatif.js, loaded on first use
export const COMMANDS = ["debug", "run", ...STEP_COMMANDS, "reset", ...CALL_COMMANDS, ...WHATIF_COMMANDS];
export const RESTING = ["paused", "finished", "error"]; // a run is shown and the cursor rests

// action → states it may start from → resulting state (null: keep the state).
export const ACTIONS = {
  runtimeLoading: { idle: "loading", ready: "loading" },
  runtimeReady: { idle: "ready", loading: "ready" },
  runtimeFailed: { idle: "error", loading: "error", ready: "error" },
  record: { idle: "running", loading: "running", ready: "running", paused: "running",
    finished: "running", error: "running" },
  pause: { running: "paused", paused: "paused", finished: "paused", error: "paused", ready: "paused" },
  finish: { running: "finished", paused: "finished" },
  raise: { running: "error", paused: "error" },
  fail: { running: "error", paused: "error" },
  reset: { ready: "ready", paused: "ready", finished: "ready", error: "ready" },
  release: { paused: "ready" },
  // A scenario switch while a run is being recorded: back to the runtime's state.
  abandonReady: { running: "ready" },
  abandonLoading: { running: "loading" },
};

/** Whether a toolbar command applies now to `block`: the one rule behind its command()
 * and its buttons. */
export function allows(block, name) {
  const runtimeFailed = block.failure?.kind === "runtime";
  if (name === "debug" || name === "run") return !runtimeFailed && block.state !== "running";
  if (name === "edit-setup") return !runtimeFailed && !["idle", "loading"].includes(block.state);
  if (name === "run-custom") {
    return !runtimeFailed && block.state !== "running" && Boolean(block.whatif?.editorOpen);
  }
  if (name === "reset") {
    return !runtimeFailed
      && (block.state === "error" || (block.trace !== null && RESTING.includes(block.state)));
  }
  if (CALL_COMMANDS.includes(name)) {
    return RESTING.includes(block.state) && block.index !== null
      && (block.agent?.target(name, block.index) ?? null) !== null;
  }
  if (!STEP_COMMANDS.includes(name) || !block.trace || block.index === null) return false;
  const resting = block.state === "paused"
    || (name === "step-back" && block.index === END && RESTING.includes(block.state));
  return resting && applies(block.trace, block.index, name);
}
