// The one DOM helper of the page's views.

/**
 * A new element: `attrs` are its attributes ({class: "…", "data-role": "…", …}; an
 * attribute whose value is null, undefined or false is left out), `text` its text content.
 * Data from a trace reaches the DOM only as text.
 */
export function el(tag, attrs = {}, text = undefined) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}
