// Bench page: start the worker named by <body data-worker>, time it, expose window.bench.
const bench = { ready: null, worker: null, error: null, traces: [] };
window.bench = bench;
const worker = new Worker(document.body.dataset.worker, { type: "module" });
performance.mark("loopstep:boot-asked");
const waiting = new Map();
let nextId = 1;
worker.onmessage = ({ data }) => {
  if (data.type === "ready") {
    bench.ready = performance.now();
    for (const { name, at } of data.marks ?? []) {
      performance.mark(name, { startTime: Math.max(0, at - performance.timeOrigin) });
    }
    performance.mark("loopstep:ready");
    bench.worker = data;
    document.querySelector("[data-role=status]").textContent = `ready via ${data.path}`;
  } else if (data.type === "failed") {
    bench.error = data.message;
    waiting.get(data.id)?.reject(new Error(data.message));
  } else if (waiting.has(data.id)) {
    waiting.get(data.id).resolve(data);
    waiting.delete(data.id);
  }
};
worker.onerror = (event) => { bench.error = event.message || "worker error"; };
/** Ask the worker something; resolves with its answer. */
bench.ask = (message) => new Promise((resolve, reject) => {
  const id = nextId++;
  waiting.set(id, { resolve, reject });
  worker.postMessage({ ...message, id });
});
bench.resources = () => performance.getEntriesByType("resource").concat(
  performance.getEntriesByType("navigation")).map((e) => ({
  name: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize,
  decodedBodySize: e.decodedBodySize }));
