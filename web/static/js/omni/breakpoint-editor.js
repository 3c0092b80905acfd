// The breakpoint editor: condition, hit count and log message of one line's
// breakpoint, opened from the gutter's context menu or Shift+Enter on a gutter.
// Escape closes it; focus returns to the gutter.
import { el } from "../page/dom.js";
import { SEL } from "../selectors.js";

function field(id, name, label, value, extra = {}) {
  const wrap = el("div", { class: "bp-field" });
  const input = el("input", { id, name, type: "text", autocomplete: "off", spellcheck: "false", ...extra });
  input.value = value ?? "";
  wrap.append(el("label", { for: id }, label), input);
  return wrap;
}

export function openEditor(omni, line) {
  const { block, root } = omni;
  const m = block.messages;
  root.querySelector(SEL.breakpointEditor)?.remove();
  const gutter = root.querySelector(SEL.gutterN(line));
  if (!gutter) return;
  const spec = block.questions.spec(line) ?? {};
  const id = `${root.id || block.name}-bp-${line}`;
  // named per block: every block may have its editor of line N open at once
  const form = el("form", { "data-role": "breakpoint-editor", class: "bp-editor",
    "aria-label": `${m.format("bp_editor", { line })} · ${block.name}` });
  form.dataset.for = String(line);
  const problem = el("p", { class: "bp-problem", role: "alert" });
  form.append(
    el("p", { class: "bp-title" }, m.format("bp_editor", { line })),
    field(`${id}-condition`, "condition", m.get("bp_condition"), spec.condition, { placeholder: "max_calls == 1" }),
    field(`${id}-hits`, "hits", m.get("bp_hits"), spec.hits, { inputmode: "numeric", placeholder: "2" }),
    field(`${id}-log`, "log", m.get("bp_log"), spec.log, { placeholder: "n = {len(history)}" }),
    problem,
  );
  const buttons = el("div", { class: "bp-buttons" });
  const save = el("button", { type: "submit" }, m.get("bp_save"));
  const remove = el("button", { type: "button", "data-bp": "remove" }, m.get("bp_remove"));
  const cancel = el("button", { type: "button", "data-bp": "cancel" }, m.get("bp_cancel"));
  buttons.append(save, remove, cancel);
  form.append(buttons);

  const close = () => {
    form.remove();
    gutter.focus();
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = form.elements;
    try {
      omni.saveBreakpoint(line, { condition: f.condition.value, hits: f.hits.value, log: f.log.value });
    } catch {
      problem.textContent = m.get("bp_bad_hits");
      f.hits.focus();
      return;
    }
    close();
  });
  remove.addEventListener("click", () => {
    omni.removeBreakpoint(line);
    close();
  });
  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  });
  gutter.closest(SEL.codeRow).after(form);
  form.elements.condition.focus();
}
