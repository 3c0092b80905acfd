// Two runs side by side: align their step sequences statement by statement.
//
// A step's key is (depth, line, event): two steps match when the same statement of
// the displayed function runs at the same call depth with the same event. The
// alignment is a longest common subsequence of the two key sequences (Myers' O(ND)
// diff in linear space, after the common prefix and suffix are taken off), so the
// first divergence — the first step where the paths differ — is exactly the end of
// the common prefix. Its work is bounded: past a budget of diagonal visits, what is
// left is aligned greedily (each step is matched with the nearest equal step within a
// window), so runs that differ everywhere still align in linear time. Pure functions
// of arrays; no DOM.

const GAP = -1;

/** The alignment keys of a trace's steps (trace.js accessors). */
export function stepKeys(trace) {
  const keys = new Int32Array(trace.count);
  for (let i = 0; i < trace.count; i++) {
    keys[i] = (trace.depth(i) << 22) | (trace.line(i) << 2) | trace.eventCode(i);
  }
  return keys;
}

/**
 * Align key sequences `a` and `b`. Returns {a, b, length, divergence}: `a[k]`, `b[k]`
 * are the step indices of row k of the alignment (GAP = -1 where that run has no
 * step); rows where both are set are matches. `divergence` is the first row that is
 * not a match, or -1 when the runs take the same path. `budget`: diagonal visits of
 * the exact search before the rest is aligned greedily (a longest common subsequence
 * is guaranteed only within it).
 */
export function align(a, b, { budget = DEFAULT_BUDGET } = {}) {
  const out = new Rows(a.length + b.length);
  diff(a, b, out, new Work(a.length + b.length, budget));
  const rows = out.finish();
  let divergence = -1;
  for (let k = 0; k < rows.length; k++) {
    if (rows.a[k] === GAP || rows.b[k] === GAP) {
      divergence = k;
      break;
    }
  }
  return { ...rows, divergence };
}

const DEFAULT_BUDGET = 1_000_000;
const WINDOW = 64; // how far the greedy alignment looks for the next equal step

class Rows {
  constructor(capacity) {
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.length = 0;
  }

  push(i, j) {
    this.a[this.length] = i;
    this.b[this.length] = j;
    this.length++;
  }

  finish() {
    return { a: this.a.subarray(0, this.length), b: this.b.subarray(0, this.length), length: this.length };
  }
}

/** Work arrays of the middle-snake search, allocated once, and the budget left. */
class Work {
  constructor(size, budget) {
    this.forward = new Int32Array(2 * size + 3);
    this.backward = new Int32Array(2 * size + 3);
    this.left = budget;
  }
}

function diff(a, b, out, work) {
  // A stack of work items instead of recursion (deep recursion could overflow):
  // a region [x0, x1) × [y0, y1) to align, or a run of `length` matches from (x, y).
  const todo = [{ x0: 0, x1: a.length, y0: 0, y1: b.length }];
  const gaps = (x0, x1, y0, y1) => {
    for (let x = x0; x < x1; x++) out.push(x, GAP);
    for (let y = y0; y < y1; y++) out.push(GAP, y);
  };
  while (todo.length) {
    const item = todo.pop();
    if (item.length !== undefined) {
      for (let k = 0; k < item.length; k++) out.push(item.x + k, item.y + k);
      continue;
    }
    let { x0, x1, y0, y1 } = item;
    while (x0 < x1 && y0 < y1 && a[x0] === b[y0]) out.push(x0++, y0++);
    let tail = 0;
    while (x1 > x0 && y1 > y0 && a[x1 - 1] === b[y1 - 1]) { x1--; y1--; tail++; }
    // Pushed in reverse order of output: the common suffix comes last.
    if (tail) todo.push({ x: x1, y: y1, length: tail });
    if (x0 === x1 || y0 === y1) {
      gaps(x0, x1, y0, y1);
      continue;
    }
    const snake = work.left > 0 ? middleSnake(a, x0, x1, b, y0, y1, work) : null;
    const [sx, sy, ex, ey] = snake ?? [];
    if (!snake || (sx === x0 && sy === y0 && ex === x1 && ey === y1)) {
      greedy(a, x0, x1, b, y0, y1, out);
      continue;
    }
    todo.push({ x0: ex, x1, y0: ey, y1 }, { x: sx, y: sy, length: ex - sx },
      { x0, x1: sx, y0, y1: sy });
  }
}

/**
 * Myers' middle snake of a[x0..x1) against b[y0..y1) (both non-empty, no common
 * prefix or suffix): [sx, sy, ex, ey], the snake's start and end, on a shortest edit
 * path. null when the work budget runs out first.
 */
function middleSnake(a, x0, x1, b, y0, y1, work) {
  const n = x1 - x0;
  const m = y1 - y0;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  const max = Math.ceil((n + m) / 2);
  const off = n + m + 1; // V index of diagonal 0
  const vf = work.forward;
  const vb = work.backward;
  vf[off + 1] = 0;
  vb[off + 1] = 0;
  for (let d = 0; d <= max; d++) {
    work.left -= 2 * d + 2;
    if (work.left < 0) return null;
    for (let k = -d; k <= d; k += 2) { // forward: x along a, k = x - y
      let x = k === -d || (k !== d && vf[off + k - 1] < vf[off + k + 1])
        ? vf[off + k + 1] : vf[off + k - 1] + 1;
      let y = x - k;
      const sx = x;
      const sy = y;
      while (x < n && y < m && a[x0 + x] === b[y0 + y]) { x++; y++; }
      vf[off + k] = x;
      const c = delta - k; // the backward diagonal that meets this one
      if (odd && c >= -(d - 1) && c <= d - 1 && x + vb[off + c] >= n) {
        return [x0 + sx, y0 + sy, x0 + x, y0 + y];
      }
    }
    for (let k = -d; k <= d; k += 2) { // backward: x counted from the end
      let x = k === -d || (k !== d && vb[off + k - 1] < vb[off + k + 1])
        ? vb[off + k + 1] : vb[off + k - 1] + 1;
      let y = x - k;
      const ex = x;
      const ey = y;
      while (x < n && y < m && a[x1 - 1 - x] === b[y1 - 1 - y]) { x++; y++; }
      vb[off + k] = x;
      const c = delta - k;
      if (!odd && c >= -d && c <= d && x + vf[off + c] >= n) {
        return [x1 - x, y1 - y, x1 - ex, y1 - ey];
      }
    }
  }
  return null;
}

/**
 * Align a[x0..x1) with b[y0..y1) in one pass: equal steps match; otherwise the nearest
 * step within WINDOW that resynchronises the runs (a skipped run of A's steps, of B's,
 * or of both) is taken, and a step of each side is left unmatched when there is none.
 */
function greedy(a, x0, x1, b, y0, y1, out) {
  let i = x0;
  let j = y0;
  while (i < x1 && j < y1) {
    if (a[i] === b[j]) {
      out.push(i++, j++);
      continue;
    }
    let skipA = 1;
    let skipB = 1;
    for (let s = 1; s <= WINDOW; s++) {
      if (i + s < x1 && a[i + s] === b[j]) { skipA = s; skipB = 0; break; }
      if (j + s < y1 && a[i] === b[j + s]) { skipA = 0; skipB = s; break; }
      if (i + s < x1 && j + s < y1 && a[i + s] === b[j + s]) { skipA = s; skipB = s; break; }
    }
    for (let k = 0; k < skipA; k++) out.push(i++, GAP);
    for (let k = 0; k < skipB; k++) out.push(GAP, j++);
  }
  while (i < x1) out.push(i++, GAP);
  while (j < y1) out.push(GAP, j++);
}

/**
 * For each step of one side, the row of the alignment that holds it: `rowOf(rows.a,
 * count)`. Every step has exactly one row.
 */
export function rowOf(side, count) {
  const rows = new Int32Array(count);
  for (let k = 0; k < side.length; k++) if (side[k] !== GAP) rows[side[k]] = k;
  return rows;
}

/**
 * The step of `side` aligned with row k: its own step when it has one, else the
 * nearest step before the row (the step that run was at), else the first after.
 */
export function stepAt(side, k) {
  for (let r = k; r >= 0; r--) if (side[r] !== GAP) return side[r];
  for (let r = k + 1; r < side.length; r++) if (side[r] !== GAP) return side[r];
  return -1;
}

export { GAP };
