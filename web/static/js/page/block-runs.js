// A block's recorded runs: the traces of all the page's blocks under one memory budget
// (model/trace-cache.js) and their replay (model/replay.js), both imported with the first
// trace, off the page's path to ready. A run is shown only once one has arrived.
// A preset's run without questions comes from the shipped traces (shipped.js) when the
// page has them, else it is recorded in the page; `trace.madeBy` says which
// ("shipped"|"live"). A recording file loaded into the block (recording/recording-file.js)
// answers the model calls of its runs: never a shipped trace then, nor for a tolerant
// replay (`block.tolerant`, recording/recording-view.js).

import { sharedShipped } from "./shipped.js";

const pageTraces = { cache: null, loading: null };
const traceCache = () => {
  pageTraces.loading ??= import("../model/trace-cache.js")
    .then(({ TraceCache }) => (pageTraces.cache = new TraceCache()));
  return pageTraces.loading;
};
const replays = { replay: null, loading: null };
const replayModule = () => {
  replays.loading ??= import("../model/replay.js").then(({ replay }) => (replays.replay = replay));
  return replays.loading;
};

const underWay = new Map(); // key → the trace being recorded: asked for again, not recorded twice

/** The trace of `scenario` for `block` (the custom one: of its current setup text),
 * recorded unless the page's cache still has it. `fork`: {call, text} (whatif/fork-editor.js),
 * that call answering the JSON `text`; the cache keys the fork by its text; or {schedule},
 * the run following that schedule's text (docs/design.md, "Threads"). `answers`:
 * {name, text, key} the recording file answering the model calls (the block's, if any).
 * A run already being recorded under the same key is not recorded again: its trace is
 * the answer.
 * `onPartial`: hears the trace of a long run's first steps while the rest is recorded
 * (the page config's runtime.firstSteps; recording/recording-file.js). */
export function traceOf(block, scenario, fork = null, answers = block.recording, onPartial = null) {
  const schedule = fork?.schedule ?? null;
  if (schedule !== null) fork = null;
  const key = block.traceKey(scenario, answers) + (fork ? `\nfork ${fork.call}\n${fork.text}` : "")
    + (schedule !== null ? `\nschedule ${schedule}` : "");
  const kept = pageTraces.cache?.get(key);
  if (kept) return Promise.resolve(kept);
  if (underWay.has(key)) return underWay.get(key);
  const made = record(block, scenario, fork, schedule, answers, onPartial, key);
  underWay.set(key, made);
  const forget = () => underWay.delete(key);
  made.then(forget, forget);
  return made;
}

async function record(block, scenario, fork, schedule, recording, onPartial, key) {
  const cache = traceCache(); // imported while the trace is recorded
  const replaying = replayModule();
  const custom = scenario === block.config.customScenario;
  const questions = block.questions.request(block.breakpoints);
  let trace = custom || questions || fork || schedule !== null || recording || block.tolerant ? null
    : await sharedShipped().trace(block.name, scenario);
  if (trace) trace.madeBy = "shipped";
  else {
    trace = await block.client.record({
      lesson: block.lesson, block: block.name, scenario,
      maxSteps: block.client.maxSteps, // the page config's runtime.maxSteps
      questions: questions ?? undefined,
      ...(custom ? { setup: block.customSetup } : {}),
      ...(fork ? { fork: { call: fork.call, value: JSON.parse(fork.text) } } : {}),
      ...(recording ? { recording: { name: recording.name, text: recording.text } } : {}),
      ...(block.tolerant ? { tolerant: true } : {}),
      ...(schedule !== null ? { schedule } : {}),
      ...(onPartial ? { firstSteps: block.client.firstSteps, onPartial: (first) => {
        first.madeBy = "live";
        first.partial = true; // its steps are the run's first: the rest is on its way
        return replaying.then(() => onPartial(first)); // heard before the whole run
      } } : {}),
    });
    trace.madeBy = "live";
  }
  await replaying;
  return (await cache).set(key, trace);
}

/** Get ready for `block`'s Debug while the page is idle: its shown preset's shipped
 * trace and the modules that keep and replay a trace, fetched at a low priority. */
export function prefetch(block) {
  if (block.questions.request(block.breakpoints)) return;
  sharedShipped().prefetch(block.name, block.scenario);
  traceCache().catch(() => {});
  replayModule().catch(() => {});
}

/** The cached trace under `key`, if the cache has it. */
export function cached(key) {
  return pageTraces.cache?.get(key);
}

/** The cache keeps `trace` while `block` holds it as `role` ("shown", "compared"). */
export function hold(block, role, trace) {
  pageTraces.cache?.hold(`${block.id} ${role}`, trace);
}

/** The replay of a trace that arrived through traceOf (its module is loaded by then). */
export function replayOf(trace) {
  return replays.replay(trace);
}
