// Jumps into a million-step trace: web/static/js/model/replay.js (checkpoints) against
// rebuilding the locals from step 0 (no checkpoints), alternating.
//   node bench/replay_jump.mjs [ROUNDS]   → one JSON object on stdout
import { replay } from "../web/static/js/model/replay.js";
import { fromSteps } from "../web/static/js/model/trace.js";

const STEPS = 1_000_000;
const JUMPS = 200;
const rounds = Number(process.argv[2] ?? 5);

const steps = new Array(STEPS);
for (let i = 0; i < STEPS; i++) {
  steps[i] = { event: "line", line: 2, fn: "g", frame: 1 + (i % 3), depth: 1, stack: 0, out: 0,
    set: { i: String(i) } };
}
const trace = fromSteps(steps, { stacks: [[]], stdout: "" });
const targets = Array.from({ length: JUMPS }, (_, k) => Math.floor((k * 7919 * 127) % STEPS));

/** The locals at step `at` by applying every step's bindings from the start. */
function fromStart(at) {
  const locals = new Map();
  for (let k = 0; k <= at; k++) trace.eachSet(k, (name, value) => locals.set(name, value));
  return locals;
}

const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });

const r = replay(trace);
const jumpMs = [];
const scanMs = [];
for (let round = 0; round < rounds; round++) {
  let t = performance.now();
  for (const at of targets) r.locals(at);
  jumpMs.push((performance.now() - t) / JUMPS);
  t = performance.now();
  for (const at of targets.slice(0, 10)) fromStart(at);
  scanMs.push((performance.now() - t) / 10);
}
process.stdout.write(JSON.stringify({ steps: STEPS, jumps: JUMPS, rounds,
  jump_ms: summary(jumpMs), from_start_ms: summary(scanMs) }));
