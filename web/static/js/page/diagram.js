// The lesson diagram: the stage of the page's cursor is aria-current="true".
//
// Which lines belong to which stage is lesson data (config.stages: id, caption,
// lines [{block, from, to}]). Live facts come from the trace at the cursor:
// the registries (dicts of dicts) in the frame, the status/calls of a loop
// outcome, and how many times each nested function has been called so far.

import { SEL } from "../selectors.js";
import { text, isContainer, items } from "../model/values.js";
import { CALL } from "../model/trace.js";
import { lastAtOrBefore } from "../model/sorted.js";

const MAX_FACTS = 4;

/**
 * The id of the stage holding (block, line), or null. Pure. `block` is the block's id in
 * its lesson; `line` is numbered as the block shows it (file lines in a method's and a
 * `symbols` block).
 */
export function stageAt(stages, block, line) {
  for (const stage of stages ?? []) {
    for (const r of stage.lines ?? []) {
      if (r.block === block && line >= r.from && line <= r.to) return stage.id;
    }
  }
  return null;
}

function unquote(t) {
  return /^'.*'$|^".*"$/.test(t) ? t.slice(1, -1) : t;
}

function dictEntries(v) {
  return isContainer(v) && v[0] === "dict" ? items(v).entries : null;
}

/** Facts about one local: a registry's keys, or an outcome's status and calls. */
function localFacts(name, value, messages) {
  const entries = dictEntries(value);
  if (!entries || !entries.length) return [];
  const keys = entries.map(([k]) => unquote(text(k)));
  if (keys.includes("status")) {
    const facts = [];
    const status = entries.find(([k]) => unquote(text(k)) === "status");
    facts.push(messages.format("fact_status", { name, status: unquote(text(status[1])) }));
    const calls = entries.find(([k]) => unquote(text(k)) === "calls");
    if (calls) facts.push(messages.format("fact_calls", { name, calls: text(calls[1]) }));
    return facts;
  }
  if (entries.every(([, v]) => dictEntries(v) !== null)) {
    return [messages.format("fact_registry", { name, keys: keys.join(", ") })];
  }
  return [];
}

/** Call counts of nested functions up to a step (indices kept per name, binary search). */
class CallCounter {
  constructor(trace) {
    this.calls = new Map();
    const n = trace.count ?? 0;
    const outer = n ? trace.frame(0) : undefined;
    for (let i = 0; i < n; i++) {
      if (trace.eventCode(i) !== CALL || trace.frame(i) === outer) continue;
      const fn = trace.fn(i);
      if (!this.calls.has(fn)) this.calls.set(fn, []);
      this.calls.get(fn).push(i);
    }
  }

  at(index) {
    const out = [];
    for (const [fn, list] of this.calls) {
      const calls = lastAtOrBefore(list, index) + 1;
      if (calls) out.push([fn, calls]);
    }
    return out;
  }
}

export class Diagram {
  constructor(root, stages, messages) {
    this.root = root;
    this.stages = stages ?? [];
    this.messages = messages;
    this.counters = new WeakMap();
  }

  /** Follow `block`'s cursor, or clear the highlight when block is null. */
  update(block) {
    if (!this.root) return;
    const step = block?.currentStep ?? null;
    const name = block?.name;
    const current = step ? stageAt(this.stages, name, step.line) : null;
    for (const node of this.root.querySelectorAll(SEL.stage)) {
      const on = node.dataset.stage === current;
      node.setAttribute("aria-current", on ? "true" : "false");
      const facts = node.querySelector(SEL.stageFacts);
      if (facts) facts.textContent = on ? this.facts(block).join(" · ") : "";
    }
    this.root.dataset.block = current ? name : "";
  }

  facts(block) {
    const { trace, replay, index } = block;
    const out = [];
    for (const [name, value] of replay.locals(index)) out.push(...localFacts(name, value, this.messages));
    let counter = this.counters.get(trace);
    if (!counter) {
      counter = new CallCounter(trace);
      this.counters.set(trace, counter);
    }
    for (const [fn, n] of counter.at(index)) out.push(this.messages.format("fact_called", { fn, n }));
    return out.slice(0, MAX_FACTS);
  }
}
