// The views a shown run brings, each loaded on first use and replaced with the run: the
// agent views (agent/agent-view.js) of a run with model calls, the workspace panel
// (workspace/workspace-view.js) of a run with a working folder. They move the block's
// cursor through `block.goTo(step)` only. Their modules are asked for once the frame
// with the run's first cursor is painted (dom.js afterPaint).

import { afterPaint } from "./dom.js";

/** Attach (or drop) the views of `trace`, the run `block` shows now. */
export function attachViews(block, trace) {
  attachAgent(block, trace);
  attachWorkspace(block, trace);
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
