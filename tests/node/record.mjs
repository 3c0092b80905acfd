// Record traces with the runtime inside Pyodide (Node 20), for the parity tests.
//
//   node tests/node/record.mjs JOB.json     one job, its result on stdout
//   node tests/node/record.mjs --serve      one Pyodide for many jobs: a JOB.json path per
//                                           line on stdin, a result per line on stdout
//
// JOB.json: {"indexURL": ".../web/vendor/pyodide-VERSION/",
//            "runtime": {"catalog.py": "/abs/path", ...},      // written to /loopstep/runtime/ (sub/x.py too)
//            "lessons": {"s06/lesson.toml": "/abs/path", ...}, // written to /loopstep/lessons/
//            "runs": [{"lesson", "block", "scenario", "maxSteps"?, "backend"?, "setup"?, "questions"?, "agent"?,
//                      "fork"?, "recording"?, "tolerant"?, "schedule"?, "packed"?, "suspending"?}, ...],
//            (suspending: called with callPromising, so that its threads can run; Node 20
//             needs --experimental-wasm-stack-switching)
//            "code": "optional Python to run after the records; its value is printed"}
// Prints one JSON object: {"python", "boot_ms", "timings", "traces": [trace, ...], "value"}
// (served: {"error": TEXT} for a job that failed). Each job starts from a clean /loopstep:
// its files written anew, every module imported from there by an earlier job forgotten.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import path from "node:path";

const serve = process.argv[2] === "--serve";
const firstJob = serve ? null : JSON.parse(readFileSync(process.argv[2], "utf8"));
const indexURL = serve ? process.env.LOOPSTEP_PYODIDE_INDEX : firstJob.indexURL;
const base = indexURL.endsWith("/") ? indexURL : indexURL + "/";
const { loadPyodide } = await import(pathToFileURL(path.join(base, "pyodide.mjs")).href);

const started = Date.now();
// the page's string-hash seed (web/static/js/boot/boot.js HASH_SEED)
const pyodide = await loadPyodide({ indexURL: base, stdout: () => {}, stderr: () => {},
  env: { PYTHONHASHSEED: "0" } });
const bootMs = Date.now() - started;

pyodide.runPython(`
import json
import shutil
import sys

def _forget():
    """What an earlier job left: its files and every module imported from them."""
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith("/loopstep/"):
            del sys.modules[name]
    for name in [n for n in sys.modules if n == "runtime" or n.startswith("runtime.")]:
        del sys.modules[name]
    shutil.rmtree("/loopstep", ignore_errors=True)
    if "/loopstep" not in sys.path:
        sys.path.insert(0, "/loopstep")

def _record(spec):
    from runtime.recorder import record, record_packed
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
                             tolerant=spec.get("tolerant", False),
                             schedule=spec.get("schedule")),
                      ensure_ascii=False)
`);
const forget = pyodide.globals.get("_forget");
const recordOne = pyodide.globals.get("_record");

function writeTree(root, files) {
  for (const [rel, abs] of Object.entries(files)) {
    const target = `${root}/${rel}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(abs));
  }
}

async function run(job) {
  forget();
  writeTree("/loopstep/runtime", job.runtime);
  writeTree("/loopstep/lessons", job.lessons);
  const traces = [];
  const timings = [];
  for (const one of job.runs) {
    const t0 = performance.now();
    const spec = JSON.stringify(one);
    traces.push(JSON.parse(one.suspending ? await recordOne.callPromising(spec) : recordOne(spec)));
    timings.push(performance.now() - t0);
  }
  const value = job.code ? pyodide.runPython(job.code) : null;
  return {
    python: pyodide.runPython("import sys; sys.version.split()[0]"),
    boot_ms: bootMs, timings, traces,
    value: value && value.toJs ? value.toJs() : value,
  };
}

if (!serve) {
  process.stdout.write(JSON.stringify(await run(firstJob)));
} else {
  for await (const line of createInterface({ input: process.stdin })) {
    let result;
    try {
      result = await run(JSON.parse(readFileSync(line.trim(), "utf8")));
    } catch (error) {
      result = { error: String(error && error.stack || error) };
    }
    process.stdout.write(JSON.stringify(result) + "\n");
  }
}
