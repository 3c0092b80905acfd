// The recorder in the memory snapshot. scripts/build_boot.mjs imports runtime/ before it
// takes the snapshot, and boot.json's `snapshot.runtime` names what it imported
// ({folder, module, modules, sources: {path: sha256}, digest}). After a restore the worker
// keeps those modules only if the page serves exactly those sources under that folder:
// the page's runtime config carries the digest of the sources it serves (web/bundles.py
// runtime_digest), the same digest of the same files. Else it forgets them, and the
// recorder is imported from the files the page serves.

const packageOf = (recorded) => recorded.module.split(".")[0];

/** Whether the snapshot's recorder (`recorded`, boot.json) is the one the page serves:
 * the sources of `digest`, written under `folder`. */
export function keeps(recorded, digest, folder) {
  return Boolean(recorded?.digest) && recorded.digest === digest && recorded.folder === folder;
}

/** Keep the snapshot's recorder when it is the served one, else forget its modules.
 * Returns where the recorder comes from: "snapshot", or "files" (imported next, from the
 * files the worker writes). */
export function settleRecorder(pyodide, recorded, digest, folder) {
  if (!recorded) return "files";
  if (keeps(recorded, digest, folder)) return "snapshot";
  const modules = pyodide.pyimport("sys").modules;
  const ours = [...modules.keys()].filter((name) => name.split(".")[0] === packageOf(recorded));
  for (const name of ours) modules.pop(name);
  return "files";
}
