// The origin buttons of the conversation panel (model/origins.js): a message's button
// moves the cursor to the step that added it, a tool_result part's to its tool
// execution; a note shows when the list the shown call was sent changed afterwards.

import { Origins } from "../model/origins.js";
import { el } from "../page/dom.js";
import { SEL } from "../selectors.js";

export class OriginView {
  /** `go(step)` moves the cursor; `shown()` is the call view on display (or null). */
  constructor(calls, agent, messages, go, shown) {
    this.origins = new Origins(calls, agent);
    this.messages = messages;
    this.go = go;
    this.shown = shown;
    this.note = el("button", { class: "changed-after-send" });
    this.note.type = "button";
    this.note.dataset.role = "changed-after-send";
    this.note.hidden = true;
    this.note.addEventListener("click", () => this.go(Number(this.note.dataset.step)));
  }

  /** The origin button of a message (its head holds it); named by `nameMessage`. */
  messageButton() {
    return this.button("message-origin", "message_origin");
  }

  /** Name the origin button inside message node `node`: the message's place `n`
   * (1-based, in the call shown) and its author, as shown. */
  nameMessage(node, n, author) {
    const button = node.querySelector(SEL.messageOrigin);
    const label = this.messages.format("message_origin_label", { n, author });
    if (button && button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  }

  /** The origin button of a tool_result part: named by its tool's name and id. */
  partButton(name, id) {
    const button = this.button("part-origin", "part_origin");
    button.setAttribute("aria-label", this.messages.format("part_origin_label", { name, id }));
    return button;
  }

  button(action, text) {
    const button = el("button", { class: "origin-button" }, this.messages.get(text));
    button.type = "button";
    button.dataset.action = action;
    return button;
  }

  /** The tool execution behind part `index` of pool message `id`, or null. */
  partTool(id, index) {
    return this.origins.partTool(id, index);
  }

  /** Listen on the message list: a click on an origin button moves the cursor. */
  listen(list) {
    list.addEventListener("click", (event) => {
      const button = event.target.closest(SEL.originButton);
      const node = button?.closest(SEL.message);
      const view = this.shown();
      if (!node || !view) return;
      const message = view.messages[Number(node.dataset.message)];
      if (!message) return;
      let step;
      if (button.dataset.action === "message-origin") {
        step = this.origins.messageStep(message.id);
      } else {
        const part = button.closest(SEL.part);
        step = this.origins.partStep(message.id, [...node.querySelectorAll(SEL.part)].indexOf(part));
      }
      if (step !== null) this.go(step);
    });
  }

  /** Show the note of call `k`: which sent message changed and how (or hide it: no call,
   * or nothing it sent changed). */
  update(k) {
    const change = k === null || k < 0 ? null : this.origins.change(k);
    this.note.hidden = change === null;
    if (change === null) {
      delete this.note.dataset.step;
      delete this.note.dataset.kind;
      return;
    }
    this.note.dataset.step = String(change.step);
    const values = { step: change.step + 1, n: (change.position ?? 0) + 1 };
    if (change.kind) {
      this.note.dataset.kind = change.kind;
      this.note.textContent = this.messages.format(`changed_after_send_${change.kind}`, values);
    } else {
      delete this.note.dataset.kind;
      this.note.textContent = this.messages.format("changed_after_send", values);
    }
  }
}
