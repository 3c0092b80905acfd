// The run's working folder at a cursor, from the trace's `workspace` key (docs/design.md,
// "Workspace"): the files at the start and each change [STEP, PATH, DEPTH, FILE | null],
// in step order. A change belongs to the folder from its step on (the step of the tool
// execution or statement that made it). Pure: no DOM.

const END = -1; // stepping.js: the program ran to its end

/** The folder of `workspace` ({files, changes}) as it is at cursor `index` (END: at the end). */
export function folderAt(workspace, index) {
  const rows = new Map();
  for (const [path, file] of Object.entries(workspace?.files ?? {})) {
    rows.set(path, { path, state: "unchanged", file, start: file, depth: undefined, step: undefined });
  }
  for (const [step, path, depth, file] of workspace?.changes ?? []) {
    if (index !== END && step > index) break;
    const row = rows.get(path) ?? { path, start: null };
    row.file = file;
    row.depth = depth;
    row.step = step;
    if (file === null) row.state = row.start ? "deleted" : "gone";
    else if (!row.start) row.state = "created";
    else row.state = sameFile(row.start, file) ? "unchanged" : "changed";
    rows.set(path, row);
  }
  return [...rows.values()].filter((r) => r.state !== "gone")
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function sameFile(a, b) {
  return a.size === b.size && a.text === b.text && Boolean(a.binary) === Boolean(b.binary)
    && Boolean(a.cut) === Boolean(b.cut);
}

/** The changes at depth ≥ `depth` with `from` ≤ step ≤ `to`, the last one per file:
 * [{path, state, depth, step}] (what a child changed in the shared folder). */
export function changedBetween(workspace, depth, from, to) {
  const before = folderAt(workspace, from - 1);
  const known = new Map(before.map((r) => [r.path, r]));
  const last = new Map();
  for (const [step, path, d, file] of workspace?.changes ?? []) {
    if (step < from || (to !== END && step > to)) continue;
    if (d >= depth) last.set(path, { path, depth: d, step, file });
  }
  return [...last.values()].map((c) => {
    const had = known.get(c.path);
    const state = c.file === null ? "deleted" : had ? "changed" : "created";
    return { ...c, state };
  }).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The gate's decisions ([STEP, TOOL, DECISION, DEPTH]) with `from` ≤ step ≤ `to` whose
 * depth passes `test`: [{step, tool, decision, depth}]. */
export function decisionsBetween(gate, from, to, test) {
  return (gate ?? []).filter(([step, , , depth]) => step >= from && (to === END || step <= to) && test(depth))
    .map(([step, tool, decision, depth]) => ({ step, tool, decision, depth }));
}
