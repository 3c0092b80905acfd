// The model and tool calls of a trace (its packed "agent" part, docs/design.md
// "Agent calls") as a pure model: which call is at a cursor, what that call was
// sent, its response, the conversation levels, and the timeline marks. No DOM.

import { lastAtOrBefore } from "./sorted.js";

const END = -1; // stepping.js: the program ran to its end

/** One content part for display: {kind: "text"|"tool_use"|"tool_result"|"thinking"|"raw",
 * …} ("thinking": a thinking block, `redacted` when the provider hid its text; "raw": a
 * block a recording tool kept only as text). */
export function part(raw) {
  if (typeof raw === "string") return { kind: "text", text: raw };
  const [kind, a, b, c] = raw;
  if (kind === "tool_use") return { kind, id: a, name: b, input: c };
  if (kind === "tool_result") return { kind, id: a, text: contentText(b), error: Boolean(c) };
  if (kind === "thinking") return { kind, text: a, redacted: Boolean(b) };
  if (kind === "raw") return { kind, text: a };
  return { kind: "text", text: `[${a}] ${b}` };
}

/** The parts of a message's (or a tool result's) content. */
export function parts(content) {
  return typeof content === "string" ? [part(content)] : content.map(part);
}

/** A tool result's content as one text. */
export function contentText(content) {
  if (typeof content === "string") return content;
  return content.map((p) => {
    const shown = part(p);
    return shown.kind === "tool_use" ? `${shown.name} ${inputText(shown.input)}` : shown.text;
  }).join("\n");
}

/** A tool's input, pretty: JSON with two-space indents (texts kept as they are). */
export function inputText(input) {
  return JSON.stringify(input, null, 2) ?? "null";
}

export class Calls {
  constructor(agent) {
    this.pool = agent.messages;
    this.conversations = agent.conversations.map(([depth, parent]) => ({ depth, parent }));
    const last = new Map(); // conversation → its latest call so far
    // DIFFERS (left out when null): the call's first difference from the recording in a
    // tolerant replay (runtime/recording/replay.py)
    this.calls = agent.calls.map(([conversation, step, ret, shared, fresh, stop, response, error,
      differs = null], k) => {
      const previous = last.get(conversation) ?? -1;
      last.set(conversation, k);
      return { conversation, step, ret, shared, fresh, stop, response, error, previous, differs };
    });
    // A row leaves out its trailing fields at their defaults (runtime/agent/wire.py): a
    // missing RETURNED is RESULT (the tool returned its result's text), CUT and RECORDED
    // 0, SOURCE_CUT null, STAND_IN 0, DIFFERS null. recorded: answered from an imported
    // recording; source_cut: {length} when the recording's source cut the output
    // (runtime/recording/tools.py); stand_in: a command ran in the stand-in world during the
    // call; differs: "tool:NAME" when a tolerant replay answered a call the recording holds
    // otherwise. The last two are keys only when set, as in the dict form.
    this.tools = agent.tools.map(([step, ret, name, id, input, result, error, returned = result,
      cut = 0, recorded = 0, sourceCut = null, standIn = 0, differs = null]) => {
      const tool = {
        step, ret, name, id, input, result, error: Boolean(error), returned, cut: Boolean(cut),
        recorded: Boolean(recorded), source_cut: sourceCut,
      };
      if (standIn) tool.stand_in = true;
      if (differs !== null) tool.differs = differs;
      return tool;
    });
    this.steps = Int32Array.from(this.calls, (c) => c.step);
    // the calls a thread began and never got an answer for (runtime/agent/in_flight.py):
    // none of the numbered calls above
    this.inFlight = (agent.in_flight ?? []).map(([step, conversation, thread, ids]) =>
      ({ step, conversation, thread, ids }));
    this.memo = { k: -1, ids: null };
  }

  get count() {
    return this.calls.length;
  }

  /** The pool indices of the messages call `k` was sent, in order. */
  ids(k) {
    if (this.memo.k === k) return this.memo.ids;
    const chain = [];
    for (let j = k; j >= 0; j = this.calls[j].previous) {
      chain.push(j);
      if (this.calls[j].shared === 0) break;
    }
    const ids = [];
    for (let c = chain.length - 1; c >= 0; c--) {
      const call = this.calls[chain[c]];
      ids.length = Math.min(ids.length, call.shared);
      for (const id of call.fresh) ids.push(id);
    }
    this.memo = { k, ids };
    return ids;
  }

  /** The last call whose step is at or before `index` (END: after all), or -1. */
  at(index) {
    if (index === END) return this.count - 1;
    return lastAtOrBefore(this.steps, index, this.count);
  }

  /**
   * The call shown at cursor `index`: `pinned` when it is a call of that very step
   * (several calls can share a step when no displayed code runs between them), else
   * the last call at or before the cursor (-1: none yet).
   */
  shownAt(index, pinned = null) {
    if (pinned !== null && pinned >= 0 && pinned < this.count && this.steps[pinned] === index) {
      return pinned;
    }
    return this.at(index);
  }

  /** The previous / next model call from the call shown at `index`: its number k, or -1. */
  hop(direction, index, pinned = null) {
    if (!this.count || index === null || index === undefined) return -1;
    const k = this.shownAt(index, pinned);
    if (direction === "next") {
      if (index === END) return -1;
      return k + 1 < this.count ? k + 1 : -1;
    }
    if (index === END) return this.count - 1;
    if (k >= 0 && this.steps[k] < index) return k;   // the cursor is past the shown call
    return k - 1;
  }

  /** The step of the previous / next model call from cursor `index`, or null. */
  target(direction, index, pinned = null) {
    const k = this.hop(direction, index, pinned);
    return k >= 0 ? this.steps[k] : null;
  }

  /** Conversation indices from the outermost to `conversation`. */
  levels(conversation) {
    const chain = [];
    for (let c = conversation; c !== null && c !== undefined; c = this.conversations[c].parent) {
      chain.push(c);
    }
    return chain.reverse();
  }

  /** What the panel shows at cursor `index`, or null before the first call. */
  view(index, pinned = null) {
    const k = this.shownAt(index, pinned);
    if (k < 0) return null;
    const call = this.calls[k];
    const ids = this.ids(k);
    const firstNew = ids.length - call.fresh.length;
    const returned = call.ret !== null && (index === END || index >= call.ret);
    return {
      number: k + 1,
      total: this.count,
      conversation: call.conversation,
      depth: this.conversations[call.conversation].depth,
      levels: this.levels(call.conversation).map((c) => this.conversations[c].depth),
      messages: ids.map((id, i) => ({ id, author: this.pool[id][0], isNew: i >= firstNew })),
      response: returned && call.response !== null
        ? { stop: call.stop, id: call.response } : null,
      error: returned ? call.error : null,
      differs: call.differs,
    };
  }

  /** The parts of pool message `id`. */
  messageParts(id) {
    return parts(this.pool[id][1]);
  }

  /** Timeline marks: {kind: "model"|"tool", step, number, name, differs}; differs: the
   * call's first difference from the recording in a tolerant replay, or null. */
  marks() {
    const model = this.calls.map((c, k) => ({ kind: "model", step: c.step, number: k + 1, differs: c.differs }));
    const tool = this.tools.map((t, k) => ({
      kind: "tool", step: t.step, number: k + 1, name: t.name, differs: t.differs ?? null,
    }));
    return model.concat(tool);
  }

  /** The calls that differ from the recording (a tolerant replay): how many model calls and
   * how many tool calls. */
  differing() {
    return {
      model: this.calls.filter((c) => c.differs !== null).length,
      tool: this.tools.filter((t) => t.differs !== undefined).length,
    };
  }
}
