// The "Copy as Markdown" text: the place, the messages with their parts, the response,
// the locals; texts quoted so that Markdown inside them stays text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { conversationMarkdown, codeSpan, fenced } from "../../web/static/js/model/conversation-markdown.js";

const at = { block: "run_subagent", file: "s06/code.py", line: 15, code: "    reply = ask(messages)" };

test("a call with a tool round trip, its response and the locals", () => {
  const call = {
    number: 3, total: 3, depth: 0,
    messages: [
      { author: "user", parts: [{ kind: "text", text: "读取 main.py" }] },
      { author: "assistant", parts: [{ kind: "tool_use", id: "c0", name: "read_file", input: { path: "main.py" } }] },
      { author: "user", parts: [{ kind: "tool_result", id: "c0", text: "print(6 * 7)", error: false }] },
    ],
    response: { stop: "end_turn", parts: [{ kind: "text", text: "42" }] },
    error: null,
  };
  const md = conversationMarkdown({ at, call, locals: [["turn", "2"], ["messages", "[…]"]] });
  assert.equal(md, [
    "## run_subagent · model call 3 of 3",
    "",
    "**Where:** `s06/code.py`, `run_subagent` line 15: `reply = ask(messages)`",
    "",
    "### Messages sent (3)",
    "",
    "1. **user**",
    "",
    "   ```text",
    "   读取 main.py",
    "   ```",
    "",
    "2. **assistant**",
    "",
    "   tool_use `read_file` (id `c0`):",
    "",
    "   ```json",
    "   {",
    '     "path": "main.py"',
    "   }",
    "   ```",
    "",
    "3. **user**",
    "",
    "   tool_result for `c0`:",
    "",
    "   ```",
    "   print(6 * 7)",
    "   ```",
    "",
    "### Response (stop_reason: end_turn)",
    "",
    "```text",
    "42",
    "```",
    "",
    "### Locals",
    "",
    "- `turn` = `2`",
    "- `messages` = `[…]`",
    "",
  ].join("\n"));
});

test("before any call, at the end, a pending response, an error, a subagent", () => {
  const none = conversationMarkdown({ at: { ...at, line: null }, call: null, locals: [] });
  assert.match(none, /^## run_subagent\n\n\*\*Where:\*\* `s06\/code.py`, `run_subagent`: the run ended\n/);
  assert.match(none, /### Locals\n\n\(none\)\n$/);
  assert.doesNotMatch(none, /Messages sent/);
  const base = { number: 1, total: 2, depth: 1, messages: [], response: null, error: null };
  assert.match(conversationMarkdown({ at, call: base, locals: [] }), /not returned yet/);
  assert.match(conversationMarkdown({ at, call: base, locals: [] }), /Subagent conversation, depth 1\./);
  const failed = conversationMarkdown({ at, call: { ...base, error: { type: "RuntimeError", message: "down" } }, locals: [] });
  assert.match(failed, /### Error\n\n`RuntimeError`: down/);
  const err = conversationMarkdown({ at, call: { ...base, messages: [
    { author: "user", parts: [{ kind: "tool_result", id: "x", text: "no", error: true }] }] }, locals: [] });
  assert.match(err, /tool_result for `x` \(error\):/);
});

test("backticks inside texts and values stay inside their quotes", () => {
  assert.equal(codeSpan("a`b"), "`` a`b ``");
  assert.equal(codeSpan("plain"), "`plain`");
  assert.equal(codeSpan("two\nlines"), "`two lines`");
  assert.equal(fenced("```py\nx\n```"), "````\n```py\nx\n```\n````");
  const md = conversationMarkdown({ at, call: null, locals: [["s", "'`x`'"]] });
  assert.match(md, /- `s` = `` '`x`' ``/);
});
