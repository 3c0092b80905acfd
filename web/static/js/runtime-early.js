// Starts the Python worker from the document's head, before the body is parsed and laid
// out. Inlined there (web/templates/base.html; allowed by its hash in the
// Content-Security-Policy, web/assets.py), right after the small runtime data island it
// reads: it runs as soon as the parser reaches it, with nothing to fetch first. Until
// page.js's runtime client adopts the worker (runtime-client.js), what the worker posts
// is kept here.
(() => {
  const island = document.getElementById("loopstep-runtime");
  if (!island || !window.Worker) return;
  const config = JSON.parse(island.textContent);
  const query = new URLSearchParams(window.location.search).get("lang");
  if ((query === "zh" || query === "en") && query !== config.lang) return; // page redirects
  performance.mark("loopstep:early-evaluated");
  const base = document.baseURI;
  const worker = new Worker(new URL(config.worker, base), { type: "module", name: "loopstep-python" });
  const events = [];
  const keep = (event) => {
    if (event.type === "error") event.preventDefault();
    events.push(event);
  };
  worker.addEventListener("message", keep);
  worker.addEventListener("error", keep);
  worker.postMessage({ type: "boot", base, config });
  performance.mark("loopstep:boot-asked");
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
})();
