// Value history in the page: a history button and "changed at step N" on each
// variable row, and the open history as a virtualised list (only the rows in view
// are in the DOM, so a value that changed 100,000 times opens at once).

import { history, changedAt } from "../model/history.js";
import { shownStep } from "./watch-panel.js";
import { text } from "../model/values.js";
import { el } from "../page/dom.js";
import { SEL } from "../selectors.js";

const ROW_PX = 28;   // matches .history-row's height in loopstep.css
const VIEW_ROWS = 12; // rows visible without scrolling
const SPARE = 6;     // rows drawn beyond each edge of the view

/** History buttons and "changed at step N" on the variables pane's rows. */
export function decorateVariables(block) {
  const at = shownStep(block);
  if (at === null) return;
  const t = block.trace;
  const i = at < 0 ? t.count - 1 : at;
  const frame = t.frame(i);
  const m = block.messages;
  for (const row of block.root.querySelectorAll(`${SEL.variables} ${SEL.variable}`)) {
    const name = row.dataset.var;
    // a plain row's line, or the row itself beside a value tree: never inside its <summary>
    const line = row.querySelector(SEL.varLine) ?? row;
    if (line.querySelector(SEL.actionNamed("history"))) continue;
    const h = history(t, block.replay, frame, name);
    const k = changedAt(h, i);
    if (k >= 0) {
      const note = el("span", { class: "changed-at" }, m.format("changed_at", { step: h.steps[k] + 1 }));
      note.dataset.role = "changed-at";
      line.append(note);
    }
    const button = el("button", { class: "history-button" }, m.get("history"));
    button.type = "button";
    button.dataset.action = "history";
    button.setAttribute("aria-label", m.format("history_of", { name }));
    line.append(button);
  }
}

/** The open history (omni.history), or none. */
export function renderHistory(omni) {
  const block = omni.block;
  let panel = block.root.querySelector(SEL.history);
  const open = omni.history;
  if (!open || !block.trace) {
    panel?.remove();
    return;
  }
  const h = history(block.trace, block.replay, open.frame, open.name);
  if (!panel || panel.dataset.var !== open.name || panel.historyData !== h) {
    panel?.remove();
    panel = buildPanel(omni, h);
    block.root.querySelector(SEL.variables)?.after(panel);
  }
  const at = shownStep(block);
  const current = at === null ? -1 : changedAt(h, at < 0 ? block.trace.count - 1 : at);
  panel.currentChange = current;
  const caption = panel.querySelector(SEL.historyCaption);
  caption.textContent = current >= 0
    ? block.messages.format("history_current", { name: open.name, step: h.steps[current] + 1, line: h.lines[current] })
    : block.messages.format("history_unbound", { name: open.name });
  drawRows(panel, block);
}

function buildPanel(omni, h) {
  const m = omni.block.messages;
  const panel = el("section", { class: "history" });
  panel.dataset.role = "history";
  panel.dataset.var = h.name;
  panel.historyData = h;
  // named per block: two blocks may show the history of a variable of one name
  panel.setAttribute("aria-label", `${m.format("history_of", { name: h.name })} · ${omni.block.name}`);
  const head = el("div", { class: "history-head" });
  const close = el("button", { class: "history-close" }, "×");
  close.type = "button";
  close.setAttribute("aria-label", m.get("history_close"));
  close.addEventListener("click", () => omni.closeHistory());
  head.append(el("h4", { class: "history-title" }, m.format("history_count", { name: h.name, n: h.steps.length })),
    close);
  const viewport = el("div", { class: "history-view" });
  viewport.style.height = `${Math.min(h.steps.length, VIEW_ROWS) * ROW_PX + 2}px`;
  viewport.tabIndex = -1;
  const spacer = el("div", { class: "history-spacer" });
  spacer.style.height = `${h.steps.length * ROW_PX}px`;
  const list = el("ol", { class: "history-rows" });
  spacer.append(list);
  viewport.append(spacer);
  viewport.addEventListener("scroll", () => drawRows(panel, omni.block));
  panel.append(head, el("p", { class: "history-caption" }), viewport);
  return panel;
}

/** Draw the rows in view (plus a few) at their place in the full list. */
function drawRows(panel, block) {
  const h = panel.historyData;
  const viewport = panel.querySelector(SEL.historyView);
  const list = panel.querySelector(SEL.historyRows);
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_PX) - SPARE);
  const last = Math.min(h.steps.length, first + VIEW_ROWS + 2 * SPARE);
  list.style.top = `${first * ROW_PX}px`;
  list.start = first + 1;
  const m = block.messages;
  const rows = [];
  for (let k = first; k < last; k++) {
    const row = el("li", { class: "history-row" });
    const button = el("button", { class: "history-change" });
    button.type = "button";
    button.dataset.change = String(k);
    button.dataset.step = String(h.steps[k]);
    button.dataset.line = String(h.lines[k]);
    if (k === panel.currentChange) button.setAttribute("aria-current", "true");
    const value = el("span", { class: "value" }, text(h.values[k]));
    value.dataset.role = "value";
    button.append(el("span", { class: "history-where" }, m.format("history_where", { step: h.steps[k] + 1, line: h.lines[k] })),
      value);
    row.append(button);
    rows.push(row);
  }
  list.replaceChildren(...rows);
}
