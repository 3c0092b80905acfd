// Starts the Python worker from the document's head, before the body is parsed and laid
// out. Inlined there (web/templates/base.html; allowed by its hash in the
// Content-Security-Policy, web/assets.py), right after the small runtime data island it
// reads: it runs as soon as the parser reaches it, with nothing to fetch first. Until
// page.js's runtime client adopts the worker (runtime-client.js), what the worker posts
// is kept here.
// On a first visit (the wasm not in the HTTP cache yet) the worker boots from the
// snapshot: its two big downloads start here, half a second before the worker could ask
// for them, and reach the worker as they arrive (`head` messages, worker.js), the wasm
// compiled from the browser's own response so that its compiled code is cached.
// A page with shipped traces (its island's `traces`) debugs its presets without
// the runtime: the worker is then started by the page once it is interactive
// (window.loopstepStartEarly, runtime-client.js), and with `data-runtime="lazy"` on <html>
// or `?runtime=lazy` in the URL only when a run needs it; the worker then fetches the big
// files itself, off the page's main thread, which stays free for the reader's first clicks
// (docs/performance.md, "Navigation to a paused line").
// A reader's clicks on a block's buttons (a gutter, Debug) before the page's script has
// wired them are kept here, and page.js replays them once it has (window.loopstepEarlyClicks):
// the page is usable from its first paint, not from its script's arrival.
(() => {
  const kept = [];
  const keep = (event) => {
    const button = event.target.closest?.("[data-loopstep-block] button");
    if (button) kept.push(button);
  };
  document.addEventListener("click", keep, true);
  window.loopstepEarlyClicks = {
    /** Stop keeping clicks and return the buttons clicked so far, in order. */
    take() {
      delete window.loopstepEarlyClicks;
      document.removeEventListener("click", keep, true);
      return kept;
    },
  };
})();
(() => {
  const island = document.getElementById("loopstep-runtime");
  if (!island || !window.Worker) return;
  const config = JSON.parse(island.textContent);
  const params = new URLSearchParams(window.location.search);
  const query = params.get("lang");
  if ((query === "zh" || query === "en") && query !== config.lang) return; // page redirects
  performance.mark("loopstep:early-evaluated");
  const lazy = document.documentElement.dataset.runtime === "lazy" || params.get("runtime") === "lazy";
  if (lazy) document.documentElement.dataset.runtime = "lazy"; // page.js reads it
  // `?trace=live` records every run in the worker: the runtime is needed at once
  const deferred = lazy || (Boolean(config.traces) && params.get("trace") !== "live");
  const start = () => {
    delete window.loopstepStartEarly;
    // started after the page is interactive: the big downloads yield to the page's own
    const priority = deferred ? { priority: "low" } : {};
    const base = document.baseURI.split("#")[0]; // a link's fragment may be megabytes long
    // started from a blob, so that it keeps the page's policy on every host (startWorker,
    // runtime-client.js, does the same for a restart)
    const source = `import ${JSON.stringify(new URL(config.worker, base).href)};`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })),
      { type: "module", name: "loopstep-python" });
    const events = [];
    const keep = (event) => {
      if (event.type === "error") event.preventDefault();
      events.push(event);
    };
    worker.addEventListener("message", keep);
    worker.addEventListener("error", keep);
    window.loopstepEarlyWorker = {
      worker,
      /** Hand the worker over: stop keeping its events and return those kept so far. */
      take() {
        delete window.loopstepEarlyWorker;
        worker.removeEventListener("message", keep);
        worker.removeEventListener("error", keep);
        return events;
      },
    };
    const { indexURL, bootURL, bootVersion } = config.pyodide ?? {};
    const wasm = indexURL && new URL("pyodide.asm.wasm", new URL(indexURL, base));
    // A first visit is told by a note left on it: asking the HTTP cache itself (a fetch
    // `only-if-cached`) logs an error on the console when the file is not there. A stale
    // note (the cache cleared, the storage kept) only leaves the downloads to the worker.
    const note = `loopstep-fetched:${wasm}`;
    let head = false;
    try {
      head = Boolean(!deferred && bootURL && WebAssembly.compileStreaming && !localStorage.getItem(note));
      if (head) localStorage.setItem(note, "1");
    } catch {
      head = false; // no storage here: the worker decides, as it always can
    }
    const send = (name, data, transfer) => worker.postMessage({ type: "head", name, ...data }, transfer);
    const failed = (name) => (error) => send(name, { error: String(error?.message ?? error) });
    // forwarded in parts of at least 1 MB: a message per network chunk cost the page's
    // main thread more than the worker gained
    const forward = (name, fetched) => fetched.then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const reader = response.body.getReader();
      let chunks = [];
      let size = 0;
      const flush = () => {
        send(name, { chunks }, chunks.map((chunk) => chunk.buffer));
        chunks = [];
        size = 0;
      };
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const { value } = read;
        chunks.push(value.byteLength === value.buffer.byteLength ? value : value.slice());
        size += value.byteLength;
        if (size >= 1 << 20) flush();
      }
      flush();
      send(name, { done: true });
    }).catch(failed(name));
    worker.postMessage({ type: "boot", base, config, head });
    performance.mark("loopstep:boot-asked");
    if (!head) return;
    // the URL boot.js would ask for (its version on it: the boot set is served as immutable)
    const snapshot = new URL("snapshot.bin", new URL(bootURL, base));
    if (bootVersion) snapshot.searchParams.set("v", bootVersion);
    forward("snapshot.bin", fetch(snapshot, priority));
    const fetched = fetch(wasm, priority).then((response) => [response, response.clone()]);
    forward("pyodide.asm.wasm", fetched.then(([, copy]) => copy));
    WebAssembly.compileStreaming(fetched.then(([response]) => response))
      .then((module) => send("module", { module }), failed("module"));
  };
  if (deferred) window.loopstepStartEarly = start;
  else start();
})();
