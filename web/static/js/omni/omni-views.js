// The omniscient views drawn at each render of a block (imported on first use by omni.js).

import { renderWatches, renderLog, renderErrors } from "./watch-panel.js";
import { decorateVariables, renderHistory } from "./history-view.js";

export function render(omni) {
  const block = omni.block;
  renderWatches(block);
  renderLog(block);
  renderErrors(block);
  decorateVariables(block);
  renderHistory(omni);
}
