// A recorded run's details (the contract's "Recorded runs"): where its model answers came
// from ([data-role="recording-info"]: provider, model, how many calls, the tool it was
// imported from), where the program's request left the recording
// ([data-role="replay-divergence"]: the call, the first differing place, the recorded and
// the sent value; a tool call the recording holds otherwise, `data-path="tool:NAME"`: the
// call and the recorded execution), beside it button[data-action="replay-tolerant"] that
// records the run again going on past differences (the block's `tolerant`, its runs'
// `data-replay="tolerant"`; the calls that differ are marked by agent/agent-view.js), and the
// button that saves the recording. Reads the trace's `replay` (runtime/recording/replay.py
// `summary`).

import { SEL } from "../selectors.js";
import { el } from "../page/dom.js";
import { Calls } from "../model/agent-calls.js";

// blocks whose tolerant run was asked for by the control: the reader goes on from the
// recording's line once it is shown (the divergence and the control are gone)
const focusInfo = new WeakSet();

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
    // calls in flight when the recording ended (agent/in-flight-view.js lists them)
    const flying = trace.agent?.in_flight?.length ?? 0;
    if (flying) info.dataset.inFlight = String(flying);
    else delete info.dataset.inFlight;
    const parts = [m.format("recording_info", replay)];
    if (replay.imported_from) parts.push(m.format("recording_imported", { tool: replay.imported_from }));
    // a long run's first steps (page/block-stream.js): what they left unmade is still coming
    if (replay.note && !trace.partial) parts.push(" ", m.format("recording_note", { note: replay.note }));
    if (replay.tolerant) {
      const n = differing(trace);
      info.dataset.differs = String(n);
      parts.push(n ? m.plural("recording_tolerant", "n", { n }) : m.get("recording_tolerant_none"));
    } else delete info.dataset.differs;
    info.textContent = parts.join("");
    info.hidden = false;
    if (replay.tolerant && focusInfo.delete(block)) {
      info.tabIndex = -1;
      info.focus();
    }
  }
  const box = root.querySelector(SEL.replayDivergence);
  if (box) {
    const found = replay.divergence;
    box.hidden = !found || Boolean(block.recording?.live); // a live run ends where it ended
    box.replaceChildren();
    if (found) {
      box.dataset.call = String(found.call);
      box.dataset.path = found.path;
      const tool = found.path.startsWith("tool:");   // a tool call not in the recording
      box.append(el("p", { class: "divergence-head" },
        m.format(tool ? "replay_tool_divergence" : "replay_divergence", found)),
        valueRow(m.get(tool ? "replay_tool_recorded" : "replay_recorded"), "recorded", found.recorded),
        valueRow(m.get(tool ? "replay_tool_sent" : "replay_sent"), "sent", found.sent));
      if (!replay.tolerant) box.append(tolerantButton(block, m));
    }
  }
  const download = root.querySelector(SEL.actionNamed("download-recording"));
  if (download) {
    download.hidden = false;
    download.disabled = false;
  }
}

/** How many calls of `trace` differ from the recording: model calls and tool calls. */
function differing(trace) {
  if (!trace.agent) return trace.replay.differs ?? 0;
  const { model, tool } = new Calls(trace.agent).differing();
  return model + tool;
}

/** The control that records the block's run again, going on past differences. */
function tolerantButton(block, m) {
  const button = el("button", { class: "replay-tolerant" }, m.get("replay_tolerant"));
  button.type = "button";
  button.dataset.action = "replay-tolerant";
  button.addEventListener("click", async () => {
    if (block.state === "running") return;
    block.tolerant = true;
    focusInfo.add(block);
    if (!await block.start("run")) focusInfo.delete(block);
  });
  return button;
}

function valueRow(label, side, text) {
  const row = el("div", { class: "divergence-value", "data-value": side });
  row.append(el("span", { class: "divergence-label" }, label), el("pre", {}, text));
  return row;
}
