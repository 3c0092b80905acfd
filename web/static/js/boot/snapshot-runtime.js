// The recorder in the memory snapshot. scripts/build_boot.mjs imports runtime/ before it
// takes the snapshot, and boot.json's `snapshot.runtime` lists the sources it imported
// ({folder, module, modules, sources: {path: sha256}}). After a restore the worker keeps
// those modules only if the page serves exactly those sources under that folder; else it
// forgets them, and the recorder is imported from the files the page serves.

import { sha256 } from "./boot.js";

const packageOf = (recorded) => recorded.module.split(".")[0];

/** Whether `files` ([{path, bytes}], written under `folder`) hold the recorder's sources
 * exactly as `recorded` lists them: the same files, byte for byte. */
export async function sameSources(recorded, files, folder) {
  if (!recorded?.sources || recorded.folder !== folder) return false;
  const prefix = `${packageOf(recorded)}/`;
  // the package's modules, its sub-packages' too (web/bundles.py runtime_modules)
  const served = files.filter(({ path }) => path.startsWith(prefix) && path.endsWith(".py"));
  if (served.length !== Object.keys(recorded.sources).length) return false;
  const digests = await Promise.all(served.map(({ bytes }) => sha256(bytes)));
  return served.every(({ path }, i) => recorded.sources[path] === digests[i]);
}

/** Keep the snapshot's recorder when it is the served one, else forget its modules.
 * Returns where the recorder comes from: "snapshot", or "files" (imported next). */
export async function settleRecorder(pyodide, recorded, files, folder) {
  if (!recorded) return "files";
  if (await sameSources(recorded, files, folder)) return "snapshot";
  const modules = pyodide.pyimport("sys").modules;
  const ours = [...modules.keys()].filter((name) => name.split(".")[0] === packageOf(recorded));
  for (const name of ours) modules.pop(name);
  return "files";
}
