// Rendering of one block's panes: source cursor, variables, stack, output,
// timeline, buttons. Stateless functions of what the block controller knows.
// Data reaches the DOM through textContent only.

import { SEL } from "../selectors.js";
import { END } from "../model/stepping.js";
import { render as renderValue } from "./value-view.js";
import { el } from "./dom.js";
import { showText } from "./invisible.js";
import { statusText } from "./block-status.js";
import { markDrawn } from "./run-views.js";

const TICK_BUCKETS = 200;

// ./ansi.js is imported the first time the output holds an escape sequence: it is not
// needed before the runtime is ready (docs/performance.md, "Critical path budget").
let ansi = null;
const shownText = new WeakMap(); // the output each <pre> is to show, the latest call's

// The output is laid out in parts (span.output-part, an inline block as wide as the pane)
// of about PART characters, each ending after a newline: a step that printed lays out its
// last parts again, not the whole output (at most the recorder's MAX_OUTPUT_CHARS).
const PART = 16_384;
const partText = new WeakMap();  // part → its slice of the output
const partStyle = new WeakMap(); // part → the terminal style at its end (ansi.js), or null
const plainPart = (part, slice) => { showText(part, slice); return null; };

/** Where the part that starts at `i` ends: after the first newline PART characters on
 * (a line longer than 4 × PART is cut there, between two characters). */
function partEnd(text, i) {
  if (text.length - i <= PART) return text.length;
  const newline = text.indexOf("\n", i + PART - 1);
  let end = newline < 0 ? text.length : newline + 1;
  if (end - i > 4 * PART) {
    end = i + 4 * PART;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code < 0xdc00) end += 1; // not between the halves of a pair
  }
  return end;
}

/** Show `text` in `pre`: the parts it shows that hold the text at their place stay,
 * the rest are made by `fill(part, slice, style at its start)`, which returns the style
 * at its end. */
function showParts(pre, text, fill) {
  if (pre.firstChild && !partText.has(pre.firstChild)) pre.replaceChildren();
  let i = 0;
  let last = null;
  for (const part of pre.children) {
    const slice = partText.get(part);
    const end = partEnd(text, i);
    if (slice === undefined || i >= text.length || end - i !== slice.length
        || !text.startsWith(slice, i)) break;
    last = part;
    i = end;
  }
  while (pre.lastChild && pre.lastChild !== last) pre.lastChild.remove();
  let style = last ? partStyle.get(last) : null;
  const made = document.createDocumentFragment();
  while (i < text.length) {
    const end = partEnd(text, i);
    const part = document.createElement("span");
    part.className = "output-part";
    const slice = text.slice(i, end);
    style = fill(part, slice, style);
    partText.set(part, slice);
    partStyle.set(part, style);
    made.append(part);
    i = end;
  }
  pre.append(made);
  // a long output's parts are laid out only when scrolled to (panes.css); a short one's,
  // at once (its text is then the element's rendered text too)
  if (pre.children.length > 1) pre.dataset.parts = "many";
  else delete pre.dataset.parts;
}

function fillOutput(pre, text) {
  shownText.set(pre, text);
  if (!text.includes("\x1b")) {
    showParts(pre, text, plainPart);
    return;
  }
  ansi ??= import("./ansi.js");
  ansi.then(({ fillFrom }) => {
    if (shownText.get(pre) === text) showParts(pre, text, fillFrom);
  }, () => {
    if (shownText.get(pre) === text) showParts(pre, text, plainPart); // not styled, not lost
  });
}

/** Mark the current step's lines (aria-current="step") and an error line. */
export function renderLines(root, range, errorLine) {
  for (const line of root.querySelectorAll(SEL.line)) {
    const n = Number(line.dataset.line);
    if (range && n >= range.line && n <= range.end) line.setAttribute("aria-current", "step");
    else line.removeAttribute("aria-current");
    if (errorLine === n) line.dataset.error = "true";
    else delete line.dataset.error;
  }
}

/** Scroll the first current line into view inside its code box, without moving the page. */
export function revealCurrent(root) {
  const line = root.querySelector(SEL.current);
  const box = root.querySelector(SEL.code);
  if (!line || !box) return;
  const top = line.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - line.offsetHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }
}

/**
 * Variables: one `[data-var]` row per bound local, changed ones marked; then the
 * return value or the exception of a return/exception step. In a module's frame of a
 * block that lists its module's own names (`own`), the other names — the setup's — are
 * folded into one disclosure after them.
 */
export function renderVariables(container, { locals, changed, step, own }, messages) {
  const rows = [];
  const setupRows = [];
  for (const [name, value] of locals ?? []) {
    const node = row(name, value, changed?.has(name), messages, { var: name });
    if (own && step?.fn === "<module>" && !own.has(name)) setupRows.push(node);
    else rows.push(node);
  }
  if (setupRows.length) rows.push(setupNames(setupRows, messages));
  if (step?.event === "return" && "ret" in step) {
    rows.push(row(messages.get("returned"), step.ret, true, messages, { special: "return" }));
  }
  if (step?.event === "exception" && step.exc) {
    rows.push(row(messages.get("raised"), `${step.exc.type}: ${step.exc.message}`, true, messages,
      { special: "exception" }));
  }
  if (!rows.length && locals) rows.push(el("p", { class: "empty" }, messages.get("no_variables")));
  container.replaceChildren(...rows);
}

/** The setup's names of a module frame, folded: a summary naming how many, then their rows. */
function setupNames(rows, messages) {
  const details = el("details", { class: "setup-names" });
  details.dataset.role = "setup-names";
  details.append(el("summary", {}, messages.format("setup_names", { n: rows.length })), ...rows);
  return details;
}

const LONG = 48; // characters: a longer (or multi-line) value folds to one line with a disclosure

function row(name, value, changed, messages, data) {
  const { value: valueEl, tree } = renderValue(value, messages);
  const nameEl = el("span", { class: "var-name" }, name);
  const node = el("div", { class: "var" }); // the row holds the line and, beside it, the row's own buttons
  const full = valueEl.textContent;
  if (tree || full.length > LONG || full.includes("\n")) {
    // one line, clipped by CSS; the <summary> opens the items or the whole text
    const details = el("details", { class: "var-tree" });
    const summary = el("summary", { class: "var-line" });
    summary.append(nameEl, valueEl);
    details.append(summary, tree ?? el("pre", { class: "var-full" }, full));
    node.append(details);
  } else {
    const line = el("div", { class: "var-line" });
    line.append(nameEl, valueEl);
    node.append(line);
  }
  if (data.var !== undefined) node.dataset.var = data.var;
  if (data.special) node.dataset.special = data.special;
  if (changed) node.dataset.changed = "true";
  return node;
}

/** Call stack, outermost first; frames outside the displayed source greyed. */
export function renderStack(container, frames, messages) {
  const items = frames.map((f) => {
    const li = el("li", { class: "frame" });
    li.dataset.frame = f.name;
    if (f.hidden) li.dataset.hidden = "true";
    if (f.task) li.dataset.task = "true";   // an asyncio task between its coroutines' frames
    if (f.current) li.setAttribute("aria-current", "true");
    li.append(el("span", { class: "frame-name" }, f.name));
    const where = f.task ? messages.format("frame_task")
      : f.hidden ? `${f.file ?? ""}:${f.line}`
      : messages.format("frame_line", { line: f.line });
    li.append(el("span", { class: "frame-where" }, where));
    return li;
  });
  container.replaceChildren(...items);
}

/** Output so far, and the exception that left the displayed function once shown. */
export function renderOutput(root, { text, error, shown }, messages) {
  const pre = root.querySelector(SEL.output);
  fillOutput(pre, text);
  const hint = root.querySelector(SEL.outputHint);
  if (hint) hint.hidden = shown;
  let note = root.querySelector(SEL.exception);
  if (!error) {
    note?.remove();
    return;
  }
  if (!note) {
    note = el("p", { class: "exception" });
    note.dataset.role = "exception";
    pre.after(note);
  }
  showText(note, messages.format("exception_at", {
    type: error.type, message: error.message, line: error.line,
  }));
}

/** Timeline slider over the steps, with ticks where breakpoints are hit. */
export function renderTimeline(root, { total, index, hits }, messages) {
  const input = root.querySelector(SEL.timeline);
  const ticks = root.querySelector(SEL.ticks);
  const count = root.querySelector(SEL.stepCount);
  const max = Math.max(0, total - 1);
  input.max = String(max);
  input.disabled = total === 0;
  const at = index < 0 ? max : index;
  input.value = String(at);
  input.setAttribute("aria-valuetext", total ? messages.format("step_of", { step: at + 1, total }) : "");
  if (count) count.textContent = total ? messages.format("step_of", { step: at + 1, total }) : "";
  if (ticks && hits !== undefined) renderTicks(ticks, hits, max);
}

const drawnTicks = new WeakMap(); // ticks element → [hits, max] last drawn

function renderTicks(ticks, hits, max) {
  const drawn = drawnTicks.get(ticks);
  if (drawn && drawn[0] === hits && drawn[1] === max) return; // a step moves no tick
  drawnTicks.set(ticks, [hits, max]);
  const buckets = new Set();
  for (const h of hits) buckets.add(max ? Math.round((h / max) * TICK_BUCKETS) : 0);
  const nodes = [...buckets].sort((a, b) => a - b).map((b) => {
    const tick = el("span", { class: "tick" });
    tick.style.left = `${(b / TICK_BUCKETS) * 100}%`;
    return tick;
  });
  ticks.replaceChildren(...nodes);
}

/** The block's whole view: its state, status, buttons (the `enabled` ones of
 * `commands`), breakpoints, run and the views it holds (event breakpoints, agent,
 * omniscient, what-if). */
export function renderBlock(block, enabled, commands) {
  const root = block.root;
  root.dataset.state = block.state;
  if (block.trace?.partial) root.dataset.streaming = String(block.trace.count); // block-stream.js
  else delete root.dataset.streaming;
  const callStatus = block.state === "paused" ? block.agent?.statusSuffix(block.index) : "";
  showText(root.querySelector(SEL.status), statusText(block) + (callStatus ?? ""));
  renderButtons(root, enabled, commands);
  renderBreakpoints(root, block.breakpoints);
  block.events.render();
  renderScheduleNotice(root, block.failure?.kind === "schedule-unsupported", block.messages);
  const at = renderRun(block);
  block.agent?.render(at);
  block.workspace?.render(block.workspace.trace === block.trace ? at : null);
  block.threads?.render(block.threads.trace === block.trace ? at : null);
  block.omni.render();
  block.whatif?.render();
  markDrawn(block, at); // data-drawn: the step, once drawn with every view of its run
}

/** Below the status, while the block's run was not run because it starts threads and
 * this browser cannot suspend Python stacks (no JSPI): why, and that a preset's shipped
 * trace still steps (the contract's [data-role="schedule-unsupported"]). */
function renderScheduleNotice(root, shown, messages) {
  const note = root.querySelector(SEL.scheduleUnsupported);
  if (!shown) note?.remove();
  else if (!note) {
    root.querySelector(SEL.status).after(el("p",
      { class: "schedule-unsupported", "data-role": "schedule-unsupported" },
      messages.get("schedule_unsupported")));
  }
}

/** The reader's input on the block's own controls, as requests to its actions. */
export function wire(block) {
  const root = block.root;
  root.addEventListener("click", (event) => {
    const button = event.target.closest(SEL.button);
    if (!button || !root.contains(button)) return;
    if (button.dataset.gutter) block.toggleBreakpoint(Number(button.dataset.gutter));
    else if (button.dataset.action) block.command(button.dataset.action);
  });
  root.querySelector(SEL.eventForm)?.addEventListener("submit", (event) => {
    event.preventDefault();
    block.loadEvents().then((events) => events.submit(event.target));
  });
  root.querySelector(SEL.scenario).addEventListener("change", (event) => {
    block.chooseScenario(event.target.value); // the reader's switch of input
  });
  root.querySelector(SEL.timeline).addEventListener("input", (event) => {
    block.seek(Number(event.target.value));
  });
  root.querySelector(SEL.compare)?.addEventListener("change", (event) => {
    block.loadWhatIf().then((w) => w.compare(event.target.value));
  });
  // recording files in and out (recording/recording-file.js, on first use)
  const recordingFiles = () => import("../recording/recording-file.js");
  root.querySelector(SEL.recordingFile)?.addEventListener("change", (event) => {
    const input = event.target;
    const file = input.files?.[0];
    recordingFiles().then(({ loadFile }) => loadFile(block, file)).finally(() => { input.value = ""; });
  });
  for (const type of ["focus", "pointerdown"]) {
    root.querySelector(SEL.recordingFile)?.addEventListener(type, () => {
      recordingFiles().then(({ prepare }) => prepare(block));
    });
  }
  root.querySelector(SEL.actionNamed("download-recording"))?.addEventListener("click", () => {
    recordingFiles().then(({ download }) => download(block));
  });
  // a live run against a real model, where the site enables them (live/live-form.js)
  const liveForm = root.querySelector(SEL.liveForm);
  const live = block.client?.bootMessage?.config?.runtime?.live;
  if (liveForm && live) import("../live/live-form.js").then(({ attach }) => attach(block, liveForm, live));
}

/** Of the toolbar commands `commands`, enable exactly the ones `enabled` names. */
export function renderButtons(root, enabled, commands) {
  for (const button of root.querySelectorAll(SEL.action)) {
    if (!commands.includes(button.dataset.action)) continue; // a view's own button (copy, remove)
    button.disabled = !enabled.has(button.dataset.action);
  }
}

/** Breakpoint markers on the gutter buttons. */
export function renderBreakpoints(root, breakpoints) {
  for (const button of root.querySelectorAll(SEL.gutter)) {
    const on = breakpoints.has(Number(button.dataset.gutter));
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

const drawnPanes = new WeakMap(); // block root → {trace, i, ended}: the variables and stack shown

/** The run's panes at the block's cursor: setup text, source cursor, variables, stack,
 * output, timeline. Returns the cursor's index, or null when no run is shown. */
export function renderRun(block) {
  const root = block.root;
  const setup = root.querySelector(SEL.setupCode);
  const setupText = block.config.setup?.[block.scenario];
  if (setup && setupText !== undefined && setup.textContent !== setupText) showText(setup, setupText);
  const shown = block.trace && block.index !== null;
  root.toggleAttribute("data-shown", Boolean(shown)); // the run's panes show (panes.css)
  const at = shown ? block.index : null;
  const s = shown && at !== END ? block.trace.at(at) : null;
  const last = shown ? block.trace.at(block.trace.count - 1) : null;
  // the thread that ran the cursor's step, in a run with more than one
  const threads = block.trace?.threads;
  const thread = s && threads?.length > 1 ? threads[block.trace.thread(at)]?.name : null;
  if (thread) root.dataset.thread = thread;
  else delete root.dataset.thread;
  renderLines(root, s, shown && at === END ? block.trace.error?.line : undefined);
  const vars = root.querySelector(SEL.variables);
  const stack = root.querySelector(SEL.stack);
  if (shown && (s || last)) {
    const own = s ? at : block.trace.count - 1;
    // the thread the reader chose in the threads pane: its own last step (threads-view.js)
    const i = block.threads?.trace === block.trace ? block.threads.shownStep(at, own) : own;
    // drawn again only for another step: a render for anything else (the runtime ready,
    // a view loaded) keeps the value trees the reader opened
    const drawn = drawnPanes.get(root);
    if (drawn?.trace !== block.trace || drawn.i !== i || drawn.ended !== !s) {
      drawnPanes.set(root, { trace: block.trace, i, ended: !s });
      renderVariables(vars, {
        locals: block.replay.locals(i), changed: block.replay.changed(i),
        step: i === own ? s ?? last : block.trace.at(i),
        own: block.ownNames,
      }, block.messages);
      renderStack(stack, s ? block.replay.stack(i) : [], block.messages);
    }
  } else {
    drawnPanes.delete(root);
    vars.replaceChildren();
    stack.replaceChildren();
  }
  renderOutput(root, {
    text: shown ? block.replay.output(at) : "",
    error: shown && at === END ? block.trace.error : null,
    shown: Boolean(shown),
  }, block.messages);
  renderTimeline(root, {
    total: shown ? block.trace.count : 0, index: shown ? at : 0, hits: shown ? block.hits : [],
  }, block.messages);
  return shown ? at : null;
}
