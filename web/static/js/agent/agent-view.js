// The agent views of a block whose run made model calls: the conversation panel,
// the model and tool marks on the timeline, the previous / next model call buttons
// and the "model call K of N" status (docs/design.md, "Agent calls").
// Loaded only when such a trace arrives. Data reaches the DOM through textContent.

import { Calls, inputText } from "../model/agent-calls.js";
import { callerOf } from "../model/threads.js";
import { el } from "../page/dom.js";
import { loadStyle } from "../page/style.js";
import { BoundaryView } from "./boundary-view.js";
import { OriginView } from "./origin-view.js";
import { inFlightNode } from "./in-flight-view.js";
import { forkButton, toolNumbers, wireForks } from "./fork-button.js";
import { SEL } from "../selectors.js";
import { joinMarks, leaveMarks } from "../page/marks.js";

const FOLD_AT = 12;   // longer histories show the first message and the last FOLD_KEEP
const FOLD_KEEP = 6;
export const CALL_COMMANDS = Object.freeze(["prev-call", "next-call"]);
export const CALL_KEYS = Object.freeze({ "prev-call": "[", "next-call": "]" });

/** Set (or with `undefined` remove) `data-NAME` only when it changes. */
function setData(node, name, value) {
  if (node.dataset[name] === value) return;
  if (value === undefined) delete node.dataset[name];
  else node.dataset[name] = value;
}

export class AgentView {
  /** `go(step)` moves the block's cursor to a step; `block` is the block shown (for its cursor). */
  constructor(root, trace, messages, go, block) {
    this.root = root;
    this.block = block;
    this.trace = trace;
    this.messages = messages;
    this.calls = new Calls(trace.agent);
    this.nodes = new Map(); // pool message id → its element
    this.unfolded = new Set(); // conversations the reader unfolded
    this.toolNames = this.pairTools();
    this.toolNumbers = toolNumbers(this.calls.tools, this.calls.pool);
    this.shown = null;
    this.origins = new OriginView(this.calls, trace.agent, messages, go, () => this.shown);
    loadStyle("agent");
    this.buildButtons();
    this.buildMarks(go);
    this.buildPanel();
    const flying = inFlightNode(this.calls, messages, go);   // begun, never answered
    if (flying) this.pane.append(flying);
  }

  /** The step of the previous / next model call (`prev-call`, `next-call`), or null. */
  target(command, index) {
    return this.calls.target(command === "prev-call" ? "prev" : "next", index, this.pinned);
  }

  /** Go to the previous / next model call: pin it (its step may hold several), return its step. */
  hop(command, index) {
    const k = this.calls.hop(command === "prev-call" ? "prev" : "next", index, this.pinned);
    if (k < 0) return null;
    this.pinned = k;
    this.index = undefined; // redraw even when the step stays the same
    return this.calls.steps[k];
  }

  /** " · model call K of N" while a cursor is shown after the first call, else "". */
  statusSuffix(index) {
    if (index === null || index === undefined) return "";
    const k = this.calls.shownAt(index, this.pinned);
    if (k < 0) return "";
    return this.messages.format("status_model_call", { k: k + 1, n: this.calls.count });
  }

  detach() {
    for (const node of [this.pane, ...this.buttons]) node.remove();
    leaveMarks(this.marks, "marks_label", this.markNodes, this.messages);
  }

  // ---- building once per trace -----------------------------------------------

  pairTools() {
    const names = new Map();
    for (const [, content] of this.calls.pool) {
      if (typeof content === "string") continue;
      for (const p of content) if (Array.isArray(p) && p[0] === "tool_use") names.set(p[1], p[2]);
    }
    return names;
  }

  buildButtons() {
    const m = this.messages;
    const after = this.root.querySelector(SEL.actionNamed("step-back"));
    this.buttons = CALL_COMMANDS.map((command) => {
      const button = el("button", { class: "call-button" }, m.get(command));
      button.type = "button";
      button.dataset.action = command;
      button.disabled = true;
      button.title = m.format("call_key", { key: CALL_KEYS[command] });
      button.setAttribute("aria-keyshortcuts", CALL_KEYS[command]);
      return button;
    });
    after.after(...this.buttons);
  }

  buildMarks(go) {
    const m = this.messages;
    const max = Math.max(1, this.trace.count - 1);
    this.markAt = new Map();
    this.pinned = null;
    const nodes = this.calls.marks().map((mark) => {
      const node = el("button", { class: `mark mark-${mark.kind}` });
      node.type = "button";
      node.tabIndex = -1;
      node.dataset.mark = mark.kind;
      node.dataset.step = String(mark.step);
      if (mark.kind === "model") node.dataset.call = String(mark.number - 1);
      node.style.left = `${(Math.min(mark.step, max) / max) * 100}%`;
      let label = mark.kind === "model"
        ? m.format("mark_model", { n: mark.number }) : m.format("mark_tool", { name: mark.name });
      if (mark.differs !== null) {   // a tolerant replay's difference (docs/recordings.md)
        node.dataset.differs = mark.differs;
        label += ` · ${m.format("call_differs", { path: mark.differs })}`;
      }
      node.setAttribute("aria-label", label);
      node.title = label;
      if (mark.kind === "tool") node.dataset.tool = mark.name;
      else this.markAt.set(mark.number - 1, node);
      node.addEventListener("click", () => {
        if (node.dataset.call !== undefined) {
          this.pinned = Number(node.dataset.call);
          this.index = undefined;
        }
        go(Number(node.dataset.step));
      });
      return node;
    });
    this.markNodes = nodes;
    this.marks = joinMarks(this.root, "marks_label", m);   // shared with the thread switches
    this.marks.append(...nodes);
  }

  buildPanel() {
    this.pane = el("section", { class: "pane conversation-pane" });
    this.pane.append(el("h3", {}, this.messages.get("conversation")), this.buildCopy());
    this.panel = el("div", { class: "conversation" });
    this.panel.dataset.role = "conversation";
    this.panel.hidden = true;
    this.crumbs = el("ol", { class: "crumbs" });
    this.crumbs.dataset.role = "breadcrumb";
    this.crumbs.setAttribute("aria-label", this.messages.get("conversation_levels"));
    this.head = el("p", { class: "call-head" });
    this.unfold = el("button", { class: "unfold" });
    this.unfold.type = "button";
    this.unfold.dataset.role = "unfold";
    this.unfold.addEventListener("click", () => {
      if (this.shown) this.unfolded.add(this.shown.conversation);
      this.draw(this.index);
    });
    this.list = el("ol", { class: "messages" });
    this.list.tabIndex = 0; // it scrolls: keyboard users reach it too
    this.tail = el("div", { class: "response-slot" });
    this.boundary = new BoundaryView(this.calls, this.messages, this.trace);
    this.origins.listen(this.list);
    this.panel.append(this.crumbs, this.boundary.node, this.head, this.origins.note, this.unfold,
      this.list, this.tail);
    this.pane.append(this.panel);
    if (this.block) wireForks(this.pane, this.block);
    this.root.querySelector(SEL.panes).append(this.pane);
  }

  /** The "Copy as Markdown" button, its status line and the text shown without a clipboard. */
  buildCopy() {
    const m = this.messages;
    const box = el("div", { class: "copy-markdown" });
    const button = el("button", { class: "copy-button" }, m.get("copy_markdown"));
    button.type = "button";
    button.dataset.action = "copy-markdown";
    const status = el("p", { class: "copy-status" });
    status.setAttribute("role", "status");
    const output = el("pre", { class: "markdown-text" });
    output.dataset.role = "markdown";
    output.tabIndex = 0;
    output.hidden = true;
    button.addEventListener("click", async () => {
      const { markdownText, copyMarkdown } = await import("./markdown-copy.js"); // on first use
      if (!this.block?.trace || this.block.index === null) return;
      copyMarkdown(markdownText(this.block, this.calls, this.shownAt()), { output, status }, m);
    });
    box.append(button, status, output);
    return box;
  }

  /** The call shown at the block's cursor now (drawn or not). */
  shownAt() {
    const index = this.block.index;
    return index === null ? null : this.calls.view(index, this.pinned);
  }

  // ---- per cursor move -----------------------------------------------------------

  /** Show the cursor `index` (a step, END, or null when no run is shown). */
  render(index) {
    if (index === this.index) return;
    this.index = index;
    this.draw(index);
    this.boundary.update(this.shown ? this.shown.number - 1 : -1, index);
  }

  draw(index) {
    if (this.pinned !== null && (index === null || this.calls.steps[this.pinned] !== index)) {
      this.pinned = null;
    }
    const started = performance.now();
    const view = index === null ? null : this.calls.view(index, this.pinned);
    const key = view && `${view.number}:${Boolean(view.response || view.error)}:${this.unfolded.has(view.conversation)}`;
    if (view && key === this.drawn) return;   // the same call, as shown already
    this.drawn = key;
    this.fill(view);
    performance.clearMeasures("loopstep:conversation");
    performance.measure("loopstep:conversation", { start: started }); // read by bench/agent_calls.py
  }

  fill(view) {
    const current = view ? this.markAt.get(view.number - 1) : null;
    if (this.current !== current) {
      this.current?.removeAttribute("aria-current");
      current?.setAttribute("aria-current", "true");
      this.current = current;
    }
    this.shown = view;
    this.origins.update(view ? view.number - 1 : null);
    if (!view) {
      this.panel.hidden = true;
      return;
    }
    const m = this.messages;
    this.panel.hidden = false;
    this.panel.dataset.depth = String(view.depth);
    const agent = this.threadOf(view);
    this.crumbs.replaceChildren(...view.levels.map((depth, i) => {
      const li = el("li", {}, depth === 0 ? (agent ? m.format("level_peer", { name: agent })
        : m.get("level_main")) : m.format("level_sub", { depth }));
      if (i === view.levels.length - 1) li.setAttribute("aria-current", "true");
      return li;
    }));
    this.head.textContent = m.plural("call_head", "count", { k: view.number, n: view.total,
      count: view.messages.length });
    const fold = view.messages.length > FOLD_AT && !this.unfolded.has(view.conversation);
    const hiddenCount = fold ? view.messages.length - FOLD_KEEP - 1 : 0;
    this.unfold.hidden = !fold;
    this.unfold.textContent = m.plural("unfold", "n", { n: hiddenCount });
    const used = new Set();
    const nodes = view.messages.map((message, i) => {
      let node = this.nodes.get(message.id);
      if (!node) {
        node = this.messageNode(message.id, message.author);
        this.nodes.set(message.id, node);
      }
      if (used.has(node)) node = node.cloneNode(true);
      used.add(node);
      setData(node, "message", String(i));
      this.origins.nameMessage(node, i + 1, this.authorName(message.author));
      setData(node, "new", message.isNew ? "true" : undefined);
      const hidden = fold && i > 0 && i < view.messages.length - FOLD_KEEP;
      if (node.hidden !== hidden) node.hidden = hidden;
      return node;
    });
    // keep the nodes already in place (a later call of a conversation shares its start)
    const children = this.list.children;
    let same = 0;
    while (same < nodes.length && same < children.length && children[same] === nodes[same]) same++;
    while (children.length > same) children[children.length - 1].remove();
    this.list.append(...nodes.slice(same));
    this.tail.replaceChildren(this.responseNode(view));
  }

  /** In a run that started threads or tasks: `data-thread` on the panel, the thread (or
   * asyncio task) that made the call shown, and `data-agent` when that is not the main
   * thread (a peer agent: a loop a thread runs, such as a teammate's). Returns the peer
   * agent's name, or null. */
  threadOf(view) {
    const caller = callerOf(this.trace, this.calls.calls[view.number - 1].step);
    setData(this.panel, "thread", caller?.thread);
    setData(this.panel, "agent", caller?.agent ?? undefined);
    return caller?.agent ?? null;
  }

  /** An author as the panel names it. */
  authorName(author) {
    return ["user", "assistant", "system"].includes(author) ? this.messages.get(`author_${author}`) : author;
  }

  messageNode(id, author) {
    const m = this.messages;
    const node = el("li", { class: "message" });
    node.dataset.author = author;
    const head = el("p", { class: "message-head" });
    head.append(el("span", { class: "author" }, this.authorName(author)),
      el("span", { class: "new-badge" }, m.get("new_message")), this.origins.messageButton());
    node.append(head, ...this.calls.messageParts(id).map((p, i) => this.partNode(p, id, i)));
    return node;
  }

  /** Part `p` (part `index` of pool message `id` when it is one). */
  partNode(p, id = null, index = null) {
    const m = this.messages;
    // a thinking block is collapsed: the reader opens it
    const node = el(p.kind === "thinking" ? "details" : "div", { class: `part part-${p.kind}` });
    node.dataset.part = "";
    node.dataset.kind = p.kind;
    if (p.kind === "text") {
      node.append(el("p", { class: "part-text" }, p.text));
    } else if (p.kind === "thinking") {
      if (p.redacted) node.dataset.redacted = "true";
      node.append(el("summary", { class: "part-head" }, m.get(p.redacted ? "thinking_redacted" : "thinking")),
        el("pre", { class: "part-thinking-text" }, p.text));
    } else if (p.kind === "raw") {
      node.append(el("p", { class: "part-head" }, m.get("raw_part")), el("pre", { class: "part-raw" }, p.text));
    } else if (p.kind === "tool_use") {
      node.dataset.tool = p.name;
      node.dataset.toolId = p.id;
      node.append(el("p", { class: "part-head" }, m.format("tool_use_head", { name: p.name, id: p.id })),
        el("pre", { class: "part-input" }, inputText(p.input)));
    } else {
      node.dataset.toolId = p.id;
      if (p.error) node.dataset.error = "true";
      const name = this.toolNames.get(p.id) ?? "?";
      const head = m.format(p.error ? "tool_error_head" : "tool_result_head", { name, id: p.id });
      const top = el("p", { class: "part-head" }, head);
      top.append(" ", this.origins.partButton(name, p.id));
      node.append(top, el("pre", { class: "part-result" }, p.text));
      if (id !== null) this.markTool(node, this.origins.partTool(id, index));
      const k = this.toolNumbers.get(p.id);
      if (k && this.block) node.append(forkButton(`tool:${k}`, m));
    }
    return node;
  }

  /** Where a tool result came from: `data-recorded` when the program got it from the
   * recording (`data-cut` / `data-length` when the recording's source cut it),
   * `data-stand-in` when a command ran in the stand-in world during the call,
   * `data-differs` when a tolerant replay answered a call the recording holds otherwise. */
  markTool(node, tool) {
    if (!tool) return;
    const m = this.messages;
    const notes = [];
    if (tool.recorded) {
      node.dataset.recorded = "true";
      notes.push(el("span", { class: "part-recorded" }, m.get("part_recorded")));
    }
    if (tool.recorded && tool.source_cut) {
      node.dataset.cut = "true";
      const length = tool.source_cut.length;
      if (length !== null && length !== undefined) node.dataset.length = String(length);
      notes.push(el("span", { class: "part-cut" }, length === null || length === undefined
        ? m.get("part_cut_unknown") : m.format("part_cut", { length })));
    }
    if (tool.stand_in) {
      node.dataset.standIn = "true";
      notes.push(el("span", { class: "part-stand-in" }, m.get("part_stand_in")));
    }
    if (tool.differs) {
      node.dataset.differs = tool.differs;
      notes.push(el("span", { class: "part-differs" }, m.format("call_differs", { path: tool.differs })));
    }
    if (!notes.length) return;
    const line = el("p", { class: "part-notes" });
    line.append(...notes);
    node.append(line);
  }

  responseNode(view) {
    const m = this.messages;
    if (view.error) {
      const node = el("p", { class: "call-error" }, m.format("call_error", view.error));
      node.dataset.role = "call-error";
      return node;
    }
    if (!view.response) return el("p", { class: "waiting" }, m.get("waiting_response"));
    const node = el("div", { class: "response" });
    node.dataset.role = "response";
    node.dataset.stopReason = view.response.stop ?? "";
    node.append(el("p", { class: "message-head" }, m.format("response_head", { reason: view.response.stop ?? "?" })));
    if (view.differs !== null) {   // a tolerant replay answered a request that differs
      node.dataset.differs = view.differs;
      node.append(el("p", { class: "call-differs" }, m.format("call_differs", { path: view.differs })));
    }
    node.append(...this.calls.messageParts(view.response.id).map((p) => this.partNode(p)));
    if (this.block) node.append(forkButton(`model:${view.number}`, m));
    return node;
  }
}
