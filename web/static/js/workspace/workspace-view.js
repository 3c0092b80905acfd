// The workspace panel of a block whose run has a working folder (contract: "Workspace"):
// one row per file at the cursor, its state against the run's start and the depth of the
// code that last wrote it; "origin" moves the cursor to that write, "open" shows the
// file's content at the cursor. Loaded when such a trace arrives; text reaches the DOM
// through textContent only.

import { folderAt } from "../model/workspace.js";
import { el } from "../page/dom.js";
import { loadStyle } from "../page/style.js";
import { SEL } from "../selectors.js";

/** One file row (also used by the boundary and the comparison): `[data-file][data-state]`,
 * `data-depth` when a write is known. */
export function fileRow(row, messages, tag = "li") {
  const node = el(tag, { class: `file-row file-${row.state}` });
  node.dataset.file = row.path;
  node.dataset.state = row.state;
  if (row.depth !== undefined && row.depth !== null) node.dataset.depth = String(row.depth);
  node.append(el("code", { class: "file-path" }, row.path),
    el("span", { class: "file-state" }, messages.get(`file_${row.state}`)));
  if (row.depth !== undefined && row.depth !== null) {
    node.append(el("span", { class: "file-depth" }, messages.format("file_depth", { depth: row.depth })));
  }
  return node;
}

/** The text `[data-role="file-view"]` shows for a FILE ({size, text, cut} | {size, binary}). */
export function fileText(file, messages) {
  if (file === null) return { body: "", note: messages.get("file_view_deleted") };
  if (file.binary) return { body: "", note: messages.format("file_view_binary", { size: file.size }) };
  const note = file.cut ? messages.format("file_view_cut", { size: file.size }) : "";
  return { body: file.text, note };
}

export class WorkspaceView {
  /** `go(step)` moves the block's cursor. */
  constructor(root, trace, messages, go) {
    this.root = root;
    this.trace = trace;
    this.messages = messages;
    this.go = go;
    this.index = undefined;
    this.opened = null; // the path shown in the file view
    loadStyle("workspace");
    const m = messages;
    this.pane = el("section", { class: "pane workspace-pane" });
    this.pane.append(el("h3", {}, m.get("workspace")), el("p", { class: "workspace-hint" }, m.get("workspace_hint")));
    this.list = el("ul", { class: "workspace-files" });
    this.list.dataset.role = "workspace";
    this.list.setAttribute("aria-label", m.get("workspace"));
    this.view = el("section", { class: "file-view" });
    this.view.dataset.role = "file-view";
    this.view.hidden = true;
    this.viewHead = el("h4", { class: "file-view-head" });
    this.viewNote = el("p", { class: "file-view-note" });
    this.viewBody = el("pre", { class: "file-view-body" });
    this.viewBody.tabIndex = 0;
    const close = el("button", { class: "file-view-close" }, m.get("file_view_close"));
    close.type = "button";
    close.addEventListener("click", () => {
      this.opened = null;
      this.view.hidden = true;
    });
    this.view.append(this.viewHead, this.viewNote, this.viewBody, close);
    this.pane.append(this.list, this.view);
    this.pane.addEventListener("click", (event) => this.click(event));
    root.querySelector(SEL.panes).append(this.pane);
  }

  detach() {
    this.pane.remove();
  }

  click(event) {
    const button = event.target.closest("button[data-action]");
    const row = button?.closest("[data-file]");
    if (!row || !this.list.contains(row)) return;
    event.stopPropagation(); // not a toolbar command
    const found = this.rows.find((r) => r.path === row.dataset.file);
    if (!found) return;
    if (button.dataset.action === "file-origin" && found.step !== undefined) {
      this.go(found.step);   // the rows are drawn again: keep the focus on this row's button
      this.list.querySelector(`[data-file="${CSS.escape(found.path)}"] button[data-action="file-origin"]`)?.focus();
    }
    if (button.dataset.action === "open-file") {
      this.opened = found.path;
      this.showFile();
      this.viewBody.focus();
    }
  }

  /** Show the folder at cursor `index` (null: no run shown; the panel is then empty). */
  render(index) {
    if (index === this.index) return;
    this.index = index;
    const m = this.messages;
    this.rows = index === null ? [] : folderAt(this.trace.workspace, index);
    this.list.replaceChildren(...this.rows.map((row) => {
      const node = fileRow(row, m);
      const origin = el("button", { class: "file-button" }, m.get("file_origin"));
      origin.type = "button";
      origin.dataset.action = "file-origin";
      origin.disabled = row.step === undefined;
      origin.setAttribute("aria-label", m.format("file_origin_label", { path: row.path }));
      const open = el("button", { class: "file-button" }, m.get("open_file"));
      open.type = "button";
      open.dataset.action = "open-file";
      open.setAttribute("aria-label", m.format("open_file_label", { path: row.path }));
      node.append(origin, open);
      return node;
    }));
    if (!this.rows.length) this.list.append(el("li", { class: "workspace-empty" }, m.get("workspace_empty")));
    this.showFile();
  }

  showFile() {
    const row = this.opened === null ? null : this.rows.find((r) => r.path === this.opened);
    if (!row) {
      this.view.hidden = true;
      return;
    }
    const { body, note } = fileText(row.file, this.messages);
    this.view.dataset.file = row.path;
    this.viewHead.textContent = row.path;
    this.viewNote.textContent = note;
    this.viewNote.hidden = !note;
    this.viewBody.textContent = body;
    this.view.hidden = false;
  }
}
