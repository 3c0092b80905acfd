// Values: a recorded VALUE (docs/design.md) as repr-like text and as a tree.
//
// Every piece of data reaches the DOM through textContent, never as HTML.
// Text is built iteratively with an explicit stack; trees only go as deep as
// the recorder kept (it shows no items past depth 4).

// The value text is specified case by case in tests/fixtures/value_text.json, which
// the CLI's rendering (runtime/cli.py) is held to as well.
const OPEN = { dict: "{", list: "[", tuple: "(", set: "{", frozenset: "frozenset({" };
const CLOSE = { dict: "}", list: "]", tuple: ")", set: "}", frozenset: "})" };
const EMPTY = { set: "set()", frozenset: "frozenset()" };
const ELLIPSIS = "…";

/** Whether a VALUE is a container with items (expandable). */
export function isContainer(v) {
  return Array.isArray(v) && v[0] in OPEN;
}

function isCutString(v) {
  return Array.isArray(v) && v[0] === "str";
}

/** The repr of a string's first characters, marked as cut: 'abc' → 'abc…'. */
function cutText(repr) {
  return repr.length >= 2 ? repr.slice(0, -1) + ELLIPSIS + repr.slice(-1) : repr + ELLIPSIS;
}

/** The items of a container VALUE: [[key|null, value], …], and whether some were left out. */
export function items(v) {
  const kind = v[0];
  const total = v[1];
  const shown = v.slice(2);
  const entries = kind === "dict" ? shown.map((kv) => [kv[0], kv[1]]) : shown.map((x) => [null, x]);
  return { kind, total, entries, elided: shown.length < total };
}

/** One-line repr-like text of a VALUE. */
export function text(value) {
  const out = [];
  // Work items: a VALUE to render, or a literal string to emit.
  const work = [{ value }];
  while (work.length) {
    const item = work.pop();
    if ("literal" in item) {
      out.push(item.literal);
      continue;
    }
    const v = item.value;
    if (typeof v === "string") out.push(v);
    else if (isCutString(v)) out.push(cutText(String(v[1])));
    else if (isContainer(v)) pushContainer(work, v);
    else out.push(v === null || v === undefined ? "None" : String(v));
  }
  return out.join("");
}

function pushContainer(work, v) {
  const { kind, entries, elided, total } = items(v);
  if (total === 0 && kind in EMPTY) {
    work.push({ literal: EMPTY[kind] });
    return;
  }
  const parts = [{ literal: OPEN[kind] }];
  entries.forEach(([key, val], i) => {
    if (i) parts.push({ literal: ", " });
    if (key !== null) parts.push({ value: key }, { literal: ": " });
    parts.push({ value: val });
  });
  if (elided) parts.push({ literal: entries.length ? ", " + ELLIPSIS : ELLIPSIS });
  if (kind === "tuple" && total === 1 && !elided) parts.push({ literal: "," });
  parts.push({ literal: CLOSE[kind] });
  for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
}

/** A note for values the recorder shortened (full length of a cut string). */
export function note(value, messages) {
  if (isCutString(value)) return messages.format("value_length", { n: value[2] });
  if (isContainer(value)) {
    const { total, entries } = items(value);
    if (entries.length < total) return messages.format("value_items", { n: total });
  }
  return "";
}
