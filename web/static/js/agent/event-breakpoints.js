// A block's event breakpoints (docs/design.md, "Event breakpoints"): the form that
// adds them, the list that removes them, and their steps in the trace shown, which
// the block's stepping treats like breakpoint hits. The rule is event-stops.js.

import { SEL } from "../selectors.js";
import { el } from "../page/dom.js";
import { eventSteps, eventKey, eventBreakpoint, parseEventKey } from "../model/event-stops.js";


export class EventBreakpoints {
  /** `changed()` is called after each change by the reader (the block redraws, the URL follows). */
  constructor(root, messages, changed) {
    this.root = root;
    this.messages = messages;
    this.changed = changed;
    this.list = [];           // {kind, value}
    this.stops = new Set();   // their steps in the trace shown
    this.trace = null;
    this.drawn = null;
    root.querySelector(SEL.eventList)?.addEventListener("click", (event) => {
      const button = event.target.closest(SEL.eventRemove);
      const item = button?.closest(SEL.eventItem);
      if (item) this.remove(item.dataset.eventBp);
    });
  }

  /** The form was submitted: add its event breakpoint, or say what is wrong and keep the text. */
  submit(form) {
    const error = this.add(form.elements.kind.value, form.elements.value.value);
    const shown = form.querySelector(SEL.eventError);
    shown.hidden = !error;
    shown.textContent = error ? this.messages.get(error) : "";
    if (!error) form.elements.value.value = "";
  }

  get keys() {
    return this.list.map(eventKey);
  }

  /** Add one from the form's kind and value: null, or the message key of what is wrong. */
  add(kind, value) {
    const bp = eventBreakpoint(kind, value);
    if (bp.error) return bp.error;
    if (!this.keys.includes(eventKey(bp))) this.list.push(bp);
    this.update();
    this.changed();
    return null;
  }

  remove(key) {
    this.list = this.list.filter((bp) => eventKey(bp) !== key);
    this.update();
    this.changed();
  }

  /** From "KIND:VALUE" keys (the URL; the block redraws after); other keys are dropped. */
  set(keys) {
    this.list = keys.map(parseEventKey).filter(Boolean);
    this.update();
  }

  clear() {
    this.set([]);
  }

  /** The trace shown changed: compute the steps again. */
  show(trace) {
    this.trace = trace;
    this.update();
  }

  update() {
    this.stops = eventSteps(this.trace, this.list);
  }

  render() {
    const ul = this.root.querySelector(SEL.eventList);
    const key = this.keys.join("\n");
    if (!ul || key === this.drawn) return;
    this.drawn = key;
    const m = this.messages;
    ul.replaceChildren(...this.list.map((bp) => {
      const label = m.format(`event_bp_item_${bp.kind}`, { value: bp.value || m.get("event_bp_any") });
      const li = el("li", { class: "event-bp" }, undefined);
      li.dataset.eventBp = eventKey(bp);
      const remove = el("button", { class: "event-bp-remove" }, "×");
      remove.type = "button";
      remove.dataset.action = "remove";
      remove.setAttribute("aria-label", m.format("event_bp_remove", { label }));
      li.append(el("span", {}, label), remove);
      return li;
    }));
  }
}
