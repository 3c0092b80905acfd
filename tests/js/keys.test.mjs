// Page keys stay out of editors: the composed path of a key event decides.
import { test } from "node:test";
import assert from "node:assert/strict";
import { editable, typedIntoEditor } from "../../web/static/js/page/keys.js";

const node = (localName, extra = {}) => ({ nodeType: 1, localName, isContentEditable: false,
  classList: { contains: (c) => (extra.classes ?? []).includes(c) }, ...extra });
const shadowRoot = { nodeType: 11 };
const documentNode = { nodeType: 9 };
const windowObject = {};
const page = [node("div", { classes: ["block"] }), node("section"), node("body"), node("html"),
  documentNode, windowObject];

test("typed text goes to inputs, selects, textareas and contenteditable text", () => {
  for (const type of ["text", "search", "number", "url", "email", "password", "TEXT"]) {
    assert.equal(editable(node("input", { type })), true, type);
  }
  assert.equal(editable(node("textarea")), true);
  assert.equal(editable(node("select")), true);
  assert.equal(editable(node("div", { isContentEditable: true })), true);
});

test("page keys still act on controls that take no text", () => {
  for (const type of ["range", "checkbox", "radio", "button", "submit", "reset", "color", "file", "image"]) {
    assert.equal(editable(node("input", { type })), false, type);
  }
  for (const name of ["button", "div", "summary", "li"]) assert.equal(editable(node(name)), false, name);
  assert.equal(editable(shadowRoot), false);
  assert.equal(editable(documentNode), false);
  assert.equal(editable(windowObject), false);
  assert.equal(editable(null), false);
  assert.equal(typedIntoEditor([node("button"), ...page]), false);
  assert.equal(typedIntoEditor([node("input", { type: "range" }), ...page]), false);
});

test("the setup editor in its shadow root is seen through the composed path", () => {
  // a key in CodeMirror's content: seen from the document, the target is the shadow host
  const content = node("div", { isContentEditable: true, classes: ["cm-content"] });
  const path = [node("div", { classes: ["cm-line"] }), content, node("div", { classes: ["cm-scroller"] }),
    node("div", { classes: ["cm-editor"] }), node("div"), shadowRoot,
    node("div", { classes: ["setup-host"] }), ...page];
  assert.equal(typedIntoEditor(path), true);
  // its search panel's input and buttons, its gutter: inside .cm-editor
  const panel = [node("button"), node("div", { classes: ["cm-search"] }), node("div", { classes: ["cm-panels"] }),
    node("div", { classes: ["cm-editor"] }), node("div"), shadowRoot, ...page];
  assert.equal(typedIntoEditor(panel), true);
  // the host alone (what event.target shows) is not an editor: the path is needed
  assert.equal(typedIntoEditor([node("div", { classes: ["setup-host"] }), ...page]), false);
});

test("editor forms keep their keys, buttons included", () => {
  const form = node("form", { dataset: { role: "breakpoint-editor" } });
  assert.equal(typedIntoEditor([node("button"), node("div"), form, ...page]), true);
  assert.equal(typedIntoEditor([node("input", { type: "text" }), node("form"), ...page]), true);
});
