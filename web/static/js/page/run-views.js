// The views a shown run brings, each loaded on first use and replaced with the run: the
// agent views (agent/agent-view.js) of a run with model calls, the workspace panel
// (workspace/workspace-view.js) of a run with a working folder, the threads pane
// (threads/threads-view.js) of a run that started threads. They move the block's
// cursor through `block.goTo(step)` only. Their modules are asked for once the frame
// with the run's first cursor is painted (dom.js afterPaint).

import { afterPaint } from "./dom.js";
import { END } from "../model/stepping.js";

// a run that started a thread or a task (model/threads.js `threaded`; not imported: the
// first frame's code)
const threaded = (trace) => (trace?.threads?.length ?? 0) > 1;

/** Attach (or drop) the views of `trace`, the run `block` shows now. */
export function attachViews(block, trace) {
  attachAgent(block, trace);
  attachWorkspace(block, trace);
  attachThreads(block, trace);
}

/**
 * `data-drawn` on the block's root: the step its panes show (`end` once the run ended),
 * set when that step is drawn with every view its run brings (the agent views, the
 * workspace panel, the omniscient views: each loaded on first use, then the block drawn
 * again); absent while no run is shown or one of them is still on its way. A change of
 * step draws everything at once: what waits for `data-drawn` to name a step reads that
 * step whole (the browser tests do).
 */
export function markDrawn(block, at) {
  const trace = block.trace;
  const drawn = at !== null && trace && block.omni.views
    && (!trace.agent?.calls?.length || block.agent?.trace === trace)
    && (!trace.workspace || block.workspace?.trace === trace)
    && (!threaded(trace) || block.threads?.trace === trace);
  if (drawn) block.root.dataset.drawn = at === END ? "end" : String(at);
  else delete block.root.dataset.drawn;
}

function attachAgent(block, trace) {
  if (block.agent && block.agent.trace !== trace) {
    block.agent.detach();
    block.agent = null;
  }
  if (!trace?.agent?.calls?.length || block.agent) return;
  afterPaint(() => import("../agent/agent-view.js")).then(({ AgentView }) => {
    if (block.trace !== trace || block.agent) return;
    block.agent = new AgentView(block.root, trace, block.messages, (step) => block.goTo(step), block);
    block.render();
  });
}

function attachWorkspace(block, trace) {
  if (!trace?.workspace || block.workspace?.trace === trace) return;
  afterPaint(() => import("../workspace/workspace-view.js")).then(({ WorkspaceView }) => {
    if (block.trace !== trace || block.workspace?.trace === trace) return;
    block.workspace?.detach();
    block.workspace = new WorkspaceView(block.root, trace, block.messages, (step) => block.goTo(step));
    block.render();
  });
}

function attachThreads(block, trace) {
  if (block.threads && block.threads.trace !== trace) {
    block.threads.detach();
    block.threads = null;
  }
  if (!threaded(trace) || block.threads) return;
  afterPaint(() => import("../threads/threads-view.js")).then(({ ThreadsView }) => {
    if (block.trace !== trace || block.threads) return;
    block.threads = new ThreadsView(block, trace);
    block.render();
  });
}
