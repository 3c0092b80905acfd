// "Copy as Markdown": the conversation shown, the cursor's file and line and the
// frame's locals (model/conversation-markdown.js) to the clipboard, or into the
// block's [data-role="markdown"] when the clipboard is not there or refuses.

import { SEL } from "../selectors.js";
import { conversationMarkdown } from "../model/conversation-markdown.js";
import { text as valueText } from "../model/values.js";
import { END } from "../model/stepping.js";

/** The Markdown of block `block` at its cursor, with the agent view's shown call `view`. */
export function markdownText(block, calls, view) {
  const root = block.root;
  const trace = block.trace;
  const atEnd = block.index === END;
  const i = atEnd ? trace.count - 1 : block.index;
  const line = atEnd ? null : trace.at(i).line;
  const at = {
    block: block.name,
    file: root.querySelector(SEL.blockPath)?.textContent ?? "",
    line,
    code: line === null ? "" : root.querySelector(SEL.lineN(line))?.textContent ?? "",
  };
  const call = view && {
    number: view.number, total: view.total, depth: view.depth,
    messages: view.messages.map((m) => ({ author: m.author, parts: calls.messageParts(m.id) })),
    response: view.response && { stop: view.response.stop, parts: calls.messageParts(view.response.id) },
    error: view.error,
  };
  const locals = [...block.replay.locals(i)].map(([name, value]) => [name, valueText(value)]);
  return conversationMarkdown({ at, call, locals });
}

/** Copy; on no clipboard (or a refusal) show the text. Resolves to "copied" or "shown". */
export async function copyMarkdown(text, { output, status }, messages) {
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    output.hidden = true;
    status.textContent = messages.get("copied_markdown");
    return "copied";
  } catch {
    output.textContent = text;
    output.hidden = false;
    status.textContent = messages.get("markdown_fallback");
    return "shown";
  }
}
