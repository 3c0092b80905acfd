// The fork editor of a block (docs/design.md, "Forks"): the answer of one model call or
// tool call as JSON, in the setup's code editor (setup-editor.js); "Run the fork" records
// the block again with that call answering it (the worker's `fork`), and the fork's run is
// shown against the block's run in the comparison view. Problems show in the fork error
// line before the run when they can be told (model/fork-url.js), else the run's error; a
// tool's returned value that was cut when recorded is said so and not run unchanged;
// the editor keeps its text and the block's run stays shown. The fork goes into the URL
// fragment (its form is url-state.js's), never to the server. Loaded with the first fork
// button pressed. A fork at a thread switch (`switch:K`, a switch mark's fork button) is
// the same run with another runnable thread chosen at switch point K: the editor then
// offers those threads instead of JSON, and the fork's schedule
// (model/schedule.js) goes into the URL as `sched=`.

import { SEL } from "../selectors.js";
import { el } from "../page/dom.js";
import * as runs from "../page/block-runs.js";
import { forkProblem, recordedStart, valueText } from "../model/fork-url.js";
import { decodeFork, encodeFork } from "../page/url-state.js";
import { choiceAt, forkSchedule, parseSchedule, lastSwitch } from "../model/schedule.js";

export class ForkEditor {
  constructor(whatif) {
    this.whatif = whatif;
    this.block = whatif.block;
    this.messages = whatif.messages;
    this.call = null;
    this.cutText = null;   // the prefilled text of a cut tool value
    this.editor = null;
    this.token = 0;
    this.panel = this.build();
  }

  build() {
    const m = this.messages;
    const panel = el("section", { class: "fork-editor" });
    panel.dataset.role = "fork-editor";
    panel.hidden = true;
    this.title = el("h3", { class: "fork-title" });
    this.note = el("p", { class: "setup-editor-note" }, m.get("fork_note"));
    this.host = el("div", { class: "setup-editor-host fork-host" });
    this.threadField = el("label", { class: "fork-thread" });
    this.thread = el("select");
    this.thread.dataset.role = "fork-thread";
    this.threadField.append(el("span", {}, m.get("fork_thread")), this.thread);
    this.threadField.hidden = true;
    this.error = el("p", { class: "setup-error fork-error" });
    this.error.dataset.role = "fork-error";
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    const run = el("button", { class: "run-fork" }, m.get("run_fork"));
    run.type = "button";
    run.dataset.action = "run-fork";
    run.addEventListener("click", () => this.run());
    panel.append(this.title, this.note, this.threadField, this.host, run, this.error);
    this.block.root.querySelector(SEL.comparison).before(panel);
    return panel;
  }

  async ensureEditor(text) {
    this.editorLoading ??= import("./setup-editor.js").then(({ createEditor }) => createEditor(this.host, {
      text, label: this.messages.get("fork_text"), role: "fork-text", python: false,
      onRun: () => this.run(),
    })).then((editor) => (this.editor = editor));
    const editor = await this.editorLoading;
    editor.setText(text);
    return editor;
  }

  /** Open the editor on `call` ("model:K" / "tool:K") with its recorded answer, or `text`. */
  async open(call, text = null) {
    if (call.startsWith("switch:")) return this.openSwitch(call, text);
    this.showSwitch(false);
    this.call = call;
    this.title.textContent = this.messages.format("fork_title", { call });
    this.panel.hidden = false;
    const recorded = text === null ? recordedStart(this.block.trace?.agent, call) : undefined;
    const start = text ?? valueText(recorded?.value ?? null);
    // a cut value is not what the tool returned: said, and not run unchanged
    this.cutText = recorded?.cut ? start : null;
    this.showError(this.cutText === null ? null : this.cutNote());
    const editor = await this.ensureEditor(start);
    if (call !== this.call) return editor;
    if (text === null) editor.focus();
    return editor;
  }

  /** Switch point mode (`switch:K`) or the JSON editor's. */
  showSwitch(on) {
    const m = this.messages;
    this.threadField.hidden = !on;
    this.host.hidden = on;
    this.note.textContent = m.get(on ? "fork_switch_note" : "fork_note");
  }

  /** Open at switch point K (`call` "switch:K") offering the threads runnable there, `name`
   * chosen (default: the first that did not run there); the thread picker focused. */
  openSwitch(call, name = null) {
    this.call = call;
    this.showSwitch(true);
    const k = Number(call.slice("switch:".length));
    this.title.textContent = this.messages.format("fork_switch_title", { k });
    this.panel.hidden = false;
    const { names, ran } = choiceAt(this.block.trace, k);
    this.thread.replaceChildren(...names.map((n) => new Option(
      n === ran ? this.messages.format("fork_thread_ran", { name: n }) : n, n)));
    const chosen = name ?? names.find((n) => n !== ran) ?? names[0] ?? "";
    if (name !== null && !names.includes(name)) this.thread.append(new Option(name, name));
    this.thread.value = chosen;
    this.showError(names.length ? null : this.messages.format("fork_switch_none", { k }));
    if (name === null) this.thread.focus();
    return this.thread;
  }

  /** Hidden, its run (if one is on its way) ignored: the fork was dropped. */
  close() {
    this.token++;
    this.call = null;
    this.cutText = null;
    this.panel.hidden = true;
    this.showError(null);
  }

  cutNote() {
    return this.messages.format("fork_cut", { call: this.call });
  }

  showError(note) {
    this.error.hidden = !note;
    this.error.textContent = note ?? "";
  }

  /** Run the fork of the editor's text; the comparison shows it against the block's run. */
  async run(schedule = null) {
    if (this.call?.startsWith("switch:")) return this.runSwitch(schedule);
    const call = this.call;
    const text = this.editor?.text;
    if (!call || text === undefined) return false;
    if (this.cutText !== null && text === this.cutText) {
      this.showError(this.cutNote());
      return false;
    }
    const problem = forkProblem(call, text);
    if (problem) {
      this.showError(this.messages.format(problem.key, problem.values));
      return false;
    }
    this.showError(null);
    const token = ++this.token;
    const block = this.block;
    const encoded = await encodeFork(call, text);
    if (token !== this.token) return false;   // dropped meanwhile
    block.setFork(encoded);
    const scenario = block.scenario;
    const shown = await this.compare(`fork:${call}`, token, null,
      () => runs.traceOf(block, scenario, { call, text }));
    if (!shown) return false;
    if (shown.fork && !shown.fork.applied) {
      this.showError(this.messages.format("fork_not_reached", { call }));
    } else if (shown.status === "exception") {
      this.showError(this.messages.format("fork_run_error", { message: shown.message }));
    }
    return true;
  }

  /** The comparison (labelled `label`) with the run `load()` gives, once the block has a
   * trace and `prepare()` ran; null when the editor moved on meanwhile (`token`) or the run
   * failed (its error shown). */
  async compare(label, token, prepare, load) {
    const block = this.block;
    let failure = null;
    const shown = await this.whatif.compareWith(label, async () => {
      if (!block.trace) await block.start("debug");
      prepare?.();
      try {
        return await load();
      } catch (error) {
        failure = error;
        throw error;
      }
    });
    if (token !== this.token) return null;
    if (!shown && failure) {
      this.showError(this.messages.format("fork_run_error", { message: failure.message }));
    }
    return shown || null;
  }

  /** Run the block's run again with the chosen thread at the switch point (`schedule`:
   * the whole schedule text, a link's; else the run's own with that choice: forkSchedule),
   * shown against the block's run in the comparison. Not a guest's run: a schedule only
   * picks among the program's own threads. */
  async runSwitch(schedule = null) {
    const block = this.block;
    const k = Number(this.call.slice("switch:".length));
    const name = this.thread.value;
    if (!name) return false;
    const token = ++this.token;
    this.showError(null);
    let text = schedule;
    const shown = await this.compare(`fork:${schedule ?? `switch:${k}=${name}`}`, token, () => {
      text ??= forkSchedule(block.trace?.schedule?.text ?? "", k, name);
      if (token === this.token) block.setFork(null, text);
    }, () => runs.traceOf(block, block.scenario, { schedule: text }));
    if (!shown) return false;
    if (shown.schedule?.error) this.showError(shown.schedule.error);
    return true;
  }

  /** The URL's schedule (`sched=`), shown and run at once (data, not code: it only picks
   * among the program's own threads); a text that cannot be read is reported. */
  async restoreSchedule(text) {
    let last;
    try {
      parseSchedule(text);
      last = lastSwitch(text);
      if (!last) throw new Error("no switch:K=NAME choice");
    } catch (error) {
      this.panel.hidden = false;
      this.showSwitch(true);
      this.showError(this.messages.format("sched_url_error", { message: error.message }));
      return false;
    }
    if (!this.block.trace) await this.block.start("debug");
    this.openSwitch(`switch:${last.number}`, last.name);
    return this.run(text);
  }

  /** {call, text} of the URL's fork (its encoded form), or null: a bad one is reported. */
  async read(encoded) {
    try {
      return await decodeFork(encoded);
    } catch (error) {
      this.panel.hidden = false;
      this.showError(this.messages.format("fork_url_error", { message: error.message }));
      return null;
    }
  }

  /** The URL's fork ({call, text}), once the reader chose to run it: opened and run. */
  async restore(fork) {
    await this.open(fork.call, fork.text);
    return this.run();
  }
}
