// One run of a block in the page's Python: the vendored Pyodide under Node, started with
// the page's string-hash seed, the recorder's and the lesson's files written where the
// worker writes them. Used by `loopstep doctor` (node.py).
//
//   node pyodide.mjs JOB.json
// JOB.json: {"indexURL", "hashSeed", "runtime": {"REL": abs path}, "lessons": {"REL": abs path},
//            "lesson", "block", "scenario"}
// Prints {"trace": …} or {"error": text}.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const indexURL = job.indexURL.endsWith("/") ? job.indexURL : `${job.indexURL}/`;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {},
  env: { PYTHONHASHSEED: String(job.hashSeed) } });

for (const [base, files] of [["/loopstep/runtime", job.runtime], ["/loopstep/lessons", job.lessons]]) {
  for (const [rel, abs] of Object.entries(files)) {
    const target = `${base}/${rel}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(abs));
  }
}
pyodide.globals.set("job", pyodide.toPy({ lesson: job.lesson, block: job.block, scenario: job.scenario }));
const runJob = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/loopstep")
from runtime.recorder import record
from runtime.browser.worker import threads_wanted

def run_job():
    try:
        found = {"trace": record(job["lesson"], job["block"], job["scenario"],
                                 roots=["/loopstep/lessons"])}
    except Exception as error:
        found = {"error": f"{type(error).__name__}: {error}"}
    return json.dumps(found, ensure_ascii=False)

run_job
`);
let out = runJob();
// a run that starts threads: again on stacks that suspend, as the page's worker records it
// (node.py starts this Node with stack switching where it has it)
if (pyodide.runPython("threads_wanted()") && ("Suspending" in WebAssembly || "Suspender" in WebAssembly)) {
  out = await runJob.callPromising();
}
process.stdout.write(out);
