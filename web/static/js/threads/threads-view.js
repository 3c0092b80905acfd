// The threads pane of a block whose run started threads or asyncio tasks (docs/design.md,
// "Threads"): each thread and task of the run with its state at the cursor (one the run starts later: not
// started), the one that ran the cursor's step marked current; choosing one shows its
// stack and variables at the cursor (those of its own last step before it) in the block's
// stack and variables panes, until the cursor moves. And the timeline's marks where the
// running thread changes, each with a fork button where the scheduler chose the thread
// (another runnable thread chosen there: a fork of the run's schedule), and the schedule
// the run followed. Loaded only when such a trace arrives (run-views.js). Data
// reaches the DOM through textContent.

import { Threads } from "../model/threads.js";
import { END } from "../model/stepping.js";
import { el } from "../page/dom.js";
import { showText } from "../page/invisible.js";
import { loadStyle } from "../page/style.js";
import { SEL } from "../selectors.js";
import { joinMarks, leaveMarks } from "../page/marks.js";
import { switchPointAt } from "../model/schedule.js";

/** Seconds of the run's clock as the pane shows them ("1.5"). */
const seconds = (until) => String(Math.round(until * 1000) / 1000);

/** A thread's state in words: "blocked on Lock.acquire", "sleeping until 1.5 s (model)". */
export function stateText(thread, messages) {
  const m = messages;
  const values = { on: thread.on ?? "", until: thread.until === null ? "" : seconds(thread.until) };
  if (thread.state === "blocked") {
    return m.format(thread.until === null ? "thread_blocked" : "thread_blocked_until", values);
  }
  if (thread.state === "sleeping") {
    return m.format(thread.until === null ? "thread_blocked" : "thread_sleeping", values);
  }
  return m.get(`thread_${thread.state.replace("-", "_")}`);
}

export class ThreadsView {
  constructor(block, trace) {
    this.block = block;
    this.trace = trace;
    this.model = new Threads(trace);
    this.chosen = null;     // the thread the reader chose, at cursor chosenAt
    this.chosenAt = null;
    this.drawn = null;
    loadStyle("threads");
    this.buildPane();
    this.buildMarks();
  }

  detach() {
    this.pane.remove();
    leaveMarks(this.marks, "marks_switch_label", this.markNodes, this.block.messages);
  }

  /** The thread whose stack and variables the panes show at cursor `at` (null: none). */
  shownThread(at) {
    if (this.chosen !== null && at === this.chosenAt) return this.chosen;
    return this.model.running(at);
  }

  /** The step whose stack and variables the panes show at cursor `at` (`i`: the block's own). */
  shownStep(at, i) {
    if (this.chosen === null || at !== this.chosenAt) return i;
    const j = this.model.lastStep(this.chosen, at);
    return j >= 0 ? j : i;
  }

  /** The reader chose thread `k`: its stack and variables at the cursor. */
  choose(k) {
    if (this.block.index === null) return;
    this.chosen = k;
    this.chosenAt = this.block.index;
    this.drawn = null;
    this.block.render();
  }

  buildPane() {
    const m = this.block.messages;
    this.pane = el("section", { class: "pane run-pane threads-pane" });
    const heading = el("h3", {}, m.get("threads"));
    heading.id = `threads-${this.block.root.id}`;
    this.list = el("ul", { class: "threads" });
    this.list.dataset.role = "threads";
    this.list.setAttribute("aria-labelledby", heading.id);
    this.note = el("p", { class: "threads-note" });
    this.note.dataset.role = "thread-shown";
    // one button per thread, kept from step to step (the reader's focus stays on it)
    this.items = this.model.list.map((thread, k) => {
      const button = el("button", { class: "thread" });
      button.type = "button";
      button.dataset.thread = thread.name;
      button.dataset.index = String(k);
      const state = el("span", { class: "thread-state" });
      button.append(el("span", { class: "thread-name" }, thread.name), state);
      if (thread.daemon) button.append(el("span", { class: "thread-daemon" }, m.get("thread_daemon")));
      if (thread.task) button.append(el("span", { class: "thread-task" }, m.get("thread_task")));
      button.addEventListener("click", () => this.choose(k));
      const li = el("li");
      li.append(button);
      return { li, button, state };
    });
    // the schedule the run followed (the preset's pinned one, a fork's, or the default)
    this.schedule = el("p", { class: "threads-schedule" });
    this.schedule.dataset.role = "schedule";
    const text = this.trace.schedule?.text ?? "";
    showText(this.schedule, text ? m.format("schedule_shown", { text }) : m.get("schedule_default"));
    this.pane.append(heading, this.list, this.note, this.schedule);
    const panes = this.block.root.querySelector(SEL.panes);
    const variables = panes.querySelector(SEL.variables)?.closest(".pane");
    if (variables) variables.before(this.pane);
    else panes.append(this.pane);
  }

  buildMarks() {
    const m = this.block.messages;
    const max = Math.max(1, this.trace.count - 1);
    this.forks = new Map();   // step → the fork button of its mark
    this.markNodes = this.model.switches().map(({ step, thread }) => {
      const name = this.model.name(thread);
      const node = el("button", { class: "mark mark-switch" });
      node.type = "button";
      node.tabIndex = -1;   // the timeline is the keyboard's way along the run
      const label = m.format("mark_switch", { name, step: step + 1 });
      node.setAttribute("aria-label", label);
      node.title = label;
      node.addEventListener("click", () => this.block.seek(step));
      // the mark: its tick and, where the scheduler chose there, a fork at its switch point
      const mark = el("span", { class: "mark-switch-at" });
      mark.dataset.mark = "switch";
      mark.dataset.step = String(step);
      mark.dataset.thread = name;
      mark.style.left = `${(Math.min(step, max) / max) * 100}%`;
      mark.append(node);
      const point = switchPointAt(this.trace, step);
      if (point) mark.append(this.forkButton(point, step));
      return mark;
    });
    // the group the agent views' marks share (page/marks.js)
    this.marks = joinMarks(this.block.root, "marks_switch_label", m);
    this.marks.append(...this.markNodes);
  }

  /** The fork button of switch point `point` (its mark at `step`): opens the fork editor
   * offering the threads runnable there (whatif/fork-editor.js). In the keyboard's way only
   * while the cursor is in the turn it began (render). */
  forkButton(point, step) {
    const m = this.block.messages;
    const button = el("button", { class: "mark-fork" }, "⎇");
    button.type = "button";
    button.tabIndex = -1;
    button.dataset.action = "fork";
    button.dataset.call = `switch:${point}`;
    const label = m.format("fork_switch_button", { k: point });
    button.setAttribute("aria-label", label);
    button.title = label;
    button.addEventListener("click", () => {
      this.block.loadWhatIf().then((whatif) => whatif.openFork(button.dataset.call));
    });
    this.forks.set(step, button);
    return button;
  }

  /** Draw the pane at cursor `at` (a step, END, or null when no run is shown). */
  render(at) {
    if (at !== this.chosenAt) this.chosen = null;
    const shown = at === null ? null : this.shownThread(at);
    const key = `${at}:${shown}`;
    if (key === this.drawn) return;
    this.drawn = key;
    const m = this.block.messages;
    // in the keyboard's way: the fork of the switch that gave the cursor's thread its turn
    let last = -1;
    if (at !== null && at !== END) for (const step of this.forks.keys()) if (step <= at && step > last) last = step;
    for (const [step, button] of this.forks) {
      button.tabIndex = step === last ? 0 : -1;
      button.classList.toggle("at-cursor", step === last);
    }
    const threads = at === null ? [] : this.model.at(at);
    for (const t of threads) {
      const { button, state } = this.items[t.index];
      button.dataset.state = t.state;
      if (t.current) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
      button.disabled = t.state === "not-started";   // no stack yet
      button.setAttribute("aria-pressed", t.index === shown ? "true" : "false");
      showText(state, stateText(t, m));
    }
    const items = threads.map((t) => this.items[t.index].li);
    if (items.length !== this.list.children.length) this.list.replaceChildren(...items);
    const chosen = this.chosen !== null && at !== END ? this.model.lastStep(this.chosen, at) : -1;
    this.note.hidden = chosen < 0 || this.chosen === this.model.running(at);
    showText(this.note, this.note.hidden ? ""
      : m.format("thread_shown", { name: this.model.name(this.chosen), step: chosen + 1 }));
  }
}
