// Recording files in and out of a block (the contract's "Recorded runs"):
// input[data-role="recording-file"] loads one, which then answers the model calls of the
// block's runs as a preset's recording does (the page's Python checks it against the
// format's schema and the block it was made for: runtime/browser/worker.py); a file that
// cannot answer shows [data-role="recording-error"] and the block keeps what it showed.
// While a file loads, [data-role="recording-progress"] shows it: the bytes read
// (data-bytes of data-total; recording-read.js reads it off the page's thread), then the
// calls it holds (data-calls) while the page's Python checks and replays them; its
// button[data-action="cancel-recording"] ends the load (the reading worker, or the guest
// runtime replaying it: boot/runtime-client.js cancelGuest) and the block keeps what it
// showed. button[data-action="download-recording"] saves the recording of the run shown.
// Focusing or pressing the input boots the guest runtime that will replay the file (prepare).

import { SEL } from "../selectors.js";
import * as runs from "../page/block-runs.js";
import { readFile, ReadCancelled } from "./recording-read.js";
import { showFirst, showWhole } from "../page/block-stream.js";

const loading = new WeakMap(); // block → {controller, progress, replaying} while a file loads
const wired = new WeakSet();   // blocks whose cancel button is listened to

/** The preset a file was made for (`preset`, as recording-read.js found it), when it is one
 * of the block's. */
function madeForPreset(block, preset) {
  return preset !== null && block.config.presets.some((p) => p.name === preset) ? preset : null;
}

function showError(block, message, kind = null) {
  const node = block.root.querySelector(SEL.recordingError);
  if (!node) return;
  node.textContent = message ?? "";
  node.hidden = message === null;
  if (kind) node.dataset.kind = kind;
  else delete node.dataset.kind;
}

const size = (n) => (n < 1e6 ? `${Math.ceil(n / 1e3)} KB` : `${(n / 1e6).toFixed(1)} MB`);

/** [data-role="recording-progress"] of `block` for `file`: reading, then checking; gone. */
function progressOf(block, file) {
  const node = block.root.querySelector(SEL.recordingProgress);
  if (!node) return { reading() {}, checking() {}, done() {} };
  const m = block.messages;
  const bar = node.querySelector("progress");
  const text = node.querySelector(".recording-progress-text");
  const button = node.querySelector(SEL.actionNamed("cancel-recording"));
  if (button && !wired.has(block)) {
    wired.add(block);
    button.addEventListener("click", () => cancel(block));
  }
  return {
    reading(bytes) {
      Object.assign(node.dataset, { phase: "reading", bytes: String(bytes), total: String(file.size) });
      delete node.dataset.calls;
      bar.max = Math.max(file.size, 1);
      bar.value = bytes;
      text.textContent = m.format("recording_reading", { name: file.name, read: size(bytes), total: size(file.size) });
      if (button) button.disabled = false;
      node.hidden = false;
    },
    checking(calls) {
      node.dataset.phase = "checking";
      if (calls !== null) node.dataset.calls = String(calls);
      bar.removeAttribute("value"); // indeterminate: the page's Python tells no progress
      text.textContent = calls === null ? m.format("recording_checking_file", { name: file.name })
        : m.plural("recording_checking", "calls", { name: file.name, calls });
    },
    streaming(made, calls) {
      Object.assign(node.dataset, { phase: "streaming", made: String(made) });
      bar.max = Math.max(calls ?? made, 1);
      bar.value = made;
      text.textContent = m.format("recording_streaming", { name: file.name, made, calls: calls ?? "?" });
    },
    done() {
      const focused = node.contains(document.activeElement);
      node.hidden = true;
      delete node.dataset.phase;
      if (focused) block.root.querySelector(SEL.recordingFile)?.focus();
    },
  };
}

/** Cancel the file `block` is loading: its reading, or the replay that checks it. */
export function cancel(block) {
  const current = loading.get(block);
  if (!current || current.controller.signal.aborted) return false;
  current.controller.abort();
  if (current.replaying) block.client.cancelGuest?.();
  return true;
}

/** The reader is about to choose a file (the input focused or pressed): boot the guest
 * runtime that replays it (boot/runtime-client.js prepareGuest) while the file dialog is
 * open, warmed on the block's preset (a file's run may be long: GuestClient.warm). */
export function prepare(block) {
  const custom = block.scenario === block.config.customScenario;
  block.client.prepareGuest({ lesson: block.lesson, block: block.name,
    scenario: custom ? block.config.presets[0].name : block.scenario });
}

/** Load `file` into `block`: its runs answer from it, and the block debugs its run. */
export async function loadFile(block, file) {
  if (!file || block.state === "running" || loading.has(block)) return false;
  const progress = progressOf(block, file);
  const current = { controller: new AbortController(), replaying: false };
  const signal = current.controller.signal;
  const cancelled = new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(new ReadCancelled()), { once: true });
  });
  cancelled.catch(() => {});
  loading.set(block, current);
  const tolerant = block.tolerant;
  const before = { scenario: block.scenario, recording: block.recording };
  let recording = null;
  let scenario = null;
  let first = null; // a long run's first steps, shown while the rest is replayed
  let whole = null;
  const adopt = () => {
    showError(block, null);
    if (scenario !== block.scenario) block.setScenario(scenario);
    block.whatif?.dropFork();
    block.recording = recording;
  };
  const onPartial = (trace) => {
    if (loading.get(block) !== current || signal.aborted || block.state === "running") return;
    adopt();
    if (!showFirst(block, trace)) return;
    first = trace;
    progress.streaming(trace.replay?.made ?? 0, trace.replay?.calls ?? null);
  };
  try {
    progress.reading(0);
    const read = await readFile(file, { signal, onBytes: (bytes) => progress.reading(bytes) });
    recording = { name: file.name, text: read.text, key: `${file.name}\n${read.text.length}\n${read.digest}` };
    scenario = madeForPreset(block, read.preset) ?? (block.scenario === block.config.customScenario
      ? block.config.presets[0].name : block.scenario);
    progress.checking(read.calls);
    block.tolerant = false; // a new file is replayed strictly first
    current.replaying = true;
    const checked = runs.traceOf(block, scenario, null, recording, onPartial); // checked and recorded, then cached
    checked.catch(() => {}); // a cancelled one ends unheard
    whole = await Promise.race([checked, cancelled]);
  } catch (error) {
    if (first && block.trace === first) { // the first steps shown: the whole run will not come
      block.setScenario(before.scenario); // drops them; the block answers as it did before
      block.recording = before.recording;
    }
    block.tolerant = tolerant;
    if (error instanceof ReadCancelled || error.kind === "cancelled") {
      showError(block, block.messages.format("recording_cancelled", { name: file.name }), "cancelled");
    } else showError(block, error.message);
    loading.delete(block);
    progress.done();
    return false;
  }
  loading.delete(block); // checked: nothing left to cancel
  if (first) {
    const shown = showWhole(block, first, whole);
    progress.done();
    return shown;
  }
  adopt();
  const started = await block.start("debug"); // the run, from the cache
  progress.done();
  return started;
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
