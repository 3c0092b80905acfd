// The page's side of the Python worker: one shared worker per page for the site's own code,
// beside it a guest runtime for code a reader, a link or a file brings, and a clean room for
// each live run (docs/design.md, "Who runs what").
//
// Runs of the site's presets (with the reader's questions: the read-only evaluator cannot
// call out) go to the shared worker. A run with a custom setup, a fork or a loaded
// recording file goes to the guest (boot/guest-client.js): a worker in an opaque-origin
// frame that can reach neither the page, its storage and cookies, nor the site's origin.
// A live run gets a worker of its own that has never run anything else, dropped when the
// run ends: the key typed into the live form reaches that worker alone.
//
// Boots on first need, queues record requests made before it is ready, gives
// up on a boot that takes too long, and terminates a worker whose recording
// runs past a wall-clock watchdog (code stuck in C never yields to an interrupt)
// or whose Pyodide broke fatally (a stack overflow through C); the next request
// then boots a fresh one.
//
// Emits on itself (an EventTarget): "state" {state: idle|loading|ready|failed,
// loaded, total, python, message}, and "restarted" {message, kind}.

// trace.js is imported when the first trace arrives (the page has loaded it by then), so
// that the early boot script's module graph stays one file deep.
const traceModule = () => import("../model/trace.js");

export const BOOT_TIMEOUT_MS = 120_000;
export const RECORD_TIMEOUT_MS = 30_000;

const seconds = (ms) => `${Math.round(ms / 100) / 10} s`;

export class RecordError extends Error {
  constructor(message, kind) {
    super(message);
    // "failed" (Python raised), "timeout" (watchdog), "fatal" (Pyodide broke; restarted),
    // "runtime" (no runtime), "recording" (a loaded recording cannot answer the block),
    // "stopped" (a live run's Stop), "cancelled" (a guest run ended by cancelGuest)
    this.kind = kind;
  }
}

export class RuntimeClient extends EventTarget {
  constructor(config, { bootTimeout = BOOT_TIMEOUT_MS, recordTimeout = RECORD_TIMEOUT_MS,
    fresh = false, name = "loopstep-python" } = {}) {
    super();
    this.config = config;
    // `fresh`: never the head's early worker, and its marks stay off the page's timeline
    this.fresh = fresh;
    this.name = name;
    this.guest = null;    // the guest runtime's client, once a guest run asked for it
    this.liveRoom = null; // the live run's own client, while one runs
    // the worker the config names (the bundle's one file once built: web/module_graph.py),
    // as the head's early script starts it
    this.workerURL = new URL(config.worker, pageBase());
    // the worker resolves the config's URLs against the document's (worker.js, bootConfig)
    this.bootMessage = { type: "boot", base: pageBase(), config };
    // config.runtime (optional) may set bootTimeoutMs / recordTimeoutMs.
    this.bootTimeout = config.runtime?.bootTimeoutMs ?? bootTimeout;
    this.recordTimeout = config.runtime?.recordTimeoutMs ?? recordTimeout;
    this.maxSteps = config.runtime?.maxSteps ?? null;
    this.firstSteps = config.runtime?.firstSteps ?? 0; // a long run's first steps come first
    this.state = "idle";
    this.worker = null;
    this.ready = null;
    this.pending = new Map();
    this.nextId = 1;
    this.abortBoot = null; // fails the boot under way
  }

  setState(state, extra = {}) {
    this.state = state;
    this.lastDetail = { state, ...extra };
    this.dispatchEvent(new CustomEvent("state", { detail: this.lastDetail }));
  }

  /** Start the worker if none runs; resolves when it can record. */
  boot() {
    if (this.ready) return this.ready;
    this.ready = new Promise((resolve, reject) => {
      // the worker the head's early script started (or left to start now: a page with
      // shipped traces), once; else (a restart) a new one
      if (!this.fresh) window.loopstepStartEarly?.();
      const early = this.fresh ? null : window.loopstepEarlyWorker;
      const worker = early?.worker ?? this.createWorker();
      this.worker = worker;
      const timer = setTimeout(() => fail(new RecordError(seconds(this.bootTimeout), "runtime")),
        this.bootTimeout);
      const fail = (error) => {
        clearTimeout(timer);
        if (this.abortBoot === fail) this.abortBoot = null;
        this.discard(worker);
        this.setState("failed", { message: error.message });
        reject(error);
      };
      this.abortBoot = fail; // close() while booting: the requests waiting for it fail at once
      const onMessage = (event) => {
        if (this.worker !== worker) return; // discarded (events kept by the early script)
        const m = event.data;
        if (m.type === "progress") this.setState("loading", { loaded: m.loaded, total: m.total });
        else if (m.type === "ready") {
          clearTimeout(timer);
          if (this.abortBoot === fail) this.abortBoot = null;
          if (!this.fresh) copyMarks(m.marks);
          this.setState("ready", { python: m.python, path: m.path, compiled: m.compiled,
            stale: m.stale, recorder: m.recorder });
          resolve();
        } else if (m.type === "failed" && m.boot) fail(new RecordError(m.message, "runtime"));
        else if (m.type === "failed" && m.fatal) this.restart(worker, m.message, "fatal");
        else if (m.type === "live-call") this.dispatchEvent(new CustomEvent("live-call", { detail: m }));
        else this.answer(m);
      };
      const onError = (event) => {
        event.preventDefault();
        if (this.worker !== worker) return;
        const error = new RecordError(event.message || "worker error", "runtime");
        if (this.state !== "ready") fail(error);
        else this.restart(worker, error.message, "fatal");
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      this.setState("loading", { loaded: 0, total: 1 });
      if (early) {
        for (const event of early.take()) (event.type === "error" ? onError : onMessage)(event);
      } else {
        worker.postMessage(this.bootMessage);
        performance.mark("loopstep:boot-asked");
      }
    });
    this.ready.catch(() => {});
    return this.ready;
  }

  /** Record a trace; resolves with the parsed trace or rejects with a RecordError.
   * `setup`: the reader's setup text, for scenario "custom" only. `questions` (optional):
   * {breakpoints: [{line, condition, hits, log}], watches: [text]}. `recording` (optional):
   * {name, text}, a recording file answering the model calls (a RecordError of kind
   * "recording" when it cannot answer this block's). `tolerant` (optional): a replay goes on
   * past a difference from the recording, marking it (docs/recordings.md). `schedule`
   * (optional): the text form of the schedule the run's threads follow (docs/design.md,
   * "Threads"; absent: the preset's); data, not code: not a guest run. `firstSteps` and
   * `onPartial` (optional): a run longer than `firstSteps` steps hands the trace of its
   * first ones to `onPartial` before the whole run's arrives (docs/recordings.md). */
  record({ lesson, block, scenario, maxSteps, setup, questions, fork, recording, tolerant, schedule,
    firstSteps, onPartial }) {
    const message = { type: "record", lesson, block, scenario, maxSteps, setup, questions, fork,
      recording, tolerant, schedule, ...(onPartial ? { firstSteps } : {}) };
    const timeout = this.recordTimeout;
    if (this.fresh || !isGuestRun(message)) return this.ask(message, timeout, onPartial);
    return this.guestClient().then((guest) => guest.ask(message, timeout, onPartial)).catch((error) => {
      // a guest runtime that could not start fails this run, not the page's runtime
      if (error instanceof RecordError && error.kind === "runtime") throw new RecordError(error.message, "failed");
      throw error;
    });
  }

  /** The worker a restart (or a fresh client) starts: see startWorker. */
  createWorker() {
    return startWorker(this.workerURL, this.name);
  }

  /** Boot the guest runtime ahead of a guest run the reader is about to make (an editor
   * opened, a link's code shown, a file about to be chosen): its boot overlaps the reader's
   * typing. `warm` {lesson, block, scenario}: a run of the site's own, whose first steps
   * the booted guest then records and drops (GuestClient.warm). */
  prepareGuest(warm = null) {
    if (this.fresh) return;
    this.guestClient().then((guest) => guest.boot().then(() => warm && guest.warm(warm)))
      .catch(() => {});
  }

  /** The guest runtime's client (boot/guest-client.js), made on first need. */
  guestClient() {
    this.guest ??= import("./guest-client.js").then(({ GuestClient }) => new GuestClient(this.config));
    return this.guest;
  }

  /** The text of the recording file of preset `scenario` ("" when it has none). */
  presetRecording({ lesson, scenario }) {
    return this.ask({ type: "preset-recording", lesson, scenario });
  }

  /** A live run (docs/live.md): `options` {provider, baseUrl, model, key, timeoutMs,
   * input?} as JSON text; resolves with the worker's JSON text {recording, status, error};
   * "live-call" events tell of each call. No watchdog: each request has its own timeout. */
  async live({ lesson, block, scenario, maxSteps, options }) {
    this.stop();
    // a clean room: a worker of its own, which has run nothing before and is dropped after
    const room = new RuntimeClient(this.config, { fresh: true, name: "loopstep-live" });
    this.liveRoom = room;
    const forward = (event) => this.dispatchEvent(new CustomEvent("live-call", { detail: event.detail }));
    room.addEventListener("live-call", forward);
    try {
      return await room.ask({ type: "live", lesson, block, scenario, maxSteps, options }, null);
    } finally {
      room.removeEventListener("live-call", forward);
      room.close("ended", "stopped");
      if (this.liveRoom === room) this.liveRoom = null;
    }
  }

  /** End the live run at once: its worker is dropped (a synchronous request cannot be
   * interrupted); its pending requests fail with kind "stopped". */
  stop() {
    this.liveRoom?.close("stopped", "stopped");
  }

  /** End the guest runtime's runs at once (a recording file's replay the reader
   * cancelled: recording/recording-file.js), as stop() ends a live run: its worker is
   * dropped, its pending requests fail with kind "cancelled", the next guest run boots a
   * fresh one. */
  cancelGuest() {
    this.guest?.then((guest) => guest.close("cancelled", "cancelled")).catch(() => {});
  }

  /** Drop this client's worker for good; pending requests fail with `kind`. */
  close(message, kind) {
    this.abortBoot?.(new RecordError(message, kind));
    if (this.worker) this.discard(this.worker);
    this.rejectPending(message, kind);
  }

  rejectPending(message, kind) {
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.failed = true;
      entry.reject(new RecordError(message, kind));
      this.pending.delete(id);
    }
  }

  /** Send `message` to the worker; resolves with its answer. `onPartial`: hears the trace
   * of a long run's first steps (a `partial` message) before the answer. */
  async ask(message, timeout = this.recordTimeout, onPartial = null) {
    await this.boot();
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      const timer = timeout === null ? null
        : setTimeout(() => this.restart(worker, seconds(timeout), "timeout"), timeout);
      this.pending.set(id, { resolve, reject, timer, onPartial, heard: Promise.resolve() });
      worker.postMessage({ ...message, id });
    });
  }

  answer(m) {
    const entry = this.pending.get(m.id);
    if (!entry) return;
    if (m.type === "partial") { // the run goes on: its first steps are heard before its end
      // heard before the run's trace resolves; not once the run failed or was dropped
      entry.heard = traceModule().then(({ fromPacked }) => (entry.failed ? undefined
        : entry.onPartial?.(fromPacked(m.json)))).catch(() => {});
      return;
    }
    this.pending.delete(m.id);
    clearTimeout(entry.timer);
    if (m.type === "trace") {
      Promise.all([traceModule(), entry.heard])
        .then(([{ fromPacked }]) => entry.resolve(fromPacked(m.json)))
        .catch((error) => entry.reject(new RecordError(String(error), "failed")));
    } else if (m.type === "text") entry.resolve(m.text);
    else {
      entry.failed = true;
      entry.reject(new RecordError(m.message, m.kind ?? "failed"));
    }
  }

  /**
   * Terminate a worker that is stuck ("timeout") or broken ("fatal"); pending
   * requests fail with that kind; a fresh worker boots at once.
   */
  restart(worker, message, kind) {
    if (this.worker !== worker) return;
    this.discard(worker);
    this.rejectPending(message, kind);
    this.setState("idle", { message, kind });
    this.dispatchEvent(new CustomEvent("restarted", { detail: { message, kind } }));
    this.boot();
  }

  discard(worker) {
    worker.terminate();
    if (this.worker === worker) {
      this.worker = null;
      this.ready = null;
    }
  }
}

/** The document's base URL without its fragment, which a link may make megabytes long. */
export function pageBase() {
  return document.baseURI.split("#")[0];
}

/** Whether a record request runs code a reader, a link or a file brought: a custom setup,
 * a fork or a loaded recording file (the guest runtime's), not only the site's. */
export function isGuestRun({ setup, fork, recording }) {
  return (setup !== undefined && setup !== null) || Boolean(fork) || Boolean(recording);
}

/** A worker running the module at `url`, started from a blob: such a worker keeps the
 * page's Content-Security-Policy on every host (a worker started from its own URL gets
 * only what its response's headers say, nothing on a plain static host). The head's early
 * script (runtime-early.js) starts the first one the same way. */
export function startWorker(url, name) {
  const source = `import ${JSON.stringify(String(url))};`;
  const blob = new Blob([source], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(blob), { type: "module", name });
}

/** The worker's boot milestones on the page's timeline (docs/performance.md). */
function copyMarks(marks) {
  for (const { name, at } of marks ?? []) {
    performance.mark(name, { startTime: Math.max(0, at - performance.timeOrigin) });
  }
  performance.mark("loopstep:ready");
}

let shared = null;

/** The runtime data island of the document's head ({lang, pyodide, worker, python, runtime}), or
 * null on a page without one. Found by its id, not through SEL: this module's graph stays
 * one file deep. */
export function runtimeConfig(doc = document) {
  const node = doc.getElementById("loopstep-runtime");
  return node ? JSON.parse(node.textContent) : null;
}

/** The page's one client: the early boot script and the page script share it. */
export function sharedClient(config = runtimeConfig()) {
  shared ??= new RuntimeClient(config);
  return shared;
}
