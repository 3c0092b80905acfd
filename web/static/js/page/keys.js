// Keyboard: debugger keys act on the block that has the cursor or was last used.

export const KEYMAP = Object.freeze([
  { key: "F8", shift: false, command: "continue" },
  { key: "F10", shift: false, command: "step-over" },
  { key: "F11", shift: false, command: "step-into" },
  { key: "F11", shift: true, command: "step-out" },
  { key: "[", shift: false, command: "prev-call" },  // runs with model calls
  { key: "]", shift: false, command: "next-call" },
]);

/** The command for a keydown event, or null. Pure. */
export function commandFor(event) {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const hit = KEYMAP.find((k) => k.key === event.key && k.shift === event.shiftKey);
  return hit ? hit.command : null;
}

/** Whether `target` takes typed text (a printable key there is not a command). */
function typing(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable]:not([contenteditable=false])"));
}

/** Listen on `target`; `activeBlock()` returns the block to act on (or null). */
export function installKeys(target, activeBlock) {
  target.addEventListener("keydown", (event) => {
    const command = commandFor(event);
    if (!command || (event.key.length === 1 && typing(event.target))) return;
    const block = activeBlock();
    if (!block) return;
    event.preventDefault();
    block.command(command);
  });
}
