// The subagent's boundary inside the conversation panel (model/boundary.js): the
// parent's conversation when the child started beside the child's own, the task that
// crossed in and, once the child returned at or before the cursor, what crossed out.

import { boundary, returned } from "../model/boundary.js";
import { el } from "../page/dom.js";


export class BoundaryView {
  constructor(calls, messages) {
    this.calls = calls;
    this.messages = messages;
    this.k = null;
    this.node = el("section", { class: "boundary" });
    this.node.dataset.role = "boundary";
    this.node.setAttribute("aria-label", messages.get("boundary"));
    this.node.hidden = true;
    this.sides = ["parent", "child"].map((name) => {
      const side = el("p", { class: `boundary-side boundary-${name}` });
      side.dataset.side = name;
      return side;
    });
    this.crossedIn = el("pre", { class: "crossed-text" });
    this.crossedIn.dataset.role = "crossed-in";
    this.crossedOut = el("pre", { class: "crossed-text" });
    this.crossedOut.dataset.role = "crossed-out";
    this.outBox = el("div", { class: "crossed" });
    this.outBox.append(el("p", { class: "crossed-head" }, messages.get("crossed_out")), this.crossedOut);
    const inBox = el("div", { class: "crossed" });
    inBox.append(el("p", { class: "crossed-head" }, messages.get("crossed_in")), this.crossedIn);
    this.node.append(el("h4", {}, messages.get("boundary")), ...this.sides, inBox);
  }

  /** Show the boundary of call `k` (-1 or an outermost call: none) at cursor `index`. */
  update(k, index) {
    if (k !== this.k) {
      this.k = k;
      this.shown = k >= 0 ? boundary(this.calls, k) : null;
      this.node.hidden = !this.shown;
      if (this.shown) this.fill(this.shown);
    }
    const out = returned(this.shown, index);
    if (out && !this.outBox.isConnected) this.node.append(this.outBox);
    else if (!out && this.outBox.isConnected) this.outBox.remove();
  }

  fill(b) {
    const m = this.messages;
    [b.parent, b.child].forEach((side, i) => {
      const node = this.sides[i];
      node.dataset.messages = String(side.messages);
      node.dataset.chars = String(side.chars);
      node.textContent = m.plural(`boundary_${node.dataset.side}`, "messages", side);
    });
    this.crossedIn.textContent = b.crossedIn;
    this.crossedOut.textContent = b.crossedOut ?? "";
  }
}
