// What the page needs from CodeMirror 6, bundled into one ES module by
// scripts/vendor_codemirror.sh (web/vendor/codemirror-VERSION/codemirror.mjs).
export { basicSetup } from "codemirror";
export { EditorView, keymap } from "@codemirror/view";
export { EditorState } from "@codemirror/state";
export { indentWithTab } from "@codemirror/commands";
export { HighlightStyle, syntaxHighlighting, indentUnit } from "@codemirror/language";
export { setDiagnostics } from "@codemirror/lint";
export { tags } from "@lezer/highlight";
export { python } from "@codemirror/lang-python";
