// Omniscient views of one block: breakpoint details, watches, the log lane and value
// histories (docs/design.md, "Questions and answers"). This part is on the critical
// path and small: it adds the watch and log panes, takes the reader's input to the
// block's actions and marks the gutters; the views themselves (omni-views.js) and the
// breakpoint editor (breakpoint-editor.js) are imported on first use.

import { cleanSpec } from "../model/questions.js";
import { afterPaint, el } from "../page/dom.js";
import { SEL } from "../selectors.js";

const views = () => afterPaint(() => import("./omni-views.js")); // after the cursor's frame
const editor = () => import("./breakpoint-editor.js");

export class Omni {
  constructor(block) {
    this.block = block;
    this.root = block.root;
    this.views = null;
    this.viewsLoading = null; // omni-views.js asked for once, after the cursor's frame
    this.history = null; // {frame, name} of the open history
    this.build();
    this.wire();
  }

  build() {
    const m = this.block.messages;
    const panes = this.root.querySelector(SEL.panes);
    const id = this.root.id || this.block.name;
    // named with their block, like every other region of a block: unique on the page
    const watchPane = el("section", { class: "pane watch-pane", role: "group",
      "aria-label": `${m.get("watches")} · ${this.block.name}` });
    const form = el("form", { "data-role": "watch", class: "watch-form" });
    const input = el("input", { name: "expression", type: "text", autocomplete: "off",
      spellcheck: "false", id: `${id}-watch-input`, placeholder: "len(history)" });
    form.append(el("label", { for: `${id}-watch-input`, class: "watch-label" }, m.get("watch_add_label")),
      input, el("button", { type: "submit" }, m.get("watch_add")));
    watchPane.append(el("h3", { id: `${id}-watches` }, m.get("watches")), form,
      el("ul", { "data-role": "watches", class: "watches" }));
    const logPane = el("section", { class: "pane log-pane", role: "group",
      "aria-label": `${m.get("log_lane")} · ${this.block.name}` });
    logPane.append(el("h3", { id: `${id}-log` }, m.get("log_lane")),
      el("ol", { "data-role": "log", class: "log", "aria-live": "off" }));
    const errors = el("div", { "data-role": "breakpoint-errors", class: "bp-errors" });
    this.root.querySelector(SEL.code)?.after(errors);
    panes?.append(watchPane, logPane);
  }

  wire() {
    const root = this.root;
    root.addEventListener("contextmenu", (event) => {
      const gutter = event.target.closest?.("button[data-gutter]");
      if (!gutter || !root.contains(gutter)) return;
      event.preventDefault();
      this.openEditor(Number(gutter.dataset.gutter));
    });
    root.addEventListener("keydown", (event) => {
      const gutter = event.target.closest?.("button[data-gutter]");
      if (!gutter || event.key !== "Enter" || !event.shiftKey) return;
      event.preventDefault();
      this.openEditor(Number(gutter.dataset.gutter));
    });
    root.addEventListener("submit", (event) => {
      const form = event.target;
      if (form.dataset?.role !== "watch") return;
      event.preventDefault();
      const input = form.elements.expression;
      if (this.block.addWatch(input.value)) input.value = "";
      else this.render(); // a watch past the cap: the note says so
    });
    root.addEventListener("click", (event) => {
      const target = event.target.closest?.("[data-change], button[data-action='history'], button[data-unwatch]");
      if (!target || !root.contains(target)) return;
      if (target.dataset.unwatch !== undefined) {
        this.block.removeWatch(target.dataset.unwatch);
      } else if (target.dataset.change !== undefined) {
        this.block.seek(Number(target.dataset.step));
      } else {
        event.preventDefault(); // inside a <summary>: open the history, not the tree
        const row = target.closest(SEL.variable);
        this.openHistory(row.dataset.var);
      }
    });
  }

  async openEditor(line) {
    const { openEditor } = await editor();
    openEditor(this, line);
  }

  /** The reader saved the editor's fields for `line` (texts as typed). Throws on a bad hit count. */
  saveBreakpoint(line, fields) {
    this.block.setBreakpointDetails(line, cleanSpec(fields));
  }

  removeBreakpoint(line) {
    this.block.removeBreakpoint(line);
  }

  openHistory(name) {
    const i = this.block.index;
    if (!this.block.trace || i === null) return;
    const t = this.block.trace;
    this.history = { frame: t.frame(i < 0 ? t.count - 1 : i), name };
    this.render();
  }

  closeHistory() {
    this.history = null;
    this.render();
  }

  render() {
    const block = this.block;
    for (const button of this.root.querySelectorAll(SEL.gutter)) {
      const spec = block.questions.spec(Number(button.dataset.gutter));
      const on = spec && block.breakpoints.has(Number(button.dataset.gutter));
      setData(button, "condition", on ? spec.condition : undefined);
      setData(button, "hits", on ? spec.hits : undefined);
      setData(button, "log", on ? spec.log : undefined);
      button.setAttribute("aria-keyshortcuts", "Shift+Enter"); // opens the breakpoint editor
    }
    if (!block.trace) this.history = null;
    if (this.views) this.views.render(this);
    else if (block.trace || block.questions.watches.length) {
      this.viewsLoading ??= views().then((module) => {
        this.views = module;
        this.block.render(); // these views, and the block's data-drawn (run-views.js)
      });
    }
  }
}

function setData(node, name, value) {
  if (value === undefined || value === null) delete node.dataset[name];
  else node.dataset[name] = String(value);
}
