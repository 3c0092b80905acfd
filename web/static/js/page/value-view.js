// A value's cell and its collapsible tree (the DOM side of model/values.js).

import { el } from "./dom.js";
import { text, isContainer, items, note } from "../model/values.js";

/**
 * The value cell: `[data-role=value]` holding the one-line text; containers with
 * items also get a collapsed tree below it. Returns {value, tree|null}.
 */
export function render(value, messages) {
  const valueEl = el("span", { class: "value" }, text(value));
  valueEl.dataset.role = "value";
  const hint = note(value, messages);
  if (hint) valueEl.title = hint;
  if (!isContainer(value) || items(value).entries.length === 0) return { value: valueEl, tree: null };
  return { value: valueEl, tree: tree(value, messages) };
}

/** A `<ul>` tree for a container, nested containers as collapsed `<details>`. */
export function tree(value, messages) {
  const root = el("ul", { class: "tree" });
  const work = [{ value, parent: root }];
  while (work.length) {
    const { value: v, parent } = work.pop();
    const { entries, elided, total } = items(v);
    for (const [key, val] of entries) {
      const li = el("li", { class: "tree-item" });
      const label = key === null ? null : el("span", { class: "tree-key" }, text(key));
      if (isContainer(val) && items(val).entries.length) {
        const details = el("details", { class: "tree-node" });
        const summary = el("summary");
        if (label) summary.append(label, el("span", { class: "tree-sep" }, ": "));
        summary.append(el("span", { class: "tree-value" }, text(val)));
        const child = el("ul", { class: "tree" });
        details.append(summary, child);
        li.append(details);
        work.push({ value: val, parent: child });
      } else {
        if (label) li.append(label, el("span", { class: "tree-sep" }, ": "));
        li.append(el("span", { class: "tree-value" }, text(val)));
      }
      parent.append(li);
    }
    if (elided) parent.append(el("li", { class: "tree-more" }, messages.format("value_items", { n: total })));
  }
  return root;
}
