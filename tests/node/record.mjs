// Record traces with the runtime inside Pyodide (Node 20), for the parity tests.
//
//   node tests/node/record.mjs JOB.json
//
// JOB.json: {"indexURL": ".../web/vendor/pyodide-VERSION/",
//            "runtime": {"catalog.py": "/abs/path", ...},      // written to /loopstep/runtime/ (sub/x.py too)
//            "lessons": {"s06/lesson.toml": "/abs/path", ...}, // written to /loopstep/lessons/
//            "runs": [{"lesson", "block", "scenario", "maxSteps"?, "backend"?, "setup"?, "questions"?, "agent"?,
//                      "fork"?, "recording"?, "tolerant"?, "packed"?, "suspending"?}, ...],
//            (suspending: called with callPromising, so that its threads can run; Node 20
//             needs --experimental-wasm-stack-switching)
//            "code": "optional Python to run after the records; its value is printed"}
// Prints one JSON object: {"python", "boot_ms", "traces": [trace, ...], "value"}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const indexURL = job.indexURL.endsWith("/") ? job.indexURL : job.indexURL + "/";
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);

const started = Date.now();
// the page's string-hash seed (web/static/js/boot/boot.js HASH_SEED)
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {},
  env: { PYTHONHASHSEED: "0" } });
const bootMs = Date.now() - started;

function writeTree(base, files) {
  for (const [rel, abs] of Object.entries(files)) {
    const target = `${base}/${rel}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(abs));
  }
}
writeTree("/loopstep/runtime", job.runtime);
writeTree("/loopstep/lessons", job.lessons);

pyodide.runPython(`
import sys
sys.path.insert(0, "/loopstep")
import json
from runtime.recorder import record, record_packed
def _record(spec):
    spec = json.loads(spec)
    if spec.get("packed"):
        return record_packed(spec["lesson"], spec["block"], spec["scenario"],
                             roots=["/loopstep/lessons"], backend=spec.get("backend"),
                             max_steps=spec.get("maxSteps", 100_000),
                             agent=spec.get("agent", True))
    return json.dumps(record(spec["lesson"], spec["block"], spec["scenario"],
                             roots=["/loopstep/lessons"],
                             max_steps=spec.get("maxSteps", 100_000),
                             backend=spec.get("backend"), setup=spec.get("setup"),
                             questions=spec.get("questions"), agent=spec.get("agent", True),
                             fork=spec.get("fork"), recording=spec.get("recording"),
                             tolerant=spec.get("tolerant", False)),
                      ensure_ascii=False)
`);
const recordOne = pyodide.globals.get("_record");
const traces = [];
const timings = [];
for (const run of job.runs) {
  const t0 = performance.now();
  const spec = JSON.stringify(run);
  traces.push(JSON.parse(run.suspending ? await recordOne.callPromising(spec) : recordOne(spec)));
  timings.push(performance.now() - t0);
}
const value = job.code ? pyodide.runPython(job.code) : null;
process.stdout.write(JSON.stringify({
  python: pyodide.runPython("import sys; sys.version.split()[0]"),
  boot_ms: bootMs, timings, traces,
  value: value && value.toJs ? value.toJs() : value,
}));
