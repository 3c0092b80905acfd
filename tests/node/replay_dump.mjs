// What the page's replay shows at every step of packed traces (tests/test_oracle.py).
//
//   node tests/node/replay_dump.mjs TRACES.json
//
// TRACES.json: [packed trace (JSON text or object), …]. Through web/static/js/model/trace.js
// and replay.js exactly as shipped, prints one JSON array: per trace, per step i
// {"locals": [[name, VALUE], …] (replay(trace).locals(i)), "output": replay.output(i)},
// with "output" left out where it equals the previous step's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const js = (name) => pathToFileURL(path.join(ROOT, "web/static/js", name)).href;
const { fromPacked } = await import(js("model/trace.js"));
const { replay } = await import(js("model/replay.js"));

const result = [];
for (const packed of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
  const r = replay(fromPacked(packed));
  const steps = [];
  let last = null;
  for (let i = 0; i < r.length; i++) {
    const step = { locals: [...r.locals(i)] };
    const output = r.output(i);
    if (output !== last) step.output = output;
    last = output;
    steps.push(step);
  }
  result.push(steps);
}
process.stdout.write(JSON.stringify(result));
