// The timeline's marks (the contract's [data-role="timeline-marks"]): one group per block,
// beside the timeline, shared by the views that mark steps (agent/agent-view.js: model
// calls and tool runs; threads/threads-view.js: thread switches). Each view adds its own
// marks under its label key and takes them away again; the group goes with the last.

import { el } from "./dom.js";
import { SEL } from "../selectors.js";

const owners = new WeakMap(); // group → the label keys of the views with marks in it

function label(group, messages) {
  const keys = owners.get(group);
  group.setAttribute("aria-label", keys.size > 1 ? messages.get("marks_label_all")
    : messages.get([...keys][0]));
}

/** The block's marks group (made beside the timeline when there is none), `key` (the
 * message key naming a view's marks) counted in its label. */
export function joinMarks(root, key, messages) {
  let group = root.querySelector('[data-role="timeline-marks"]');
  if (!group || !owners.has(group)) {
    group = el("div", { class: "marks" });
    group.dataset.role = "timeline-marks";
    group.setAttribute("role", "group");
    owners.set(group, new Set());
    root.querySelector(SEL.timeline).after(group);
  }
  owners.get(group).add(key);
  label(group, messages);
  return group;
}

/** Take a view's `nodes` (its marks, under `key`) out of `group`; the group goes with the last. */
export function leaveMarks(group, key, nodes, messages) {
  for (const node of nodes) node.remove();
  const keys = owners.get(group);
  keys?.delete(key);
  if (!keys?.size) group.remove();
  else label(group, messages);
}
