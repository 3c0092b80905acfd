// The DOM helpers of the page's views.

import { showText } from "./invisible.js";

/**
 * A new element: `attrs` are its attributes ({class: "…", "data-role": "…", …}; an
 * attribute whose value is null, undefined or false is left out), `text` its text content.
 * Data from a trace reaches the DOM only as text, its invisible characters shown
 * (invisible.js).
 */
export function el(tag, attrs = {}, text = undefined) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  if (text !== undefined) showText(node, text === null ? "" : String(text));
  return node;
}

/**
 * `load()` once the frame being drawn now has been painted: the views a run brings
 * (the conversation, the diagram, watches and histories) are imported after the first
 * frame with the cursor, not beside it (docs/performance.md, "The first frame first").
 * Returns `load()`'s promise.
 */
export function afterPaint(load) {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))).then(load);
}
