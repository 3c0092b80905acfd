// Runs side by side: time web/static/js/model/align.js on two 10,000-step runs, against the
// textbook O(N·M) longest-common-subsequence table on the same keys, alternating.
//   node bench/align.mjs [ROUNDS]   → one JSON object on stdout
import { align, stepKeys } from "../web/static/js/model/align.js";
import { fromSteps } from "../web/static/js/model/trace.js";

const STEPS = 10_000;
const rounds = Number(process.argv[2] ?? 5);

/** A loop of 4-statement iterations; `branch(i)` says whether iteration i takes the other branch. */
function loopTrace(branch, depthOf = () => 1) {
  const steps = [];
  for (let i = 0; steps.length < STEPS; i++) {
    const depth = depthOf(i);
    for (const line of [3, 4, branch(i) ? 7 : 5, 8]) {
      steps.push({ event: "line", line, fn: "f", frame: 1, depth, stack: 0, out: 0, set: {} });
    }
  }
  return fromSteps(steps.slice(0, STEPS));
}

const CASES = {
  "a few iterations differ": [loopTrace(() => false), loopTrace((i) => i % 97 === 3)],
  "every iteration differs after the first quarter": [loopTrace(() => false), loopTrace((i) => i > 625)],
  "nothing in common": [loopTrace(() => false), loopTrace(() => false, () => 2)],
};

function lcsTable(a, b) {
  let prev = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    }
    [prev, row] = [row, prev];
  }
  return prev[b.length];
}

const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });

const out = { steps: STEPS, rounds, cases: {} };
for (const [name, [ta, tb]] of Object.entries(CASES)) {
  const alignMs = [];
  const tableMs = [];
  let result = null;
  let lcs = 0;
  align(stepKeys(ta), stepKeys(tb)); // warm up the JIT
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    result = align(stepKeys(ta), stepKeys(tb));
    alignMs.push(performance.now() - t);
    t = performance.now();
    lcs = lcsTable(stepKeys(ta), stepKeys(tb));
    tableMs.push(performance.now() - t);
  }
  let matches = 0;
  for (let k = 0; k < result.length; k++) if (result.a[k] >= 0 && result.b[k] >= 0) matches++;
  out.cases[name] = { align_ms: summary(alignMs), table_ms: summary(tableMs), matches, lcs,
    divergence: result.divergence };
}
process.stdout.write(JSON.stringify(out));
