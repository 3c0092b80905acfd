// What if: one block's custom setup — the editor, running it as scenario "custom", its
// errors, Reset back to the presets, the URL — and the choice of a run to compare.
// block.js loads this on first use; the editor (setup-editor.js, CodeMirror) and the
// comparison view (comparison.js) load on theirs. The setup text goes to the worker
// and into the URL fragment (its form is url-state.js's), never to the server.

import { SEL } from "../selectors.js";
import { showText } from "../page/invisible.js";
import * as runs from "../page/block-runs.js";
import { encodeCustom, decodeCustom } from "../page/url-state.js";

export class WhatIf {
  constructor(block) {
    this.block = block;
    this.root = block.root;
    this.messages = block.messages;
    this.custom = block.config.customScenario;
    this.base = null;        // the preset the custom setup started from
    this.editor = null;
    this.editorLoading = null;
    this.editorFor = null;   // the scenario whose setup the editor was given
    this.shownError = null;  // the setup error marked in the editor
    this.urlError = null;    // a custom setup in the URL that could not be read
    this.panel = this.root.querySelector(SEL.setupEditor);
    this.toggle = this.root.querySelector(SEL.actionNamed("edit-setup"));
    this.errorNote = this.root.querySelector(SEL.setupError);
    this.comparison = null;  // the comparison view, once a run to compare is chosen
    this.compareChoice = 0;  // counts the reader's choices of a run to compare
    this.fork = null;        // the fork editor (fork-editor.js), once a fork button is pressed
    this.link = null;        // the code a link brought, not run yet (link-code.js)
  }

  forkEditor(guest = true) {
    // a fork runs as a guest (boot/guest-client.js); a schedule's does not (data, not code)
    if (guest) this.block.client.prepareGuest();
    this.forkLoading ??= import("./fork-editor.js").then(({ ForkEditor }) => (this.fork = new ForkEditor(this)));
    return this.forkLoading;
  }

  /** Open the fork editor on `call` ("model:K" / "tool:K", or "switch:K": a thread chosen
   * at switch point K). */
  async openFork(call) {
    return (await this.forkEditor(!call.startsWith("switch:"))).open(call);
  }

  /** The URL's schedule (`sched=`): the fork at its switch point opened, run and compared. */
  async restoreSchedule(text) {
    return (await this.forkEditor(false)).restoreSchedule(text);
  }

  /** The code a link brings (its parsed fragment: url-state.js), shown in the block to
   * run on the reader's click (link-code.js): the offer to show, or null when the link
   * brings none that can be read (a part that cannot is reported as the URL's error). */
  async readLink(saved) {
    const { readLink } = await import("./link-code.js");
    return readLink(this, saved);
  }

  /** A scenario switch or Reset: the fork is dropped — its editor, its comparison (a
   * run still on its way is ignored) and the URL's fork — as Reset drops a custom setup;
   * so is a link's code not run yet (link-code.js). */
  dropFork() {
    const block = this.block;
    this.link?.drop();
    this.fork?.close();
    if (this.comparison?.name?.startsWith("fork:")) {
      this.comparison.cancel();
      this.compare("");
    } else {
      block.setFork(null);
    }
  }

  /** Compare the block's run with the run `load()` gives, shown as `name`; that run or null. */
  async compareWith(name, load) {
    const view = this.root.querySelector(SEL.comparison);
    const chosen = ++this.compareChoice;
    const picker = this.root.querySelector(SEL.compare);
    if (picker) picker.value = "";
    const { Comparison } = await import("./comparison.js");
    if (chosen !== this.compareChoice) return null;
    this.comparison ??= new Comparison(view, this.block, this.messages);
    const shown = await this.comparison.show(name, load);
    if (shown && chosen === this.compareChoice) runs.hold(this.block, "compared", shown);
    return shown;
  }

  get editorOpen() {
    return !this.panel.hidden;
  }

  command(name) {
    if (name === "edit-setup") return this.toggleEditor();
    if (name === "run-custom") return this.runCustom();
    return false;
  }

  /** The setup program of preset `name`: what the setup panel shows, without the entry. */
  presetSetup(name) {
    const shown = this.block.config.setup[name];
    const entry = this.block.config.entry;
    return shown.endsWith(entry) ? shown.slice(0, shown.length - entry.length) : shown;
  }

  async toggleEditor() {
    const open = !this.editorOpen;
    this.panel.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    this.block.render();
    if (!open) return true;
    const editor = await this.ensureEditor();
    this.block.render();
    editor.focus();
    return true;
  }

  ensureEditor() {
    this.block.client.prepareGuest(); // a custom setup runs as a guest (boot/guest-client.js)
    this.editorLoading ??= import("./setup-editor.js").then(({ createEditor }) => {
      const scenario = this.block.scenario;
      return createEditor(this.root.querySelector(SEL.setupHost), {
        text: this.block.customSetup ?? this.presetSetup(scenario),
        label: this.messages.get("setup_text"),
        onRun: () => this.block.command("run-custom"),
      }).then((editor) => {
        this.editor = editor;
        this.editorFor = scenario;
        return editor;
      });
    });
    return this.editorLoading;
  }

  /** Run the block with the editor's text as scenario "custom". */
  async runCustom() {
    const editor = await this.ensureEditor();
    await this.useCustom(editor.text);
    return this.block.start("debug");
  }

  /** Make `text` the block's custom setup and select scenario "custom"; breakpoints stay. */
  async useCustom(text) {
    const block = this.block;
    const encoded = await encodeCustom(text);
    if (block.scenario !== this.custom) this.base = block.scenario;
    block.setSetup(text, encoded);
    this.urlError = null;
    this.showOption(true);
    const breakpoints = [...block.breakpoints];
    const events = block.events.keys;
    block.setScenario(this.custom);
    block.setEvents(events);   // their controller is loaded already when there are any
    block.setBreakpoints(breakpoints);
    this.editorFor = this.custom;
  }

  /** Reset while the custom setup is selected: back to the preset it started from. */
  leaveCustom() {
    const block = this.block;
    block.setSetup(null);
    this.showOption(false);
    block.setScenario(this.base ?? block.config.presets[0].name);
    return true;
  }

  /** The setup text of the URL's custom setup (its encoded text), or null: a bad one is
   * reported. */
  async readCustom(encoded) {
    try {
      return await decodeCustom(encoded);
    } catch (error) {
      this.urlError = this.messages.format("setup_url_error", { message: error.message });
      this.render();
      return null;
    }
  }

  /** The URL's custom setup, once the reader chose to run it: the scenario pickers offer
   * it (the link's scenario selects it). */
  installCustom(text, encoded) {
    this.base = this.block.scenario;
    this.block.setSetup(text, encoded);
    this.showOption(true);
  }

  /** The "custom" option of the scenario and compare pickers, while a custom setup exists. */
  showOption(present) {
    for (const select of [this.root.querySelector(SEL.scenario), this.root.querySelector(SEL.compare)]) {
      const option = [...select.options].find((o) => o.value === this.custom);
      if (present && !option) select.append(new Option(this.messages.get("custom_scenario"), this.custom));
      if (!present && option) {
        const chosen = select.value === this.custom;
        option.remove();
        if (chosen && select.dataset.role === "compare") {
          select.value = "";
          this.compare("");
        }
      }
    }
  }

  /** Choose the run to compare with ("" for none); the last choice wins (arrow keys on
   * the picker choose every option on their way). The page's trace cache keeps the run
   * compared with while it is shown. */
  async compare(name) {
    const view = this.root.querySelector(SEL.comparison);
    const chosen = ++this.compareChoice;
    this.block.setFork(null);   // the run chosen replaces the fork's in the view and the URL
    if (!name) {
      view.hidden = true;
      view.replaceChildren();
      this.comparison = null;
      runs.hold(this.block, "compared", null);
      return;
    }
    const { Comparison } = await import("./comparison.js");
    if (chosen !== this.compareChoice) return;
    this.comparison ??= new Comparison(view, this.block, this.messages);
    await this.comparison.show(name);
    if (this.comparison) runs.hold(this.block, "compared", this.comparison.b);
  }

  /** Follow the block: the setup error, the setup panel, the editor's text, the comparison. */
  render() {
    const block = this.block;
    const error = block.trace?.setup_error ?? null;
    const note = error ? this.messages.format("setup_error", error) : this.urlError;
    this.errorNote.hidden = !note;
    this.errorNote.textContent = note ?? "";
    if (block.scenario === this.custom) {
      const code = this.root.querySelector(SEL.setupCode);
      const text = block.customSetup + block.config.entry;
      if (code.textContent !== text) showText(code, text);
    }
    if (this.editor) {
      if (block.scenario !== this.custom && this.editorFor !== block.scenario) {
        this.editor.setText(this.presetSetup(block.scenario));
        this.editorFor = block.scenario;
      } else if (block.scenario === this.custom && this.editorFor !== this.custom
                 && block.customSetup != null) {
        // a custom setup the URL brought after the editor showed a preset's
        this.editor.setText(block.customSetup);
        this.editorFor = this.custom;
      }
      const marked = this.editorFor === this.custom ? error : null;
      if (marked !== this.shownError) this.editor.showError(marked);
      this.shownError = marked;
    }
    this.comparison?.update();
  }
}
