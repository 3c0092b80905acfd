// The model calls a thread began and never got an answer for before the run ended (the
// trace's agent `in_flight`, runtime/agent/in_flight.py): none of the run's numbered model
// calls, listed under the conversation panel as in flight when the run ended
// ([data-role="in-flight"] with `data-count`; per call an item with `data-thread`,
// `data-step` and `data-conversation`, its button moving the cursor to where it began).

import { el } from "../page/dom.js";

/** The list of `calls.inFlight` (agent-calls.js), or null when there is none. */
export function inFlightNode(calls, messages, go) {
  const flying = calls.inFlight;
  if (!flying.length) return null;
  const box = el("div", { class: "in-flight", "data-role": "in-flight",
    "data-count": String(flying.length) });
  box.append(el("p", { class: "in-flight-head" },
    messages.plural("in_flight_head", "n", { n: flying.length })));
  const list = el("ul", { class: "in-flight-calls" });
  for (const call of flying) {
    const item = el("li", { "data-thread": call.thread, "data-step": String(call.step),
      "data-conversation": String(call.conversation) });
    const button = el("button", { class: "in-flight-call", type: "button" },
      messages.plural("in_flight_call", "count", { thread: call.thread, step: call.step,
        count: call.ids.length }));
    button.addEventListener("click", () => go(call.step));
    item.append(button);
    list.append(item);
  }
  box.append(list);
  return box;
}
