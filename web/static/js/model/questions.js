// The reader's questions for one block: breakpoint details (condition, hit count,
// log message) by line, and watch expressions. Pure data, changed by named methods.
//
// `request(lines)` is what the recorder is asked (runtime/questions/questions.py) for the set
// breakpoint lines, or null when there is nothing to ask; `key(lines)` names it, so
// a trace recorded with other questions is not reused. Their URL form (c15=, h11=, l13=,
// w=) is url-state.js's.

/** The most watches a block asks (runtime/questions/watches.py MAX_WATCHES, tested to
 * agree): a watch past them is left out and counted in `leftOut`. */
export const MAX_WATCHES = 50;

/** A breakpoint detail from form or URL texts; null when it asks nothing. */
export function cleanSpec({ condition = "", hits = "", log = "" } = {}) {
  const spec = {};
  const c = String(condition ?? "").trim();
  const l = String(log ?? "").trim();
  const h = String(hits ?? "").trim();
  if (c) spec.condition = c;
  if (l) spec.log = l;
  if (h) {
    if (!/^\d+$/.test(h) || Number(h) < 1) throw new RangeError("hits");
    spec.hits = Number(h);
  }
  return Object.keys(spec).length ? spec : null;
}

export class Questions {
  constructor() {
    this.specs = new Map(); // line → {condition?, hits?, log?}
    this.watches = [];
    this.watched = new Set(); // the same texts, to find one at once
    this.leftOut = 0; // watches not added since the last clear: MAX_WATCHES were there
  }

  spec(line) {
    return this.specs.get(line) ?? null;
  }

  /** Set (or, with null, drop) the details of the breakpoint on `line`. */
  setSpec(line, spec) {
    if (spec) this.specs.set(line, spec);
    else this.specs.delete(line);
  }

  /** Drop the details of every breakpoint (the watches stay). */
  clearSpecs() {
    this.specs.clear();
  }

  /** Add a watch (trimmed); false when empty, already there, or past MAX_WATCHES. */
  addWatch(text) {
    const t = String(text ?? "").trim();
    if (!t || this.watched.has(t)) return false;
    if (this.watches.length >= MAX_WATCHES) {
      this.leftOut += 1;
      return false;
    }
    this.watches.push(t);
    this.watched.add(t);
    return true;
  }

  removeWatch(text) {
    if (!this.watched.delete(text)) return false;
    this.watches = this.watches.filter((w) => w !== text);
    this.leftOut = 0;
    return true;
  }

  clear() {
    this.specs.clear();
    this.watches = [];
    this.watched.clear();
    this.leftOut = 0;
  }

  /** {breakpoints, watches} for the recorder, or null when nothing is asked. */
  request(lines) {
    const breakpoints = [...this.specs].filter(([line]) => lines.has(line))
      .sort((a, b) => a[0] - b[0]).map(([line, spec]) => ({ line, ...spec }));
    if (!breakpoints.length && !this.watches.length) return null;
    return { breakpoints, watches: [...this.watches] };
  }

  key(lines) {
    const asked = this.request(lines);
    return asked ? JSON.stringify(asked) : "";
  }

  /** Replace this state with `specs` ([[line, spec]]) and `watches` (the URL's, url-state.js,
   * which left out `leftOut` more). */
  replace({ specs = [], watches = [], leftOut = 0 } = {}) {
    this.clear();
    for (const [line, spec] of specs) this.setSpec(line, spec);
    for (const w of watches) this.addWatch(w);
    this.leftOut += leftOut;
  }
}
