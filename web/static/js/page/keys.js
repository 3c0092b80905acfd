// Keyboard: debugger keys act on the block that has the cursor or was last used, and
// only outside editors: a key typed into an input, a select, a contenteditable text,
// the setup editor (CodeMirror, in a shadow root) or an editor form (breakpoint editor,
// watch input) belongs to what is typed there, `[`, `]` and the F-keys included.

export const KEYMAP = Object.freeze([
  { key: "F8", shift: false, command: "continue" },
  { key: "F10", shift: false, command: "step-over" },
  { key: "F11", shift: false, command: "step-into" },
  { key: "F11", shift: true, command: "step-out" },
  { key: "[", shift: false, command: "prev-call" },  // runs with model calls
  { key: "]", shift: false, command: "next-call" },
]);

// <input> types that take no typed text: page keys still act on them (the timeline).
const NOT_TYPED = new Set(["button", "checkbox", "color", "file", "image", "radio", "range",
  "reset", "submit"]);

/** The command for a keydown event, or null. Pure. */
export function commandFor(event) {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const hit = KEYMAP.find((k) => k.key === event.key && k.shift === event.shiftKey);
  return hit ? hit.command : null;
}

/** Whether `node` is, or frames, a place where the reader types. Pure (reads the node). */
export function editable(node) {
  if (!node || node.nodeType !== 1) return false;
  if (node.isContentEditable) return true;
  switch (node.localName) {
    case "textarea":
    case "select":
    case "form": // the breakpoint editor, the watch input: their buttons too
      return true;
    case "input":
      return !NOT_TYPED.has(String(node.type).toLowerCase());
    default:
      return Boolean(node.classList?.contains("cm-editor")); // CodeMirror: text, panels
  }
}

/**
 * Whether a key event goes to an editor rather than to the page. `path` is the
 * event's composed path: the setup editor lives in a shadow root, where the event's
 * target seen from the document is only the shadow host. Pure.
 */
export function typedIntoEditor(path) {
  return path.some(editable);
}

/** Listen on `target`; `activeBlock()` returns the block to act on (or null). */
export function installKeys(target, activeBlock) {
  target.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.isComposing) return;
    const command = commandFor(event);
    if (!command || typedIntoEditor(event.composedPath())) return;
    const block = activeBlock();
    if (!block) return;
    event.preventDefault();
    block.command(command);
  });
}
