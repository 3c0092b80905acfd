// A recorded run's details (the contract's "Recorded runs"): where its model answers came
// from ([data-role="recording-info"]: provider, model, how many calls, the tool it was
// imported from), where the program's request left the recording
// ([data-role="replay-divergence"]: the call, the first differing place, the recorded and
// the sent value) and the button that saves the recording. Reads the trace's `replay`
// (runtime/recording/replay.py `summary`).

import { SEL } from "../selectors.js";
import { el } from "../page/dom.js";

/** Fill the recorded-run hooks of `block` from `trace.replay`. */
export function showRecorded(block, trace) {
  const root = block.root;
  const m = block.messages;
  const replay = trace.replay;
  const info = root.querySelector(SEL.recordingInfo);
  if (info) {
    info.dataset.provider = replay.provider;
    info.dataset.model = replay.model;
    info.dataset.calls = String(replay.calls);
    if (replay.imported_from) info.dataset.importedFrom = replay.imported_from;
    else delete info.dataset.importedFrom;
    const parts = [m.format("recording_info", replay)];
    if (replay.imported_from) parts.push(m.format("recording_imported", { tool: replay.imported_from }));
    if (replay.note) parts.push(" ", m.format("recording_note", { note: replay.note }));
    info.textContent = parts.join("");
    info.hidden = false;
  }
  const box = root.querySelector(SEL.replayDivergence);
  if (box) {
    const found = replay.divergence;
    box.hidden = !found || Boolean(block.recording?.live); // a live run ends where it ended
    box.replaceChildren();
    if (found) {
      box.dataset.call = String(found.call);
      box.dataset.path = found.path;
      box.append(el("p", { class: "divergence-head" }, m.format("replay_divergence", found)),
        valueRow(m.get("replay_recorded"), "recorded", found.recorded),
        valueRow(m.get("replay_sent"), "sent", found.sent));
    }
  }
  const download = root.querySelector(SEL.actionNamed("download-recording"));
  if (download) {
    download.hidden = false;
    download.disabled = false;
  }
}

function valueRow(label, side, text) {
  const row = el("div", { class: "divergence-value", "data-value": side });
  row.append(el("span", { class: "divergence-label" }, label), el("pre", {}, text));
  return row;
}
