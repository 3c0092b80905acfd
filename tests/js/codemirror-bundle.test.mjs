import { test } from "node:test";
import assert from "node:assert/strict";
import * as cm from "../../web/vendor/codemirror-6.0.2/codemirror.mjs";

test("the bundle exports what the setup editor uses", () => {
  for (const name of ["basicSetup", "EditorView", "EditorState", "keymap", "indentWithTab",
    "HighlightStyle", "syntaxHighlighting", "indentUnit", "setDiagnostics", "tags", "python"]) {
    assert.ok(cm[name], name);
  }
});

test("its Python language parses a setup text", () => {
  const state = cm.EditorState.create({ doc: "if index<9:\n    x=1\n", extensions: [cm.python()] });
  assert.equal(state.doc.lines, 3);
  const names = new Set();
  cm.python().language.parser.parse(state.doc.toString()).iterate({ enter: (n) => { names.add(n.name); } });
  assert.ok(names.has("IfStatement"), [...names].join(","));
});
