// The setup editor: the vendored CodeMirror 6 (scripts/vendor_codemirror.sh), loaded on
// first use. It is mounted in an open shadow root: CodeMirror then puts its generated
// styles in constructable stylesheets (adoptedStyleSheets), which the page's CSP allows,
// instead of <style> elements, which the CSP (no inline styles) refuses. Colours come
// from the page's CSS variables, which inherit into the shadow root.

export const EDITOR_URL = new URL("../../../vendor/codemirror-6.0.2/codemirror.mjs", import.meta.url);

function theme(cm) {
  return cm.EditorView.theme({
    "&": { color: "var(--fg)", backgroundColor: "var(--panel)", border: "1px solid var(--control-edge)",
      borderRadius: "4px", fontSize: "0.9rem" },
    "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "1px" },
    // no scrolling box of its own (lines wrap, the page scrolls): nothing to reach by keyboard
    ".cm-scroller": { fontFamily: "var(--mono)" },
    ".cm-content": { caretColor: "var(--fg)" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
    ".cm-gutters": { color: "var(--muted)", backgroundColor: "var(--code-bg)", borderRight: "1px solid var(--line)" },
    ".cm-activeLine": { backgroundColor: "var(--accent-soft)" },
    ".cm-activeLineGutter": { color: "var(--fg)", backgroundColor: "var(--accent-soft)" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
      { backgroundColor: "var(--current)" },
    ".cm-tooltip": { color: "var(--fg)", backgroundColor: "var(--panel)", border: "1px solid var(--line)" },
    ".cm-diagnostic-error": { borderLeftColor: "var(--error)" },
    // CodeMirror draws this underline as a data: image, which the CSP (img-src 'self') refuses
    ".cm-lintRange-error": { backgroundImage: "none", textDecoration: "underline wavy var(--error)",
      textUnderlineOffset: "3px" },
  });
}

function highlight(cm) {
  const t = cm.tags;
  return cm.HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword],
      color: "var(--hl-keyword)", fontWeight: "600" },
    { tag: [t.function(t.definition(t.variableName)), t.function(t.variableName)], color: "var(--hl-function)" },
    { tag: [t.standard(t.variableName), t.bool, t.null, t.self], color: "var(--hl-builtin)" },
    { tag: [t.string, t.special(t.string)], color: "var(--hl-string)" },
    { tag: t.comment, color: "var(--hl-comment)", fontStyle: "italic" },
    { tag: t.number, color: "var(--hl-number)" },
    { tag: [t.operator, t.punctuation], color: "var(--hl-operator)" },
  ]);
}

/**
 * A CodeMirror editor in `host` holding `text`. `label`: the accessible name of its
 * editable text; `onRun`: Ctrl/Cmd+Enter; `role`: its editable text's data-role;
 * `python`: Python highlighting (a fork's JSON has none). Returns {text, setText, focus,
 * showError}.
 */
export async function createEditor(host, { text, label, onRun, role = "setup-text", python = true }) {
  const cm = await import(EDITOR_URL.href);
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const parent = document.createElement("div");
  shadow.replaceChildren(parent);
  const view = new cm.EditorView({
    root: shadow,
    parent,
    state: cm.EditorState.create({
      doc: text,
      extensions: [
        cm.basicSetup,
        cm.EditorView.lineWrapping,
        ...(python ? [cm.python()] : []),
        cm.indentUnit.of("    "),
        cm.keymap.of([cm.indentWithTab, { key: "Mod-Enter", run: () => { onRun(); return true; } }]),
        cm.syntaxHighlighting(highlight(cm)),
        theme(cm),
        cm.EditorView.contentAttributes.of({ "data-role": role, "aria-label": label,
          tabindex: "0" }),
      ],
    }),
  });
  return {
    get text() {
      return view.state.doc.toString();
    },
    setText(value) {
      if (value === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
    },
    focus() {
      view.focus();
    },
    /** Mark `error` ({line, type, message}, line 1-based) in the text; null clears it. */
    showError(error) {
      const lines = view.state.doc.lines;
      const diagnostics = [];
      if (error && error.line >= 1) {
        const line = view.state.doc.line(Math.min(error.line, lines));
        diagnostics.push({ from: line.from, to: line.to, severity: "error",
          message: `${error.type}: ${error.message}` });
      }
      view.dispatch(cm.setDiagnostics(view.state, diagnostics));
    },
  };
}
