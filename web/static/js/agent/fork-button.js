// The fork buttons of the conversation panel (docs/design.md, "Forks"): one on the
// response of model call K (`data-call="model:K"`), one on the result of the K-th tool
// call (`data-call="tool:K"`). A press opens the block's fork editor (whatif/fork-editor.js,
// loaded on first use). Buttons inside message nodes may be clones: the pane listens once.

import { el } from "../page/dom.js";
import { SEL } from "../selectors.js";

/** The fork button of `call` ("model:K" / "tool:K"). */
export function forkButton(call, messages) {
  const [kind, k] = call.split(":");
  const button = el("button", { class: "fork-button" }, messages.get("fork"));
  button.type = "button";
  button.dataset.action = "fork";
  button.dataset.call = call;
  const label = `${messages.get("fork")} · ${messages.format(kind === "model" ? "fork_call_model" : "fork_call_tool", { k })}`;
  button.title = label;
  button.setAttribute("aria-label", label);
  return button;
}

/** The K (1-based) of the tool call that answered each tool_use id: the call recorded
 * with that id, else (a handler called with the input alone records no id) the first
 * call not yet paired with the same tool name and input, in the order the uses appear. */
export function toolNumbers(tools, pool) {
  const numbers = new Map();
  const taken = new Set();
  tools.forEach((tool, k) => {
    if (tool.id !== null && tool.id !== undefined && !numbers.has(tool.id)) {
      numbers.set(tool.id, k + 1);
      taken.add(k);
    }
  });
  for (const [, content] of pool) {
    if (typeof content === "string") continue;
    for (const part of content) {
      if (!Array.isArray(part) || part[0] !== "tool_use" || numbers.has(part[1])) continue;
      const input = JSON.stringify(part[3]);
      const k = tools.findIndex((t, j) => !taken.has(j) && t.name === part[2] && JSON.stringify(t.input) === input);
      if (k < 0) continue;
      numbers.set(part[1], k + 1);
      taken.add(k);
    }
  }
  return numbers;
}

/** Presses on the fork buttons inside `pane` open the fork editor of `block`. */
export function wireForks(pane, block) {
  pane.addEventListener("click", (event) => {
    const button = event.target.closest(SEL.forkButton);
    if (!button || !pane.contains(button)) return;
    block.loadWhatIf().then((whatif) => whatif.openFork(button.dataset.call));
  });
}
