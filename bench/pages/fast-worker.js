// Bench worker B: boots through web/static/js/boot/boot.js, lays out the recorder and the
// benchmark lesson like the page's worker does, and is ready when runtime.recorder is
// imported. Also answers "record" (a long trace, timed) and "untraced" (the same code
// without the recorder) for bench/run.py.
import { bootPyodide } from "/static/js/boot/boot.js";
import { writeBundles } from "/static/js/boot/pyc-bundle.js";
import { settleRecorder } from "/static/js/boot/snapshot-runtime.js";

performance.mark("loopstep:worker:evaluated");
const config = await (await fetch("/bench/config.json")).json();
const indexURL = new URL(config.indexURL, self.location.href).href;
const bootURL = new URL(config.bootURL, self.location.href).href;
const module = await import(indexURL + "pyodide.mjs");
performance.mark("loopstep:worker:pyodide-imported");
const params = new URL(self.location.href).searchParams;
// ?snapshot=0 never, =1 always; none: boot.js's default
const snapshot = { 0: false, 1: true }[params.get("snapshot")];
// ?early=0: Pyodide compiles the wasm itself, when it loads (boot.js `early`)
const early = params.get("early") !== "0";
const { pyodide, path, fallbacks, warmUp, recorder: snapshotRecorder } = await bootPyodide(module, {
  indexURL, bootURL, early, ...(snapshot === undefined ? {} : { snapshot }), packages: [], stdout: () => {}, stderr: () => {},
});
performance.mark("loopstep:worker:pyodide-booted");
// the snapshot's recorder only if it is the one served, as the page's worker decides: then
// the recorder's files (its sources, precompiled) are not fetched
const recorder = settleRecorder(pyodide, snapshotRecorder, config.runtimeDigest, "/loopstep");
const wanted = config.files.filter((f) => recorder === "files" || !f.runtime);
const [texts, compiled] = await Promise.all([
  Promise.all(wanted.map(async (f) => (await fetch(f.url)).text())),
  recorder === "files" ? fetch(config.compiled).then((r) => r.arrayBuffer()) : null,
]);
wanted.forEach((f, i) => {
  pyodide.FS.mkdirTree(f.path.slice(0, f.path.lastIndexOf("/")));
  pyodide.FS.writeFile(f.path, texts[i], { encoding: "utf8" });
});
// the recorder's precompiled modules, as the page's worker writes them
writeBundles(pyodide, [compiled], "/loopstep", { required: false });
performance.mark("loopstep:worker:files-written");
const helpers = pyodide.runPython(`
import gc, io, json, sys, time
sys.path.insert(0, "/loopstep")
from runtime import recorder
from runtime.catalog.lessons import load_lesson

def record(lesson, block, scenario, roots, max_steps, questions=None):
    # what the page's worker does: record, and serialise the packed trace it posts;
    # the garbage of the previous run collected first, outside the timed part
    gc.collect()
    t0 = time.perf_counter()
    text = recorder.record_packed(lesson, block, scenario, roots=list(roots),
                                  max_steps=max_steps,
                                  questions=json.loads(questions) if questions else None)
    t1 = time.perf_counter()
    trace = json.loads(text)
    return json.dumps({"status": trace["status"], "steps": trace["count"],
                       "backend": trace["backend"], "record_s": t1 - t0, "json_s": 0.0,
                       "json_bytes": len(text.encode())})

def untraced(lesson, block, scenario, roots):
    spec = load_lesson(lesson, list(roots))
    programs = spec.programs(block, scenario)
    codes = [compile(p.text, p.path, "exec", dont_inherit=True) for p in programs]
    namespace = {"__name__": "__main__"}
    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        for code in codes[:-1]:
            exec(code, namespace)
        t0 = time.perf_counter()
        exec(codes[-1], namespace)
        return time.perf_counter() - t0
    finally:
        sys.stdout = saved

(record, untraced)
`);
const [record, untraced] = helpers.toJs({ depth: 1 });
const python = pyodide.runPython("import sys; sys.version.split()[0]");
performance.mark("loopstep:worker:recorder-imported");
const marks = performance.getEntriesByType("mark").filter((m) => m.name.startsWith("loopstep:"))
  .map((m) => ({ name: m.name, at: performance.timeOrigin + m.startTime }));
const readyAt = performance.now();
self.postMessage({ type: "ready", path, fallbacks, python, at: readyAt, marks });
warmUp();

self.onmessage = ({ data }) => {
  const roots = pyodide.toPy(config.roots);
  try {
    if (data.type === "record") {
      const heapBefore = pyodide._module.HEAP8.length;
      const result = JSON.parse(record(config.lesson, config.block, config.scenario, roots,
        data.maxSteps, data.questions ? JSON.stringify(data.questions) : undefined));
      result.heap_growth = pyodide._module.HEAP8.length - heapBefore;
      self.postMessage({ id: data.id, ...result });
    } else if (data.type === "untraced") {
      self.postMessage({ id: data.id, seconds: untraced(config.lesson, config.block,
        config.scenario, roots) });
    } else if (data.type === "resources") {
      // what was asked for until ready: not the trimmed zip warmUp() fetches for later
      self.postMessage({ id: data.id, entries: performance.getEntriesByType("resource")
        .filter((e) => e.startTime <= readyAt).map(
        (e) => ({ name: e.name, transferSize: e.transferSize,
          encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize })) });
    }
  } catch (error) {
    self.postMessage({ type: "failed", id: data.id, message: String(error.message ?? error) });
  } finally {
    roots.destroy();
  }
};
