// The Python runtime: a module Web Worker that boots Pyodide and records traces.
//
// Protocol (docs/design.md): main → worker `boot` {base, config, head} (config: the page's
// runtime data island, its URLs relative to `base`; head: the page is downloading the
// snapshot and the wasm and posts them as `head` messages), `head` {name, chunks | done |
// module | error} (runtime-early.js) and `record` {id, lesson, block,
// scenario, maxSteps, setup?, questions?, fork?, recording?, tolerant?, schedule?} (`setup`: the reader's setup
// text, only for scenario "custom"; `questions`: breakpoint conditions, hit counts,
// logpoints and watches, see runtime/questions/questions.py; `recording`: {name, text}, a
// recording file the reader loaded answering the model calls, docs/recordings.md;
// `tolerant`: a replay goes on past a difference from its recording, marking it;
// `schedule`: the schedule's text form, docs/design.md "Threads", absent: the preset's;
// `firstSteps`: a run longer than that posts its first steps as `partial` first) and
// `preset-recording` {id, lesson, scenario} (the text of a preset's recording file) and
// `warm` {id, lesson, block, scenario, maxSteps} (a run recorded and dropped: answered by
// an empty `text`; boot/guest-client.js warm);
// worker → main `progress` {loaded, total},
//   `ready` {python, path, marks, compiled, stale, recorder: "snapshot"|"files"}
// (`compiled`: how many precompiled modules were written, `stale`: those whose source
// differs, so that Python compiled the source; `recorder`: whether the recorder's modules
// are the ones the snapshot imported — its files are then not fetched, `compiled` is 0 —
// or were imported from the page's files),
// `partial` {id, json} (the packed trace of the run's first `firstSteps` steps, before
// its `trace`: docs/recordings.md "A long run streams"), `trace` {id, json} (the packed trace),
// `failed` {id?, message, boot?, fatal?, kind?}. `fatal`: Pyodide itself broke (e.g. the
// browser's stack overflowed under C recursion) and this worker can record no more;
// `kind` "schedule-unsupported": the run starts threads and this browser cannot suspend
// Python stacks (no JSPI), so it was not run.
//
// A wasm that cannot load fails the boot at once instead of leaving loadPyodide
// waiting (boot/worker-downloads.js).

// This worker's own modules are asked for as soon as it runs, not imported statically
// (that would add a round trip before it could start) nor when the boot message arrives
// (which the page's busy main thread may hand over hundreds of milliseconds later).
import { guest, channel, guestFetch, guestDigest, answerFile, importText, syncLoader, readAhead }
  from "./boot/guest-channel.js";
import { head, receiveHead, countHeadBytes, countingFetch, watchWebAssembly }
  from "./boot/worker-downloads.js";

const bootImport = import("./boot/boot.js");
const pycImport = import("./boot/pyc-bundle.js");
const recorderImport = import("./boot/snapshot-runtime.js");
bootImport.catch(() => {}); // awaited by the boot, which reports what failed
pycImport.catch(() => {});
recorderImport.catch(() => {});
const pycModule = () => pycImport;

let pyodide = null;
let bootPath = null; // "snapshot" | "trimmed" | "stock": which way Pyodide came up
let entry = null; // runtime/browser/worker.py, once the recorder's files are written
let queued = Promise.resolve(); // the record in progress: one at a time (threads suspend)
let roots = [];
let recorderAt = null; // {runtime: the page's config of the recorder's files, sysPath}

// The recursion limit a recording runs under: runtime/browser/worker.py RECURSION_LIMIT.

// Rejects as soon as the boot set is known to be unusable (checkWasm, watchWebAssembly).
let failBoot = () => {};
const bootFailed = new Promise((_, reject) => {
  failBoot = reject;
});
bootFailed.catch(() => {});

const post = (message) => channel.postMessage(message);

// A guest (boot/guest-channel.js) asks the page for every file it reads.
if (guest) self.fetch = guestFetch;

// Download progress is posted at most this often: each post costs the page a style,
// layout and paint pass while the worker needs the CPU.
const PROGRESS_INTERVAL_MS = 200;

/** Boot milestones (performance marks, "loopstep:worker:*"), posted with "ready" as
 * absolute times so that the page can lay them on its own timeline. */
const mark = (name) => performance.mark(`loopstep:worker:${name}`);
const marks = () => performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("loopstep:"))
  .map((m) => ({ name: m.name, at: performance.timeOrigin + m.startTime }));
mark("evaluated");

/** The recorder's files, fetched and written once when the worker needs them: its sources
 * and, beside them, its precompiled modules (Python uses one only if it was compiled from
 * the source it finds: checked hash-based .pyc). Not needed while the snapshot's recorder
 * is the served one, until a module it never imported is (a live run's, runtime/live).
 * Resolves to the precompiled modules' paths. */
let recorderFiles = null;
function writeRecorderFiles(runtime, sysPath) {
  recorderFiles ??= (async () => {
    const { fetchBundles, fetchCompiled, writeBundles } = await pycModule();
    const compiled = fetchCompiled(runtime.compiled);
    await writeBundles(pyodide, await fetchBundles([runtime.bundle]), sysPath);
    const precompiled = await writeBundles(pyodide, [await compiled], sysPath, { required: false });
    // the import system looks at the folder again (it may have seen it without them)
    const cache = pyodide.pyimport("sys").path_importer_cache;
    for (const key of [...cache.keys()]) {
      if (key === sysPath || key.startsWith(`${sysPath}/`)) cache.pop(key);
    }
    return precompiled.map(({ path }) => `${sysPath}/${path}`);
  })();
  recorderFiles.catch(() => { recorderFiles = null; }); // a later need tries again
  return recorderFiles;
}

/** The recorder's entry for the worker (runtime/browser/worker.py), imported from the
 * files written under `sysPath`, which goes first on sys.path. */
function importEntry(py, sysPath) {
  const path = py.pyimport("sys").path;
  if (!path.toJs().includes(sysPath)) path.insert(0, sysPath);
  return py.pyimport("runtime.browser.worker");
}

/** The boot message's runtime config ({pyodide, python}, the page's data island) with
 * its URLs resolved against the document's `base`. */
function bootConfig({ base, config }) {
  const url = (relative) => (relative ? new URL(relative, base).href : undefined);
  const { pyodide: runtime, python } = config;
  return {
    indexURL: url(runtime.indexURL),
    bootURL: url(runtime.bootURL),
    bootVersion: runtime.bootVersion,
    sizes: runtime.sizes ?? {},
    bundles: (python.bundles ?? []).map(url),
    roots: python.roots ?? [],
    sysPath: python.sysPath,
    runtime: python.runtime && { bundle: url(python.runtime.bundle),
      compiled: url(python.runtime.compiled), digest: python.runtime.digest },
  };
}

async function boot(request) {
  mark("boot-message");
  const message = bootConfig(request);
  const sizes = message.sizes ?? {};
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  let loaded = 0;
  let lastPost = 0;
  let booting = true; // no progress after "ready" (a download for the next visit is not one)
  const report = (force) => {
    const now = Date.now();
    if (booting && (force || now - lastPost > PROGRESS_INTERVAL_MS)) {
      lastPost = now;
      post({ type: "progress", loaded: Math.min(loaded, total), total });
    }
  };
  let fetched = null; // the lesson's files
  const fetchFilesOnce = () => {
    fetched ??= pycModule().then(({ fetchBundles }) => fetchBundles(message.bundles));
    fetched.catch(() => {}); // awaited after the boot; a failure is reported there
  };
  const counted = new Set(); // a file read twice (the wasm: boot.js, then Pyodide) counts once
  const count = (n) => {
    loaded += n;
    report(false);
  };
  self.fetch = countingFetch(sizes, count, fetchFilesOnce, counted, failBoot);
  countHeadBytes((name, n) => {
    counted.add(name);
    count(n);
  });
  // the page asked for the big downloads (runtime-early.js): the Python files follow them
  const given = request.head ? {
    snapshot: head("snapshot.bin").promise,
    wasm: head("pyodide.asm.wasm").promise,
    compiled: head("module").promise,
  } : undefined;
  watchWebAssembly(failBoot);
  report(true);
  const importModule = guest ? importText : (url) => import(url);
  const module = importModule(new URL("pyodide.mjs", message.indexURL).href).then((imported) => {
    mark("pyodide-imported");
    loaded += sizes["pyodide.mjs"] ?? 0;
    return imported;
  });
  if (given) import("./boot/snapshot-delta.js").catch(() => {}); // boot.js imports it on demand
  const { bootPyodide } = await bootImport;
  if (given) module.then(fetchFilesOnce, () => {}); // after the modules the boot needs first
  const booted = await Promise.race([bootFailed, bootPyodide(module, {
    indexURL: message.indexURL,
    bootURL: message.bootURL,
    bootVersion: message.bootVersion,
    given,
    ...(guest ? guestOptions(message.indexURL) : {}),
    packages: [],
    stdout: () => {},
    stderr: () => {},
  })]);
  mark("pyodide-booted");
  pyodide = booted.pyodide;
  bootPath = booted.path;
  loaded += sizes["pyodide.asm.mjs"] ?? 0;
  loaded = total;
  report(true);
  fetchFilesOnce();
  const sysPath = message.sysPath ?? "/loopstep";
  recorderAt = { runtime: message.runtime, sysPath };
  // the recorder imported into the snapshot, if it is the one the page serves: else its
  // files are written now, and it is imported from them
  const { settleRecorder } = await recorderImport;
  const recorder = settleRecorder(pyodide, booted.recorder, message.runtime?.digest, sysPath);
  const compiled = recorder === "files" ? await writeRecorderFiles(message.runtime, sysPath) : [];
  const { writeBundles } = await pycModule();
  await writeBundles(pyodide, await fetched, sysPath);
  mark("files-written");
  roots = message.roots ?? [];
  entry = importEntry(pyodide, sysPath);
  const python = entry.python_version();
  mark("recorder-imported");
  // recompiled from source: reported with "ready" (tests/browser/test_boot.py); none
  // when the recorder came with the snapshot, which imported nothing here
  const stale = recorder === "snapshot" ? [] : entry.stale(pyodide.toPy(compiled)).toJs();
  if (guest) await readAhead(); // what it reads synchronously has arrived before it records
  booting = false;
  post({ type: "ready", python, path: bootPath, marks: marks(), compiled: compiled.length, stale,
    recorder });
  booted.warmUp();
}

async function record(message) {
  const pyRoots = pyodide.toPy(roots);
  try {
    const recording = message.recording;
    if (recording) {
      const problem = entry.recording_problem(recording.text, recording.name, message.lesson,
        message.block, pyRoots);
      if (problem) {
        post({ type: "failed", id: message.id, message: problem, kind: "recording" });
        return;
      }
    }
    const args = (firstSteps) => [message.lesson, message.block, message.scenario, pyRoots,
      message.maxSteps ?? 0, message.setup ?? undefined, // JS null would not be None
      message.questions ? JSON.stringify(message.questions) : undefined,
      message.fork ? JSON.stringify(message.fork) : undefined,
      recording ? recording.text : undefined, Boolean(message.tolerant),
      message.schedule ?? undefined,    // null/absent: the preset's schedule
      firstSteps, (json) => post({ type: "partial", id: message.id, json })];
    let json = entry.record(...args(message.firstSteps ?? 0));
    // again without first steps: the first run posted them, and they are the same
    if (entry.threads_wanted()) json = await suspending(args(0), json);
    if (json === SCHEDULE_UNSUPPORTED) {
      post({ type: "failed", id: message.id, kind: SCHEDULE_UNSUPPORTED,
        message: "this browser cannot suspend Python stacks (WebAssembly JSPI) for the run's threads" });
      return;
    }
    post({ type: "trace", id: message.id, json });
  } finally {
    pyRoots.destroy();
  }
}

const SCHEDULE_UNSUPPORTED = "schedule-unsupported";

/** A run that wanted threads, again with stacks that suspend (runtime/world/stacks.py):
 * its trace; SCHEDULE_UNSUPPORTED where the browser has no stack switching (Pyodide's
 * callPromising refuses); the first run's trace, which says why, where the browser has it
 * but this Python cannot suspend (a boot snapshot made without it: boot.json
 * `snapshot.stackSwitching`). */
async function suspending(args, json) {
  try {
    return await entry.record.callPromising(...args);
  } catch (error) {
    if (/stack switching not supported/i.test(String(error))) return SCHEDULE_UNSUPPORTED;
    if (/stack switching/i.test(String(error))) return json;
    throw error;
  }
}

/** A live run (runtime/live): the requests go out from here (live/live-call.js); each
 * call's recording entry is posted as `live-call` {id, calls, depth, seconds, call}. */
async function recordLive(message) {
  const { send } = await import("./live/live-call.js");
  await writeRecorderFiles(recorderAt.runtime, recorderAt.sysPath); // runtime/live is not in the snapshot
  const pyRoots = pyodide.toPy(roots);
  const report = (json) => post({ type: "live-call", id: message.id, ...JSON.parse(json) });
  try {
    const text = entry.record_live(message.lesson, message.block, message.scenario, pyRoots,
      message.maxSteps ?? 0, message.options, send, report);
    post({ type: "text", id: message.id, text });
  } finally {
    pyRoots.destroy();
  }
}

function warm(message) {
  const pyRoots = pyodide.toPy(roots);
  try {
    entry.record(message.lesson, message.block, message.scenario, pyRoots, message.maxSteps);
    post({ type: "text", id: message.id, text: "" });
  } finally {
    pyRoots.destroy();
  }
}

function presetRecording(message) {
  const pyRoots = pyodide.toPy(roots);
  try {
    post({ type: "text", id: message.id,
      text: entry.preset_recording(message.lesson, message.scenario, pyRoots) });
  } finally {
    pyRoots.destroy();
  }
}

function describe(error) {
  const text = error && error.message ? error.message : String(error);
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] || text;
}

/** A guest's boot options (boot.js): Pyodide's module and the zips it reads synchronously
 * come through the page, as every file does. */
function guestOptions(indexURL) {
  // loadPyodide awaits the module's factory: its promise is asked for now
  const asm = importText(new URL("pyodide.asm.mjs", indexURL).href).then((m) => m.default);
  asm.catch(() => {}); // loadPyodide reports what fails
  return { createPyodideModule: asm, loaderFor: syncLoader, digest: guestDigest,
    loadStockSync: syncLoader(new URL("python_stdlib.zip", indexURL).href) };
}

// the requests that run Python, one after another
const QUEUED = { record, "preset-recording": presetRecording, warm };

channel.addEventListener("message", async (event) => {
  const message = event.data ?? {};
  try {
    if (answerFile(message)) return;
    if (message.type === "head") receiveHead(message);
    else if (message.type === "boot") await boot(message);
    else if (Object.hasOwn(QUEUED, message.type)) {
      if (!entry) throw new Error("runtime not ready");
      const done = queued.then(() => QUEUED[message.type](message));
      queued = done.catch(() => {});
      await done;
    } else if (message.type === "live") {
      if (!entry) throw new Error("runtime not ready");
      await recordLive(message);
    }
  } catch (error) {
    const fatal = Boolean(error?.pyodide_fatal_error);
    post({ type: "failed", id: message.id, message: describe(error), boot: message.type === "boot", fatal });
  }
});
guest?.port.start();
