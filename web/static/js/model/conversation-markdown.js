// The conversation shown, the cursor's place and the frame's locals as Markdown
// (the "Copy as Markdown" button, agent/markdown-copy.js). Pure: no DOM.
//
// Texts are quoted literally: each in a fenced block or a code span whose backtick
// run is longer than any inside it, so a message that holds Markdown stays text.

/** A code span around `text` (one line), however many backticks it holds. */
export function codeSpan(text) {
  const s = String(text).replace(/\r?\n/g, " ");
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = s.startsWith("`") || s.endsWith("`") || longest ? " " : "";
  return `${fence}${pad}${s}${pad}${fence}`;
}

/** A fenced block around `text`, with an info string `lang`. */
export function fenced(text, lang = "") {
  const s = String(text);
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${s}\n${fence}`;
}

function partLines(p) {
  if (p.kind === "tool_use") {
    return [`tool_use ${codeSpan(p.name)} (id ${codeSpan(p.id)}):`, "", fenced(JSON.stringify(p.input, null, 2) ?? "null", "json")];
  }
  if (p.kind === "tool_result") {
    const head = `tool_result for ${codeSpan(p.id)}${p.error ? " (error)" : ""}:`;
    return [head, "", fenced(p.text)];
  }
  if (p.kind === "thinking") return [p.redacted ? "thinking (redacted)" : "thinking:", ...(p.redacted ? [] : ["", fenced(p.text, "text")])];
  return [fenced(p.text, "text")];
}

/** Lines for one message or response: its parts, each separated by a blank line. */
function partsBlock(parts) {
  const out = [];
  parts.forEach((p, i) => {
    if (i) out.push("");
    out.push(...partLines(p));
  });
  return out;
}

/**
 * The Markdown text. `at` = {block, file, line, code} (line within the displayed
 * function, null at the end of the run); `call` = null (no model call yet) or
 * {number, total, depth, messages: [{author, parts}], response: {stop, parts} | null,
 * error: {type, message} | null}; `locals` = [[name, text], …].
 */
export function conversationMarkdown({ at, call, locals }) {
  const out = [`## ${at.block}${call ? ` · model call ${call.number} of ${call.total}` : ""}`, ""];
  const where = at.line === null || at.line === undefined
    ? `${codeSpan(at.file)}, ${codeSpan(at.block)}: the run ended`
    : `${codeSpan(at.file)}, ${codeSpan(at.block)} line ${at.line}${at.code ? `: ${codeSpan(at.code.trim())}` : ""}`;
  out.push(`**Where:** ${where}`, "");
  if (call) {
    if (call.depth) out.push(`Subagent conversation, depth ${call.depth}.`, "");
    out.push(`### Messages sent (${call.messages.length})`, "");
    call.messages.forEach((m, i) => {
      out.push(`${i + 1}. **${m.author}**`, "");
      for (const line of partsBlock(m.parts)) out.push(line ? `   ${line.replace(/\n/g, "\n   ")}` : "");
      out.push("");
    });
    if (call.error) {
      out.push("### Error", "", `${codeSpan(call.error.type)}: ${call.error.message}`, "");
    } else if (call.response) {
      out.push(`### Response (stop_reason: ${call.response.stop ?? "?"})`, "", ...partsBlock(call.response.parts), "");
    } else {
      out.push("### Response", "", "(not returned yet at the cursor)", "");
    }
  }
  out.push("### Locals", "");
  if (!locals.length) out.push("(none)");
  for (const [name, value] of locals) out.push(`- ${codeSpan(name)} = ${codeSpan(value)}`);
  return `${out.join("\n")}\n`;
}
