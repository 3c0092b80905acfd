// Recording files in and out of a block (the contract's "Recorded runs"):
// input[data-role="recording-file"] loads one, which then answers the model calls of the
// block's runs as a preset's recording does (the page's Python checks it against the
// format's schema and the block it was made for: runtime/browser/worker.py); a file that
// cannot answer shows [data-role="recording-error"] and the block keeps what it showed.
// button[data-action="download-recording"] saves the recording of the run shown.

import { SEL } from "../selectors.js";
import * as runs from "../page/block-runs.js";

/** A short digest of a text (FNV-1a), to key the traces a file's runs make. */
function digest(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** The preset the recording was made for, when it is one of the block's. */
function madeForPreset(block, text) {
  try {
    const preset = JSON.parse(text)?.made_for?.preset;
    return block.config.presets.some((p) => p.name === preset) ? preset : null;
  } catch {
    return null; // not JSON: the page's Python says so
  }
}

function showError(block, message) {
  const node = block.root.querySelector(SEL.recordingError);
  if (!node) return;
  node.textContent = message ?? "";
  node.hidden = message === null;
}

/** Load `file` into `block`: its runs answer from it, and the block debugs its run. */
export async function loadFile(block, file) {
  if (!file || block.state === "running") return false;
  const text = await file.text();
  const recording = { name: file.name, text, key: `${file.name}\n${text.length}\n${digest(text)}` };
  const scenario = madeForPreset(block, text) ?? (block.scenario === block.config.customScenario
    ? block.config.presets[0].name : block.scenario);
  const tolerant = block.tolerant;
  block.tolerant = false; // a new file is replayed strictly first
  try {
    await runs.traceOf(block, scenario, null, recording); // checked and recorded, then cached
  } catch (error) {
    block.tolerant = tolerant;
    showError(block, error.message);
    return false;
  }
  showError(block, null);
  if (scenario !== block.scenario) block.setScenario(scenario);
  block.whatif?.dropFork();
  block.recording = recording;
  return block.start("debug");
}

/** Save the recording of the run `block` shows: the loaded file, or its preset's. */
export async function download(block) {
  if (!block.trace?.replay) return;
  const text = block.recording?.text
    ?? await block.client.presetRecording({ lesson: block.lesson, scenario: block.scenario });
  const name = block.recording?.name ?? `${block.lesson}-${block.name}-${block.scenario}.json`;
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  block.root.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
