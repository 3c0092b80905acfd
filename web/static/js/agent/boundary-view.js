// The subagent's boundary inside the conversation panel (model/boundary.js): the
// parent's conversation when the child started beside the child's own, the task that
// crossed in and, once the child returned at or before the cursor, what crossed out.
// The shared half (contract: "Workspace"): what the child changed in the shared folder and
// the permission gate's decisions of each side's tool calls, up to the cursor.

import { boundary, returned } from "../model/boundary.js";
import { changedBetween, decisionsBetween } from "../model/workspace.js";
import { el } from "../page/dom.js";

const END = -1; // stepping.js: the program ran to its end

function list(role, label) {
  const node = el("ul", { class: role === "gate" ? "gate-list" : "shared-files" });
  node.dataset.role = role;
  node.setAttribute("aria-label", label);
  return node;
}


export class BoundaryView {
  /** `trace`: the run (its `workspace` and `gate` keys, when it has them). */
  constructor(calls, messages, trace = {}) {
    this.calls = calls;
    this.messages = messages;
    this.workspace = trace.workspace ?? null;
    this.gate = trace.gate ?? null;
    this.k = null;
    this.node = el("section", { class: "boundary" });
    this.node.dataset.role = "boundary";
    this.node.setAttribute("aria-label", messages.get("boundary"));
    this.node.hidden = true;
    this.texts = [];
    this.gates = [];
    this.sides = ["parent", "child"].map((name) => {
      const side = el("div", { class: `boundary-side boundary-${name}` });
      side.dataset.side = name;
      const text = el("p", { class: "boundary-side-text" });
      this.texts.push(text);
      side.append(text);
      if (this.gate) {
        const gate = list("gate", `${messages.get("gate")} · ${name}`);
        this.gates.push(gate);
        side.append(el("p", { class: "crossed-head" }, messages.get("gate")), gate);
      }
      return side;
    });
    this.shared = this.workspace ? list("shared", messages.get("shared")) : null;
    const sharedBox = this.shared ? [el("p", { class: "crossed-head" }, messages.get("shared")), this.shared] : [];
    this.crossedIn = el("pre", { class: "crossed-text" });
    this.crossedIn.dataset.role = "crossed-in";
    this.crossedOut = el("pre", { class: "crossed-text" });
    this.crossedOut.dataset.role = "crossed-out";
    this.outBox = el("div", { class: "crossed" });
    this.outBox.append(el("p", { class: "crossed-head" }, messages.get("crossed_out")), this.crossedOut);
    const inBox = el("div", { class: "crossed" });
    inBox.append(el("p", { class: "crossed-head" }, messages.get("crossed_in")), this.crossedIn);
    this.node.append(el("h4", {}, messages.get("boundary")), ...this.sides, ...sharedBox, inBox);
  }

  /** Show the boundary of call `k` (-1 or an outermost call: none) at cursor `index`. */
  update(k, index) {
    if (k !== this.k) {
      this.k = k;
      this.sharedAt = undefined;
      this.shown = k >= 0 ? boundary(this.calls, k) : null;
      this.node.hidden = !this.shown;
      if (this.shown) this.fill(this.shown);
    }
    const out = returned(this.shown, index);
    if (out && !this.outBox.isConnected) this.node.append(this.outBox);
    else if (!out && this.outBox.isConnected) this.outBox.remove();
    if (this.shown && index !== this.sharedAt) this.fillShared(this.shown, index);
  }

  /** The shared half at cursor `index`: the child's changes to the folder, each side's
   * gate decisions (the parent's: its own calls so far; the child's: since it started). */
  fillShared(b, index) {
    this.sharedAt = index;
    const m = this.messages;
    const childEnd = b.returnedAt !== null && (index === END || index > b.returnedAt) ? b.returnedAt : index;
    if (this.shared) {
      const rows = changedBetween(this.workspace, b.depth, b.start, childEnd).map((row) => {
        const node = el("li", { class: `file-row file-${row.state}` }, `${row.path} · ${m.get(`file_${row.state}`)}`);
        node.dataset.file = row.path;
        node.dataset.state = row.state;
        node.dataset.depth = String(row.depth);
        return node;
      });
      this.shared.replaceChildren(...(rows.length ? rows : [el("li", { class: "none" }, m.get("shared_none"))]));
    }
    if (!this.gate) return;
    const sides = [
      decisionsBetween(this.gate, 0, index, (d) => d === b.parentDepth),
      decisionsBetween(this.gate, b.start, childEnd, (d) => d >= b.depth),
    ];
    sides.forEach((decisions, i) => {
      const rows = decisions.map((d) => {
        const node = el("li", {}, m.format("gate_item", {
          tool: d.tool ?? "?", decision: m.get(`decision_${d.decision}`), depth: d.depth,
        }));
        node.dataset.decision = d.decision;
        if (d.tool !== null) node.dataset.tool = d.tool;
        node.dataset.depth = String(d.depth);
        node.dataset.step = String(d.step);
        return node;
      });
      this.gates[i].replaceChildren(...(rows.length ? rows : [el("li", { class: "none" }, m.get("gate_none"))]));
    });
  }

  fill(b) {
    const m = this.messages;
    [b.parent, b.child].forEach((side, i) => {
      const node = this.sides[i];
      node.dataset.messages = String(side.messages);
      node.dataset.chars = String(side.chars);
      this.texts[i].textContent = m.plural(`boundary_${node.dataset.side}`, "messages", side);
    });
    this.crossedIn.textContent = b.crossedIn;
    this.crossedOut.textContent = b.crossedOut ?? "";
  }
}
