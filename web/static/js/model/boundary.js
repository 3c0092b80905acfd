// The subagent's boundary: for a call of a conversation of depth ≥ 1, the parent's
// conversation at the moment the child started, the child's own, what crossed in
// (the child's first user message: its task) and what crossed out (the result of the
// parent's tool execution that ran the child). Pure: reads a Calls (agent-calls.js).

import { parts, contentText } from "./agent-calls.js";

const END = -1; // stepping.js: the program ran to its end

function partText(p) {
  if (p.kind === "tool_use") return `${p.name} ${JSON.stringify(p.input)}`;
  return p.text;
}

/** The characters of a message's content (texts, tool inputs as JSON, tool results). */
export function messageChars(content) {
  return parts(content).reduce((n, p) => n + partText(p).length, 0);
}

function side(calls, ids) {
  return { messages: ids.length, chars: ids.reduce((n, id) => n + messageChars(calls.pool[id][1]), 0) };
}

/**
 * The boundary of model call `k` (0-based), or null for a call of the outermost
 * conversation: {parent: {messages, chars}, child: {messages, chars}, crossedIn,
 * crossedOut, returnedAt, start, depth, parentDepth}; start is the step of the child's
 * first call, depth and parentDepth the two conversations' depths; crossedOut is the tool result text (null when no tool
 * execution holds the child), shown once the cursor is at or after returnedAt.
 */
export function boundary(calls, k) {
  const call = calls.calls[k];
  const conversation = call && calls.conversations[call.conversation];
  if (!conversation?.depth) return null;
  let first = k;
  while (calls.calls[first].previous >= 0) first = calls.calls[first].previous;
  const start = calls.calls[first].step;
  let before = -1; // the parent's last call before the child started
  for (let j = first - 1; j >= 0; j--) {
    if (calls.calls[j].conversation === conversation.parent) {
      before = j;
      break;
    }
  }
  const parentIds = before < 0 ? [] : [...calls.ids(before)];
  const answer = before < 0 ? null : calls.calls[before].response;
  if (answer !== null && answer !== undefined) parentIds.push(answer);
  const task = calls.ids(first).find((id) => calls.pool[id][0] === "user");
  let holder = null; // the last tool execution started before the child and still running
  for (const tool of calls.tools) {
    if (tool.step > start) break;
    if (tool.ret === null || tool.ret > start) holder = tool;
  }
  return {
    parent: side(calls, parentIds),
    child: side(calls, calls.ids(k)),
    crossedIn: task === undefined ? "" : contentText(calls.pool[task][1]),
    crossedOut: holder ? contentText(holder.result ?? "") : null,
    returnedAt: holder ? holder.ret : null,
    start,
    depth: conversation.depth,
    parentDepth: calls.conversations[conversation.parent]?.depth ?? conversation.depth - 1,
  };
}

/** Whether what crossed out is visible at cursor `index`. */
export function returned(b, index) {
  if (!b || b.crossedOut === null || b.returnedAt === null) return false;
  return index === END || index >= b.returnedAt;
}
