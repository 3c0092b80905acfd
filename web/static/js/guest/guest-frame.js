// The guest frame's one script (web/static/guest.html, a classic script: the frame's origin
// is opaque, and a module script from the site would need CORS headers a plain static host
// does not send). It starts one worker for the page that framed it and steps aside: the
// page hands over the worker's source and a MessagePort, and from then on the page and the
// worker talk over that port alone. The worker is a classic blob worker (a module worker
// from a blob of an opaque origin does not start) whose bootstrap imports the source as a
// module. Nothing here reads what the worker says.
(() => {
  const BOOTSTRAP = `self.onmessage = (event) => {
    self.onmessage = null;
    const { source, port } = event.data;
    self.loopstepGuest = { port };
    import(URL.createObjectURL(new Blob([source], { type: "text/javascript" })))
      .catch((error) => port.postMessage({ type: "failed", boot: true,
        message: "guest runtime: " + (error && error.message ? error.message : error)
          + " (it runs the worker's one-file bundle: make build)" }));
  };`;
  let started = false;
  addEventListener("message", (event) => {
    if (event.source !== parent || started) return;
    const { type, source, port } = event.data ?? {};
    if (type !== "loopstep:guest-start" || typeof source !== "string" || !(port instanceof MessagePort)) return;
    started = true;
    const url = URL.createObjectURL(new Blob([BOOTSTRAP], { type: "text/javascript" }));
    const worker = new Worker(url, { name: "loopstep-guest" });
    worker.addEventListener("error", (error) => {
      error.preventDefault();
      parent.postMessage({ type: "loopstep:guest-error", message: String(error.message ?? "worker error") }, "*");
    });
    worker.postMessage({ source, port }, [port]);
  });
  parent.postMessage({ type: "loopstep:guest-frame" }, "*");
})();
