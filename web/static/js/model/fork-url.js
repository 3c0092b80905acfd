// A fork (docs/design.md, "Forks"): one call of a run — `model:K`, the K-th model call, or
// `tool:K`, the K-th tool call, numbered as the conversation panel numbers them — answering
// an edited JSON value. Pure: the JSON the editor starts with (the call's recorded answer
// as JSON of its parts) and the checks made before running. Its URL fragment form,
// `CALL~TEXT`, is url-state.js's (encodeFork, decodeFork).

const CALL = /^(model|tool):([1-9]\d{0,4})$/;

/** {kind, index} of "model:K" / "tool:K", or null. */
export function parseCall(call) {
  const found = CALL.exec(String(call ?? ""));
  return found ? { kind: found[1], index: Number(found[2]) } : null;
}

/** A recorded part (trace "agent" PART) as the Messages API's JSON block. */
function block(raw) {
  if (typeof raw === "string") return { type: "text", text: raw };
  const [kind, a, b, c] = raw;
  if (kind === "tool_use") return { type: "tool_use", id: a, name: b, input: c };
  if (kind === "tool_result") return { type: "tool_result", tool_use_id: a, content: content(b), is_error: Boolean(c) };
  return { type: a, text: b };
}

function content(recorded) {
  return typeof recorded === "string" ? recorded : recorded.map(block);
}

/** The JSON value a fork of `call` starts from: the recorded response of model call K
 * ({stop_reason, content}), or what tool call K's function returned (a call that raised:
 * its recorded result, the error's text); undefined when the trace has no such call (or
 * it has not returned). */
export function recordedValue(agent, call) {
  return recordedStart(agent, call)?.value;
}

/** {value, cut} a fork of `call` starts from (recordedValue); `cut`: the tool's returned
 * value was bounded when recorded, so `value` is not what the function returned. */
export function recordedStart(agent, call) {
  const parsed = parseCall(call);
  if (!agent || !parsed) return undefined;
  if (parsed.kind === "model") {
    const record = agent.calls[parsed.index - 1];
    const response = record?.[6];
    if (response === null || response === undefined) return undefined;
    return { value: { stop_reason: record[5], content: content(agent.messages[response][1]) }, cut: false };
  }
  const tool = agent.tools[parsed.index - 1];
  if (!tool || tool[1] === null) return undefined;
  const [, , , , , result, error, returned, cut] = tool;
  if (error || returned === undefined) return { value: content(result), cut: false };
  return { value: returned, cut: Boolean(cut) };
}

/** The editor's text for a value: JSON with two-space indents. */
export function valueText(value) {
  return JSON.stringify(value, null, 2);
}

function kindOf(value) {
  if (Array.isArray(value)) return "list";
  if (value === null) return "null";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * Why the fork's `text` cannot run, as {key, values} for the page's messages, or null:
 * not JSON, or a model call's response that is not an object with a list (or text) of
 * blocks (as runtime/questions/forks.py checks it too).
 */
export function forkProblem(call, text) {
  const parsed = parseCall(call);
  if (!parsed) return { key: "fork_bad_call", values: { call } };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { key: "fork_not_json", values: { message: error.message } };
  }
  if (parsed.kind === "model") {
    if (kindOf(value) !== "object") return { key: "fork_model_shape", values: { kind: kindOf(value) } };
    const blocks = value.content ?? [];
    if (typeof blocks !== "string" && (!Array.isArray(blocks)
      || blocks.some((b) => typeof b !== "string" && (kindOf(b) !== "object" || typeof b.type !== "string")))) {
      return { key: "fork_model_content", values: {} };
    }
  }
  return null;   // a tool's value: any JSON (a shape its caller cannot use fails the run)
}
