// A block's status in words (the contract's [data-role="status"]): what the state
// machine, the run and its failure say, in the page's language. Pure: no DOM.

/** The status text of `block` (its state, trace, cursor step, failure, messages). */
export function statusText(block) {
  const m = block.messages;
  const trace = block.trace;
  switch (block.state) {
    case "loading":
      return m.get("status_loading");
    case "running":
      return m.get(block.pending ? "status_waiting" : "status_running");
    case "paused":
      return pausedText(block) + threadText(block) + streamingText(block);
    case "finished":
      if (trace?.status === "step_limit") {
        return m.format(`status_${capKey(trace)}`, { steps: trace.count, cap: capText(trace) });
      }
      return m.get("status_finished");
    case "error":
      return errorText(block.failure, trace, m);
    default:
      return m.get("status_idle");
  }
}

function pausedText(block) {
  const m = block.messages;
  const trace = block.trace;
  if (trace?.status === "step_limit" && !trace.partial) {
    return m.format(`status_paused_${capKey(trace)}`, {
      line: block.currentStep.line, steps: trace.count, cap: capText(trace),
    });
  }
  if (block.stopNote?.kind === "first") {
    return m.format("status_paused_first", { line: block.currentStep.line });
  }
  if (block.stopNote?.kind === "hidden") {
    return m.format("status_paused_stepped_over", {
      line: block.currentStep.line, names: block.stopNote.names.join(", "),
    });
  }
  return m.format("status_paused", { line: block.currentStep.line });
}

/** " · replaying the rest of the run" while the block shows a long run's first steps. */
function streamingText(block) {
  return block.trace?.partial ? block.messages.format("status_streaming", { steps: block.trace.count }) : "";
}

/** " · thread NAME" in a run that started threads: the thread of the cursor's step
 * (where Continue stopped, whichever thread hit the breakpoint). */
function threadText(block) {
  const threads = block.trace?.threads;
  const step = block.currentStep;
  if (!step || !(threads?.length > 1)) return "";
  return block.messages.format("status_thread", { name: threads[step.thread ?? 0]?.name ?? "?" });
}

// The message of each cap that ends a run (model/events.js LIMITS): status_KEY and
// status_paused_KEY in messages.json.
export const CAP_KEYS = Object.freeze({
  steps: "step_limit", model_calls: "model_call_limit", output: "output_limit",
});

/** Which cap ended a cut-short run (the step cap when the trace does not say). */
function capKey(trace) {
  return CAP_KEYS[trace.limit?.kind] ?? "step_limit";
}

/** The cap's number as the status shows it ("1,000,000"). */
function capText(trace) {
  const cap = trace.limit?.cap;
  return typeof cap === "number" ? cap.toLocaleString("en-US") : cap;
}

/** Why a block is in error: the runtime, the worker, the setup or the program. */
export function errorText(failure, trace, m) {
  const f = failure;
  if (f?.kind === "runtime") return m.format("status_runtime_failed", { message: f.message });
  if (f?.kind === "timeout") return m.format("status_worker_restarted", { message: f.message });
  if (f?.kind === "fatal") return m.format("status_runtime_crashed", { message: f.message });
  if (f?.kind === "schedule-unsupported") return m.get("status_schedule_unsupported");
  if (f) return m.format("status_error_detail", { message: f.message });
  const se = trace?.setup_error;
  if (se) return m.format("status_setup_error", se);
  // a replay that could not go on (a divergence, no answer past a fork): its message
  if (trace?.status === "error" && trace.message) return m.format("status_error_detail", { message: trace.message });
  const e = trace?.error;
  if (e) return m.format("status_exception", { type: e.type, message: e.message, line: e.line });
  return m.get("status_error");
}
