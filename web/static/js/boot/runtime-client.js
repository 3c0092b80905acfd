// The page's side of the Python worker: one shared worker per page.
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
    // "runtime" (no runtime), "recording" (a loaded recording cannot answer the block)
    this.kind = kind;
  }
}

export class RuntimeClient extends EventTarget {
  constructor(config, { bootTimeout = BOOT_TIMEOUT_MS, recordTimeout = RECORD_TIMEOUT_MS } = {}) {
    super();
    // the worker the config names (the bundle's one file once built: web/module_graph.py),
    // as the head's early script starts it
    this.workerURL = new URL(config.worker, document.baseURI);
    // the worker resolves the config's URLs against the document's (worker.js, bootConfig)
    this.bootMessage = { type: "boot", base: document.baseURI, config };
    // config.runtime (optional) may set bootTimeoutMs / recordTimeoutMs.
    this.bootTimeout = config.runtime?.bootTimeoutMs ?? bootTimeout;
    this.recordTimeout = config.runtime?.recordTimeoutMs ?? recordTimeout;
    this.maxSteps = config.runtime?.maxSteps ?? null;
    this.state = "idle";
    this.worker = null;
    this.ready = null;
    this.pending = new Map();
    this.nextId = 1;
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
      window.loopstepStartEarly?.();
      const early = window.loopstepEarlyWorker;
      const worker = early?.worker ?? new Worker(this.workerURL, { type: "module", name: "loopstep-python" });
      this.worker = worker;
      const timer = setTimeout(() => fail(new RecordError(seconds(this.bootTimeout), "runtime")),
        this.bootTimeout);
      const fail = (error) => {
        clearTimeout(timer);
        this.discard(worker);
        this.setState("failed", { message: error.message });
        reject(error);
      };
      const onMessage = (event) => {
        if (this.worker !== worker) return; // discarded (events kept by the early script)
        const m = event.data;
        if (m.type === "progress") this.setState("loading", { loaded: m.loaded, total: m.total });
        else if (m.type === "ready") {
          clearTimeout(timer);
          copyMarks(m.marks);
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
   * "recording" when it cannot answer this block's). */
  record({ lesson, block, scenario, maxSteps, setup, questions, fork, recording }) {
    return this.ask({ type: "record", lesson, block, scenario, maxSteps, setup, questions, fork,
      recording });
  }

  /** The text of the recording file of preset `scenario` ("" when it has none). */
  presetRecording({ lesson, scenario }) {
    return this.ask({ type: "preset-recording", lesson, scenario });
  }

  /** A live run (docs/live.md): `options` {provider, baseUrl, model, key, timeoutMs,
   * input?} as JSON text; resolves with the worker's JSON text {recording, status, error};
   * "live-call" events tell of each call. No watchdog: each request has its own timeout. */
  live({ lesson, block, scenario, maxSteps, options }) {
    return this.ask({ type: "live", lesson, block, scenario, maxSteps, options }, null);
  }

  /** End the live run at once: the worker is replaced (a synchronous request cannot be
   * interrupted); its pending requests fail with kind "stopped". */
  stop() {
    if (this.worker) this.restart(this.worker, "stopped", "stopped");
  }

  async ask(message, timeout = this.recordTimeout) {
    await this.boot();
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      const timer = timeout === null ? null
        : setTimeout(() => this.restart(worker, seconds(timeout), "timeout"), timeout);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ ...message, id });
    });
  }

  answer(m) {
    const entry = this.pending.get(m.id);
    if (!entry) return;
    this.pending.delete(m.id);
    clearTimeout(entry.timer);
    if (m.type === "trace") {
      traceModule()
        .then(({ fromPacked }) => entry.resolve(fromPacked(m.json)))
        .catch((error) => entry.reject(new RecordError(String(error), "failed")));
    } else if (m.type === "text") entry.resolve(m.text);
    else entry.reject(new RecordError(m.message, m.kind ?? "failed"));
  }

  /**
   * Terminate a worker that is stuck ("timeout") or broken ("fatal"); pending
   * requests fail with that kind; a fresh worker boots at once.
   */
  restart(worker, message, kind) {
    if (this.worker !== worker) return;
    this.discard(worker);
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new RecordError(message, kind));
      this.pending.delete(id);
    }
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
