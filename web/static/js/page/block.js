// One debugger block: a small state machine and the controller around it.
//
// States (docs/design.md, "Page state"): idle → loading → ready → running → paused →
// finished | error. The state changes only through the named actions (block-states.js);
// each action checks it applies in the current state.

import { SEL, EVENTS } from "../selectors.js";
import { END, step as nextIndex, hitIndices, settle } from "../model/stepping.js";
import * as view from "./block-view.js";
import * as runs from "./block-runs.js";
import { showSource, guestRun } from "./run-source.js";
import { Questions } from "../model/questions.js";
import { Omni } from "../omni/omni.js";
import { FIRST_LINE, noStops, steppedOver } from "./stop-notes.js";
import { attachViews } from "./run-views.js";
import { ACTIONS, COMMANDS, RESTING, CALL_COMMANDS, WHATIF_COMMANDS, allows } from "./block-states.js";
import { waits } from "./block-stream.js";

// No event breakpoints yet: agent/event-breakpoints.js is loaded when the reader adds one.
const NO_EVENTS = Object.freeze({ stops: null, keys: [], set() {}, clear() {}, show() {}, render() {} });

export class Block {
  constructor(root, config, { client, messages, lesson, onCursor, onChange }) {
    this.root = root;
    this.id = root.dataset.loopstepBlock;
    this.name = config.name; // the block's id within its lesson (URLs, traces)
    this.config = config;
    // a whole-file block: the names its module binds; the others of its frame are the setup's
    this.ownNames = config.ownNames ? new Set(config.ownNames) : null;
    this.lesson = lesson;
    this.client = client;
    this.messages = messages;
    this.onCursor = onCursor ?? (() => {});
    this.onChange = onChange ?? (() => {});
    this.state = root.dataset.state || "idle";
    this.scenario = root.dataset.scenario || config.presets[0]?.name;
    this.breakpoints = new Set();
    this.events = NO_EVENTS;
    this.trace = null;
    this.replay = null;
    this.index = null; // a step index, END when finished, null when no run is shown
    this.stopNote = null; // why the cursor stopped where it is, when not obvious (stop-notes.js)
    this.pending = null;  // what a run's first steps leave to the whole run (block-stream.js)
    this.failure = null;
    this.runToken = 0;
    this.questions = new Questions(); // breakpoint details and watches (omni.js)
    this.omni = new Omni(this);
    this.customSetup = null; // the reader's setup text while scenario "custom" exists
    this.urlCustom = null;   // that text as the URL carries it (url-state.js)
    this.urlFork = null;     // the fork shown against the run, as the URL carries it
    this.urlSchedule = null; // the schedule of a schedule fork shown against it (`sched=`)
    this.recording = null;   // a recording file loaded into the block: {name, text, key}
    this.tolerant = false;   // its replay goes on past differences (recording-view.js)
    this.whatif = null;      // the what-if controller, once loaded
    this.workspace = null;   // the workspace panel, once a run with a folder is shown
    view.wire(this);
    this.render();
  }

  // ---- the state machine --------------------------------------------------

  act(action) {
    const next = ACTIONS[action][this.state];
    if (next === undefined) return false;
    this.state = next;
    return true;
  }

  // ---- actions ------------------------------------------------------------

  /** The shared runtime changed state: idle/loading/ready/failed. */
  runtime(state, message) {
    if (state === "loading") this.act("runtimeLoading");
    else if (state === "ready") this.act("runtimeReady");
    else if (state === "failed") {
      if (this.act("runtimeFailed")) this.failure = { kind: "runtime", message };
    }
    this.render();
  }

  /** Whether a toolbar command applies now: the one rule behind command() and the buttons. */
  allows(name) {
    return allows(this, name);
  }

  /** A toolbar command: debug, run, continue, step-*, reset. */
  command(name) {
    if (!this.allows(name)) return false;
    this.pending = null; // the reader moves on: the whole run of a long one keeps the cursor
    if (WHATIF_COMMANDS.includes(name)) return this.loadWhatIf().then((w) => w.command(name));
    if (name === "reset") return this.reset();
    if (name === "debug" || name === "run") {
      return this.start(name, { first: name === "debug" && noStops(this.breakpoints, this.events.keys) });
    }
    if (CALL_COMMANDS.includes(name)) {
      this.moveTo(this.agent.hop(name, this.index));
      return true;
    }
    const to = nextIndex(this.trace, this.index, name, this.breakpoints, this.events.stops);
    if (waits(this, name, to)) return true; // past a long run's first steps: the rest is coming
    const note = name === "step-into" ? steppedOver(this.trace, this.index, to, this.config.hiddenCalls) : null;
    this.moveTo(to, note);
    return true;
  }

  /** Record (or reuse) the trace of the selected scenario, then apply debug/run. */
  async start(command, { seek = null, first = false } = {}) {
    if (this.failure?.kind === "runtime") return false;
    // while a run is being recorded, a second start is refused and leaves that run alone
    if (!this.act("record")) return false;
    this.pending = null;
    this.onCursor(this);
    const token = ++this.runToken;
    let trace = runs.cached(this.traceKey(this.scenario));
    if (!trace) {
      this.failure = null;
      this.showRun(null);
      this.render();
      try {
        trace = await this.recordAsked(token);
      } catch (error) {
        if (token !== this.runToken) return false;
        this.failure = { kind: error.kind ?? "failed", message: error.message };
        this.act("fail");
        this.render();
        return false;
      }
      if (!trace) return false;
    }
    this.showRun(trace);
    // Debug with no breakpoint pauses at the first line (stop-notes.js)
    const index = seek !== null ? settle(trace, seek) : first ? settle(trace, 0)
      : nextIndex(trace, END, command, this.breakpoints, this.events.stops);
    this.moveTo(index, first && seek === null && index !== END ? FIRST_LINE : null);
    return true;
  }

  /** The trace of the selected scenario for the reader's questions (watches, breakpoint
   * details) as they are when it arrives: questions changed while it was recorded are
   * asked again by a new recording. Null when another run or a reset took over. */
  async recordAsked(token) {
    for (;;) {
      const key = this.traceKey(this.scenario);
      const trace = await runs.traceOf(this, this.scenario);
      if (token !== this.runToken) return null;
      if (key === this.traceKey(this.scenario)) return trace;
    }
  }

  traceKey(scenario, recording = this.recording) {
    const setup = scenario === this.config.customScenario ? `\n${this.customSetup}` : "";
    const answers = (recording ? `\nrecording ${recording.key}` : "") + (this.tolerant ? "\ntolerant" : "");
    return `${this.id}\n${scenario}${setup}${answers}\n${this.questions.key(this.breakpoints)}`;
  }

  /** The what-if controller (custom setup, comparison), loaded on first use. */
  loadWhatIf() {
    this.whatifLoading ??= import("../whatif/whatif.js").then(({ WhatIf }) => {
      this.whatif = new WhatIf(this);
      return this.whatif;
    });
    return this.whatifLoading;
  }

  showRun(trace) {
    this.trace = trace;
    showSource(this, trace); // data-trace, data-run-source and a recorded run's details
    runs.hold(this, "shown", trace); // never dropped from the cache while shown
    this.replay = trace ? runs.replayOf(trace) : null;
    this.events.show(trace);
    this.hits = trace ? hitIndices(trace, this.breakpoints, this.events.stops) : [];
    this.failure = null;
    attachViews(this, trace);
  }

  /** The event breakpoints' controller, loaded on first use. */
  loadEvents() {
    this.eventsLoading ??= import("../agent/event-breakpoints.js").then(({ EventBreakpoints }) => {
      this.events = new EventBreakpoints(this.root, this.messages, () => this.refreshHits(true));
      this.events.show(this.trace);
      return this.events;
    });
    return this.eventsLoading;
  }

  /** Move the cursor to a step a view asked for, while a run is shown and the cursor rests. */
  goTo(step) {
    if (!RESTING.includes(this.state)) return;
    this.pending = null;
    this.moveTo(step);
  }

  /** Put the cursor at `index` (END: the program ended). */
  moveTo(index, note = null) {
    if (!this.trace) return;
    this.stopNote = index === END ? null : note; // why it stopped here (stop-notes.js)
    if (index === END) {
      const raised = Boolean(this.trace.error) || ["exception", "error"].includes(this.trace.status);
      if (!this.act(raised ? "raise" : "finish")) return;
      this.index = END;
      this.render();
      // a guest's run (run-source.js): its output is not the event's, nor a host page's
      const finish = { status: this.state === "error" ? "error" : this.trace.status };
      if (!guestRun(this)) finish.output = this.trace.stdout ?? "";
      this.emit(EVENTS.finish, finish);
      this.onCursor(this, { released: true });
    } else {
      if (!this.act("pause")) return;
      this.index = index;
      this.onCursor(this);
      this.render();
      view.revealCurrent(this.root);
      const s = this.trace.at(index);
      this.emit(EVENTS.pause, { step: index, line: s.line });
    }
    this.onChange(this);
  }

  /** Move the cursor to a timeline position. */
  seek(position) {
    if (!this.trace || !RESTING.includes(this.state)) return;
    const index = settle(this.trace, position);
    this.pending = null;
    if (index !== END) this.moveTo(index);
  }

  reset() {
    if (this.scenario === this.config.customScenario) return this.whatif.leaveCustom();
    if (!this.act("reset")) return false;
    this.whatif?.dropFork();
    this.clearRun();
    return true;
  }

  /** Another block took the page's cursor. */
  release() {
    if (this.act("release")) this.clearRun({ announce: false });
  }

  /** The reader's choice in the input picker: in a lesson with `switch_resets_breakpoints`,
   * another preset clears the line breakpoints, their details and the event breakpoints
   * (watches stay); the custom setup, the reader's edit of an input, keeps them. */
  chooseScenario(name) {
    if (this.config.switchResetsBreakpoints && name !== this.scenario
        && this.config.presets.some((p) => p.name === name)) {
      this.breakpoints = new Set();
      this.questions.clearSpecs();
      this.events.clear();
    }
    return this.setScenario(name);
  }

  /** Switch scenario: the run is reset; the breakpoints, their details and the watches stay. */
  setScenario(name) {
    const custom = name === this.config.customScenario && this.customSetup !== null;
    if (!custom && !this.config.presets.some((p) => p.name === name)) return false;
    this.whatif?.dropFork();   // a fork is one run's: not the next scenario's
    this.recording = null;     // a preset answers from now on
    this.tolerant = false;
    this.scenario = name;
    this.root.dataset.scenario = name;
    this.root.querySelector(SEL.scenario).value = name;
    if (this.state === "running") {
      this.act(this.client.state === "ready" ? "abandonReady" : "abandonLoading");
    } else if (this.failure?.kind !== "runtime") {
      this.act("reset");
    }
    this.clearRun();
    return true;
  }

  /**
   * Drop the run shown: its trace, cursor and failure (a runtime that failed to load
   * stays failed); a recording still on its way is ignored when it arrives. With
   * `announce`, the page learns the cursor is free and the URL follows.
   */
  clearRun({ announce = true } = {}) {
    this.runToken++;
    this.index = null;
    this.stopNote = null;
    this.pending = null;
    this.trace = null;
    showSource(this, null);
    runs.hold(this, "shown", null);
    this.replay = null;
    this.hits = [];
    if (this.failure?.kind !== "runtime") this.failure = null;
    this.render();
    if (!announce) return;
    this.onCursor(this, { released: true });
    this.onChange(this);
  }

  /** Whether `line` is a displayed line (numbered as the gutter shows it). */
  shows(line) {
    return Number.isInteger(line) && this.config.lines.some(([a, b]) => line >= a && line <= b);
  }

  toggleBreakpoint(line) {
    if (!this.shows(line)) return;
    if (this.breakpoints.has(line)) {
      this.breakpoints.delete(line);
      if (this.questions.spec(line)) {
        this.questions.setSpec(line, null);
        this.reask();
        return;
      }
    } else this.breakpoints.add(line);
    this.refreshHits(true);
  }

  setBreakpoints(lines) {
    this.breakpoints = new Set(lines.filter((n) => this.shows(n)));
    this.refreshHits();
  }

  /** Replace the event breakpoints with `keys` ("KIND:VALUE", as the URL keeps them),
   * loading their controller for the first ones. */
  setEvents(keys) {
    if (this.events === NO_EVENTS && keys.length) return this.loadEvents().then(() => this.setEvents(keys));
    this.events.set(keys);
    return this.refreshHits();
  }

  // The reader's questions (model/questions.js) change only here, each change reask()ed.
  addWatch(text) { return this.questions.addWatch(text) && this.reask(); }
  removeWatch(text) { return this.questions.removeWatch(text) && this.reask(); }
  restoreQuestions(questions) { this.questions.replace(questions); this.omni.render(); } // the URL's

  /** The details (cleanSpec) of the breakpoint on `line`, set with them. */
  setBreakpointDetails(line, spec) {
    this.questions.setSpec(line, spec);
    if (!this.breakpoints.has(line)) this.toggleBreakpoint(line);
    return this.reask();
  }

  removeBreakpoint(line) {
    this.questions.setSpec(line, null);
    if (this.breakpoints.has(line)) this.toggleBreakpoint(line);
    return this.reask();
  }

  /** The questions changed: a shown run is recorded again, its cursor kept (the run is
   * deterministic); one being recorded is, when it arrives (recordAsked). */
  reask() {
    this.render();
    this.onChange(this);
    const at = this.index;
    if (this.trace && RESTING.includes(this.state)) {
      this.start(at === END ? "run" : "debug", { seek: at === END || at === null ? null : at });
    }
    return true;
  }

  /** The custom scenario's setup text and its URL form (url-state.js); null: none. */
  setSetup(text, encoded = null) {
    this.customSetup = text;
    this.urlCustom = text === null ? null : encoded;
  }

  /** The fork compared with the run, in its URL form (null: none), or `schedule` the text
   * of a schedule fork's (url-state.js `sched=`); the URL follows. */
  setFork(encoded, schedule = null) {
    if (encoded === null && this.urlFork === null && schedule === this.urlSchedule) return;
    this.urlFork = encoded;
    this.urlSchedule = schedule;
    this.onChange(this);
  }

  /** The timeline's ticks after a change of the line or event breakpoints. */
  refreshHits(changed = false) {
    if (this.trace) this.hits = hitIndices(this.trace, this.breakpoints, this.events.stops);
    this.render();
    if (changed) this.onChange(this);
  }

  /** Whether this block shows a cursor. */
  get hasCursor() {
    return this.state === "paused" && this.index !== null && this.index !== END;
  }

  get currentStep() {
    return this.hasCursor ? this.trace.at(this.index) : null;
  }

  // ---- DOM ----------------------------------------------------------------
  emit(type, detail) {
    const full = { block: this.id, scenario: this.scenario, ...detail };
    this.root.dispatchEvent(new CustomEvent(type, { detail: full, bubbles: true }));
  }

  /** Draw the block (block-view.js) and its views: they read it, they change it only
   * through the actions above. */
  render() {
    if (this.agent && this.agent.trace !== this.trace) attachViews(this, this.trace);
    view.renderBlock(this, new Set(COMMANDS.filter((name) => this.allows(name))), COMMANDS);
  }
}
