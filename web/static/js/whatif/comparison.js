// Two runs of one block side by side (contract: "Runs side by side"): the block's run
// (A, left) and the run chosen to compare (B, right), aligned statement by statement
// (align.js); the first divergence, with the locals that differ there; two cursors that
// move together: the block's cursor, and B's step aligned with it. Loaded when a run to
// compare is chosen. Data reaches the DOM through textContent only.

import { align, stepKeys, rowOf, stepAt, GAP } from "../model/align.js";
import { replay } from "../model/replay.js";
import { text as valueText } from "../model/values.js";
import { END } from "../model/stepping.js";
import { el } from "../page/dom.js";
import * as runs from "../page/block-runs.js";
import { folderAt } from "../model/workspace.js";
import { fileRow } from "../workspace/workspace-view.js";
import { fill as fillAnsi } from "../page/ansi.js";
import { SEL } from "../selectors.js";

const WINDOW = 12; // rows shown on each side of the cursor's row

export class Comparison {
  constructor(root, block, messages) {
    this.root = root;
    this.block = block;
    this.messages = messages;
    this.name = null;
    this.a = null;
    this.b = null;
    this.pinnedB = null; // {a, b}: B's step chosen by a click, while A stays at step a
    this.token = 0;
    root.addEventListener("click", (event) => {
      const target = event.target.closest(SEL.sideOrDivergence);
      if (target && root.contains(target)) this.pick(target);
    });
  }

  label(name) {
    if (name === this.block.config.customScenario) return this.messages.get("custom_scenario");
    if (name.startsWith("fork:")) return this.messages.format("fork_label", { call: name.slice(5) });
    return this.block.config.presets.find((p) => p.name === name)?.label ?? name;
  }

  /** The run on its way, if any, is not shown when it arrives. */
  cancel() {
    this.token++;
  }

  /** Compare the block's run with the run of scenario `name` (recorded when needed), or
   * with the run `load()` gives (a fork's: fork-editor.js). The run shown, or null. */
  async show(name, load = null) {
    const token = ++this.token;
    this.name = name;
    this.root.hidden = false;
    this.root.dataset.state = "recording";
    this.root.replaceChildren(el("p", { class: "comparison-note" }, this.messages.get("compare_loading")));
    try {
      if (!this.block.trace) await this.block.start("debug");
      const b = await (load ? load() : runs.traceOf(this.block, name));
      if (token !== this.token) return null;
      this.b = b;
      this.bReplay = replay(b);
      this.a = null;
      this.update();
      return b;
    } catch (error) {
      if (token !== this.token) return null;
      delete this.root.dataset.state;
      this.root.replaceChildren(el("p", { class: "comparison-note" },
        this.messages.format("compare_failed", { message: error.message })));
      return null;
    }
  }

  /** Follow the block: a new run of A re-aligns; a moved cursor moves B's. */
  update() {
    if (!this.b) return;
    const trace = this.block.trace;
    if (!trace) {
      this.a = null;
      this.root.replaceChildren(el("p", { class: "comparison-note" }, this.messages.get("comparison_hint")));
      return;
    }
    if (trace !== this.a) this.setRuns(trace);
    this.renderRows();
    this.root.dataset.state = "ready";
  }

  setRuns(a) {
    this.a = a;
    this.aReplay = this.block.replay ?? replay(a);
    this.rows = align(stepKeys(a), stepKeys(this.b));
    this.rowOfA = rowOf(this.rows.a, a.count);
    this.rowOfB = rowOf(this.rows.b, this.b.count);
    this.pinnedB = null;
    this.folders = null;
    const head = el("h3", { class: "comparison-title" },
      `${this.messages.get("comparison")}: ${this.label(this.block.scenario)} ↔ ${this.label(this.name)}`);
    this.table = el("table", { class: "comparison-rows" });
    const header = el("tr");
    header.append(el("th", {}, this.label(this.block.scenario)), el("th", {}, this.label(this.name)));
    const thead = el("thead");
    thead.append(header);
    this.body = el("tbody");
    this.table.append(thead, this.body);
    this.root.replaceChildren(head, ...this.divergenceParts(), this.table, this.outputs(),
      ...this.workspaces());
  }

  /** Each run's whole output (`output-a`, `output-b`): a fork that changes only a file
   * shows its effect here. */
  outputs() {
    const box = el("div", { class: "comparison-outputs" });
    for (const side of ["a", "b"]) {
      const part = el("section", { class: "comparison-output" });
      const pre = el("pre", { class: "output" });
      fillAnsi(pre, this[side].stdout ?? "");   // colour codes as styles, as the block's output
      pre.dataset.role = `output-${side}`;
      pre.tabIndex = 0;
      part.append(el("h4", {}, this.messages.get(`output_${side}`)), pre);
      box.append(part);
    }
    return box;
  }

  /** Each run's working folder at its cursor (`workspace-a`, `workspace-b`), when it has one. */
  workspaces() {
    if (!this.a.workspace && !this.b.workspace) return [];
    this.folders = ["a", "b"].map((side) => {
      const list = el("ul", { class: "workspace-files" });
      list.dataset.role = `workspace-${side}`;
      list.setAttribute("aria-label", `${this.messages.get("compare_workspace")} · ${this.messages.get(`compare_side_${side}`)}`);
      return list;
    });
    const box = el("div", { class: "comparison-workspaces" });
    box.append(...this.folders);
    return [el("h4", {}, this.messages.get("compare_workspace")), box];
  }

  renderFolders(a, b) {
    if (!this.folders) return;
    [[this.a, a], [this.b, b]].forEach(([trace, step], i) => {
      const at = step === null || step === undefined ? trace.count - 1 : step;
      const rows = trace.workspace ? folderAt(trace.workspace, at) : [];
      this.folders[i].replaceChildren(...rows.map((row) => fileRow(row, this.messages)));
    });
  }

  /** The divergence marker and the locals that differ there, or a note that there is none. */
  divergenceParts() {
    const k = this.rows.divergence;
    if (k < 0) return [el("p", { class: "comparison-same" }, this.messages.get("comparison_same"))];
    const next = (side, count) => {
      for (let r = k; r < this.rows.length; r++) if (side[r] !== GAP) return side[r];
      return count;
    };
    const stepA = next(this.rows.a, this.a.count);
    const stepB = next(this.rows.b, this.b.count);
    const line = (trace, step) => (step < trace.count ? String(trace.line(step)) : "");
    const marker = el("button", { class: "divergence" });
    marker.type = "button";
    marker.dataset.role = "divergence";
    Object.assign(marker.dataset, { stepA, stepB, lineA: line(this.a, stepA), lineB: line(this.b, stepB) });
    const end = this.messages.get("divergence_end");
    marker.textContent = this.messages.format("divergence", {
      stepA: stepA < this.a.count ? stepA + 1 : end, lineA: line(this.a, stepA) || end,
      stepB: stepB < this.b.count ? stepB + 1 : end, lineB: line(this.b, stepB) || end,
    });
    this.divergence = { row: k, stepA, stepB };
    return [marker, this.diffList(stepA, stepB)];
  }

  /**
   * Locals that differ at the divergence: compared in the frames at the shallower of
   * the two steps' depths (the deeper side's enclosing frame, as it was at that step).
   */
  diffList(stepA, stepB) {
    const box = el("div", { class: "comparison-diff" });
    box.dataset.role = "diff";
    box.append(el("h4", {}, this.messages.get("diff_title")));
    const at = (trace, step) => Math.min(step, trace.count - 1);
    let i = at(this.a, stepA);
    let j = at(this.b, stepB);
    if (i < 0 || j < 0) return box;
    const depth = Math.min(this.a.depth(i), this.b.depth(j));
    while (i > 0 && this.a.depth(i) > depth) i--;
    while (j > 0 && this.b.depth(j) > depth) j--;
    const la = this.aReplay.locals(i);
    const lb = this.bReplay.locals(j);
    const names = [...new Set([...la.keys(), ...lb.keys()])];
    const differing = names.filter((n) => JSON.stringify(la.get(n)) !== JSON.stringify(lb.get(n)));
    const unbound = this.messages.get("unbound");
    const shown = (map, n) => (map.has(n) ? valueText(map.get(n)) : unbound);
    const list = el("dl", { class: "diff-vars" });
    for (const name of differing) {
      const row = el("div", { class: "diff-var" });
      row.dataset.var = name;
      row.append(el("dt", { class: "var-name" }, name), el("dd", { class: "diff-a" }, shown(la, name)),
        el("dd", { class: "diff-b" }, shown(lb, name)));
      list.append(row);
    }
    if (differing.length) box.append(list);
    else box.append(el("p", {}, this.messages.get("diff_none")));
    return box;
  }

  /** The cursors' row: the block's step (its last when finished) and B's aligned step. */
  cursors() {
    const index = this.block.index;
    const aStep = index === null ? null : index === END ? this.a.count - 1 : index;
    if (aStep === null || aStep < 0) return { row: Math.max(0, this.rows.divergence), a: null, b: null };
    const row = this.rowOfA[aStep];
    const b = this.pinnedB?.a === aStep ? this.pinnedB.b : stepAt(this.rows.b, row);
    return { row, a: aStep, b };
  }

  renderRows() {
    const { row, a, b } = this.cursors();
    const from = Math.max(0, row - WINDOW);
    const to = Math.min(this.rows.length, row + WINDOW + 1);
    const rows = [];
    for (let k = from; k < to; k++) {
      const tr = el("tr");
      if (k === this.divergence?.row) tr.dataset.diverges = "true";
      tr.append(this.cell("a", this.rows.a[k], k, a), this.cell("b", this.rows.b[k], k, b));
      rows.push(tr);
    }
    this.body.replaceChildren(...rows);
    this.renderFolders(a, b);
  }

  cell(side, step, row, cursor) {
    const td = el("td");
    if (step === GAP) return td;
    const trace = side === "a" ? this.a : this.b;
    const line = trace.line(step);
    const source = this.block.root.querySelector(SEL.lineN(line))?.textContent ?? "";
    const button = el("button", { class: "comparison-step" });
    button.type = "button";
    Object.assign(button.dataset, { side, step, row, srcLine: line });
    button.title = this.messages.format("compare_step", {
      side: this.messages.get(`compare_side_${side}`), step: step + 1, line,
    });
    if (step === cursor) button.setAttribute("aria-current", "true");
    button.append(el("span", { class: "step-no" }, String(step + 1)), el("span", { class: "line-no" }, String(line)),
      el("code", { class: "step-src" }, source.trim()));
    td.append(button);
    return td;
  }

  /** A click on either side (or on the divergence): both cursors go to aligned steps. */
  pick(target) {
    let aStep;
    let bStep;
    if (target.dataset.role === "divergence") {
      aStep = Math.min(this.divergence.stepA, this.a.count - 1);
      bStep = Math.min(this.divergence.stepB, this.b.count - 1);
    } else {
      const row = Number(target.dataset.row);
      const step = Number(target.dataset.step);
      aStep = target.dataset.side === "a" ? step : stepAt(this.rows.a, row);
      bStep = target.dataset.side === "b" ? step : stepAt(this.rows.b, row);
    }
    if (aStep < 0) return;
    this.pinnedB = { a: aStep, b: bStep };
    this.block.moveTo(aStep);
    this.root.querySelector(SEL.currentSide(target.dataset.side ?? "a"))?.focus();
  }
}
