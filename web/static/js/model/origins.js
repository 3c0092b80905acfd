// Where the messages of a conversation came from (the agent part's "added" and
// "changed", docs/design.md "Agent calls"): the step a message origin button moves
// to, the tool execution behind a tool_result part, and the first step that changed
// the list a call was sent. Pure: reads a Calls (agent-calls.js), computed once.

/**
 * The tool execution (index into `calls.tools`) of each tool_result part, keyed
 * `"MESSAGE:PART"` (pool message id, part index): by the tool_use id the tool was
 * called with — the n-th result of an id is the n-th execution of that id — else by
 * order among the results and executions left unmatched.
 */
export function pairResults(pool, tools) {
  const byId = new Map(); // tool_use id → its executions, in order
  tools.forEach((tool, t) => {
    if (tool.id === null || tool.id === undefined) return;
    if (!byId.has(tool.id)) byId.set(tool.id, []);
    byId.get(tool.id).push(t);
  });
  const paired = new Map();
  const claimed = new Set();
  const unmatched = [];
  pool.forEach(([, content], id) => {
    if (typeof content === "string") return;
    content.forEach((p, i) => {
      if (!Array.isArray(p) || p[0] !== "tool_result") return;
      const queue = byId.get(p[1]);
      if (queue?.length) {
        const t = queue.shift();
        claimed.add(t);
        paired.set(`${id}:${i}`, t);
      } else {
        unmatched.push(`${id}:${i}`);
      }
    });
  });
  const free = tools.map((_, t) => t).filter((t) => !claimed.has(t));
  unmatched.forEach((key, n) => {
    if (n < free.length) paired.set(key, free[n]);
  });
  return paired;
}

export class Origins {
  constructor(calls, agent) {
    this.calls = calls;
    this.added = agent.added ?? [];
    this.changed = agent.changed ?? [];
    this.answerOf = new Map(); // pool id → the call that returned it
    this.firstSent = new Map(); // pool id → the step of the first call that sent it
    calls.calls.forEach((call, k) => {
      if (call.response !== null && !this.answerOf.has(call.response)) this.answerOf.set(call.response, k);
      for (const id of call.fresh) if (!this.firstSent.has(id)) this.firstSent.set(id, call.step);
    });
    this.results = pairResults(calls.pool, calls.tools);
  }

  /**
   * The step of pool message `id`'s origin: a model's answer → the step of the call
   * that returned it; any other message → the step that added it to its list (the
   * step of the first call that sent it when the run did not see that).
   */
  messageStep(id) {
    const k = this.answerOf.get(id);
    if (k !== undefined) return this.calls.calls[k].step;
    return this.added[id] ?? this.firstSent.get(id) ?? null;
  }

  /** The step of the tool execution behind part `index` of message `id`, or null. */
  partStep(id, index) {
    const tool = this.partTool(id, index);
    return tool === null ? null : tool.step;
  }

  /** The tool execution (of `calls.tools`) behind part `index` of message `id`, or null. */
  partTool(id, index) {
    const t = this.results.get(`${id}:${index}`);
    return t === undefined ? null : this.calls.tools[t];
  }

  /**
   * The first change of what call `k` sent, after the call: `{step, kind, position}`
   * (`kind` "removed", "replaced" or "edited"; `position` the 0-based place of the
   * message in the list sent), or null when nothing it sent changed. A trace from
   * before the kinds were recorded holds a bare step: kind and position null.
   */
  change(k) {
    const c = this.changed[k];
    if (c === null || c === undefined) return null;
    if (typeof c === "number") return { step: c, kind: null, position: null };
    return { step: c[0], kind: c[1], position: c[2] };
  }

  /** The first step that changed what call `k` sent, or null. */
  changedStep(k) {
    return this.change(k)?.step ?? null;
  }
}
