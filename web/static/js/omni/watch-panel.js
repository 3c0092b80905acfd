// The watch panel, the logpoint lane and breakpoint errors of one block, drawn from
// the recorded answers (answers.js) at the cursor. Data reaches the DOM as text only.

import { END } from "../model/stepping.js";
import { answerIndex, isError } from "../model/answers.js";
import { MAX_WATCHES } from "../model/questions.js";
import { text } from "../model/values.js";
import { el } from "../page/dom.js";
import { SEL } from "../selectors.js";

/** An element with a class and text content. */
/** The step whose frame the panes show: the cursor, the last step once finished, or null. */
export function shownStep(block) {
  if (!block.trace || block.index === null) return null;
  return block.index === END ? -1 : block.index;
}

export function renderWatches(block) {
  const list = block.root.querySelector(SEL.watches);
  if (!list) return;
  const m = block.messages;
  const at = shownStep(block);
  const recorded = at !== null && block.trace.probes ? answerIndex(block.trace) : null;
  const values = new Map((recorded?.watchesAt(at) ?? []).map((w) => [w.expression, w]));
  const rows = block.questions.watches.map((expression) => {
    const li = el("li", { class: "watch" });
    li.dataset.watch = expression;
    const found = values.get(expression);
    const value = el("span", { class: "value" }, "");
    value.dataset.role = "value";
    if (found && found.value !== undefined) {
      if (isError(found.value)) {
        value.textContent = found.value.error;
        value.classList.add("watch-error");
        li.dataset.error = "true";
      } else value.textContent = text(found.value);
      if (found.changed) li.dataset.changed = "true";
    }
    const remove = el("button", { class: "unwatch" }, "×");
    remove.type = "button";
    remove.dataset.unwatch = expression;
    remove.setAttribute("aria-label", m.format("watch_remove", { expression }));
    li.append(el("code", { class: "watch-expr" }, expression), value, remove);
    return li;
  });
  list.replaceChildren(...rows);
  renderLeftOut(block, list);
}

/** The note under the watches when some were left out (a link's, or the form's) at the cap. */
function renderLeftOut(block, list) {
  let note = list.parentElement?.querySelector('[data-role="watch-note"]');
  const n = block.questions.leftOut;
  if (!n) {
    note?.remove();
    return;
  }
  if (!note) {
    note = el("p", { class: "watch-note", "data-role": "watch-note", role: "status" });
    list.after(note);
  }
  note.textContent = block.messages.format("watches_left_out", { max: MAX_WATCHES, n });
}

export function renderLog(block) {
  const lane = block.root.querySelector(SEL.log);
  if (!lane) return;
  const at = shownStep(block);
  const lines = at !== null && block.trace.probes ? answerIndex(block.trace).logUpTo(at) : [];
  lane.replaceChildren(...lines.map((entry) => {
    const li = el("li", { class: "log-line" }, entry.text);
    li.dataset.logLine = String(entry.step);
    li.title = block.messages.format("log_from", { line: entry.line, step: entry.step + 1 });
    return li;
  }));
}

export function renderErrors(block) {
  const box = block.root.querySelector(SEL.breakpointErrors);
  if (!box) return;
  const errors = block.trace?.probes ? answerIndex(block.trace).errors() : [];
  box.replaceChildren(...errors.filter((e) => block.breakpoints.has(e.line)).map((e) => {
    const p = el("p", { class: "bp-error" }, block.messages.format("breakpoint_error", e));
    p.dataset.role = "breakpoint-error";
    p.dataset.breakpoint = String(e.line);
    return p;
  }));
}
