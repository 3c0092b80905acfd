// A block's recorded runs: the traces of all the page's blocks under one memory budget
// (model/trace-cache.js) and their replay (model/replay.js), both imported with the first
// recording, off the page's path to ready. A run is shown only once one has arrived.

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

/** The trace of `scenario` for `block` (the custom one: of its current setup text),
 * recorded unless the page's cache still has it. `fork`: {call, text} (whatif/fork-editor.js),
 * that call answering the JSON `text`; the cache keys the fork by its text. */
export async function traceOf(block, scenario, fork = null) {
  const key = block.traceKey(scenario) + (fork ? `\nfork ${fork.call}\n${fork.text}` : "");
  const kept = pageTraces.cache?.get(key);
  if (kept) return kept;
  const cache = traceCache(); // imported while the trace is recorded
  const replaying = replayModule();
  const custom = scenario === block.config.customScenario;
  const trace = await block.client.record({
    lesson: block.lesson, block: block.name, scenario,
    maxSteps: block.client.maxSteps, // the page config's runtime.maxSteps
    questions: block.questions.request(block.breakpoints) ?? undefined,
    ...(custom ? { setup: block.customSetup } : {}),
    ...(fork ? { fork: { call: fork.call, value: JSON.parse(fork.text) } } : {}),
  });
  await replaying;
  return (await cache).set(key, trace);
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
