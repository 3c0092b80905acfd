// The guest runtime: where code that a reader, a link or a file brings runs (a custom
// setup, a fork, a loaded recording file). Its worker lives in a frame with
// sandbox="allow-scripts" and no allow-same-origin (web/static/guest.html): an opaque
// origin, so it reaches neither this page, its storage and cookies, nor the site's origin
// (a request it made would be cross-origin and uncredentialed, and its policy allows it
// none: connect-src 'none'). Every file it needs, it asks of this page, which answers only
// the runtime's own files (runtimeFiles) and fetches them itself. The frame is created on
// the first guest run; terminating the worker removes the frame.

import { sha256 } from "./digest.js";
import { RuntimeClient, pageBase } from "./runtime-client.js";

export class GuestClient extends RuntimeClient {
  constructor(config) {
    super(config, { fresh: true, name: "loopstep-guest" });
    this.frameURL = new URL(config.guest, pageBase());
    this.allowed = runtimeFiles(config, pageBase());
    // the frame says how its runtime booted (data-boot: snapshot, trimmed or stock)
    this.addEventListener("state", ({ detail }) => {
      if (detail?.state === "ready") this.worker?.frame?.setAttribute("data-boot", detail.path ?? "");
    });
  }

  createWorker() {
    return new GuestWorker(this.frameURL, this.workerURL, this.allowed);
  }

  /** Once per worker, while the reader is still choosing a file: the first WARM_STEPS
   * steps of a run of the site's own (`lesson`, `block`, `scenario`: a preset) recorded and
   * dropped. A freshly booted Python runs its first steps at a fraction of its speed (the
   * browser compiles the hot WebAssembly again, optimised, as it runs: docs/performance.md);
   * the reader's run then starts at full speed. Asked a task after the boot, and not at all
   * when a run was asked for by then (it would wait for the warm-up); a run asked for
   * later waits its turn. */
  warm({ lesson, block, scenario }) {
    const worker = this.worker;
    setTimeout(() => {
      if (!worker || this.worker !== worker || this.warmed === worker || this.pending.size) return;
      this.warmed = worker;
      this.ask({ type: "warm", lesson, block, scenario, maxSteps: WARM_STEPS }).catch(() => {});
    }, 0);
  }
}

const WARM_STEPS = 200;

/** How long after the guest frame's load event its greeting may still be on its way. */
const FRAME_GRACE_MS = 1000;
const FRAME_BLOCKED = "guest runtime: its frame (static/guest.html) did not start; the site's "
  + "policy must let the page frame its own origin (frame-src 'self') and run that page's script";

/** A predicate on URLs: the runtime's own files that a guest may be handed — Pyodide's
 * folder, the boot set's, the Python bundles and the precompiled recorder, on this
 * document's origin; a path of plain characters only (no escapes, no dot segments: a host
 * may decode them), nothing else (not the site's other files). */
export function runtimeFiles(config, base) {
  const at = (relative) => (relative ? new URL(relative, base) : null);
  const origin = new URL(base).origin;
  const python = config.python ?? {};
  const folders = [at(config.pyodide?.indexURL)?.pathname, at(config.pyodide?.bootURL)?.pathname]
    .filter(Boolean);
  const files = new Set([...(python.bundles ?? []), python.runtime?.bundle, python.runtime?.compiled]
    .filter(Boolean).map((relative) => at(relative).pathname));
  return (url) => {
    if (url.origin !== origin || !/^[A-Za-z0-9._/-]+$/.test(url.pathname)) return false;
    if (url.pathname.split("/").some((part) => part === "." || part === "..")) return false;
    if (files.has(url.pathname)) return !url.search;
    return folders.some((f) => url.pathname.startsWith(f) && url.pathname.length > f.length);
  };
}

/** The guest's worker as the runtime client sees one (postMessage, message and error
 * events, terminate), hosted by a sandboxed frame and spoken to over a MessagePort. */
class GuestWorker extends EventTarget {
  constructor(frameURL, workerURL, allowed) {
    super();
    this.allowed = allowed;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    port1.addEventListener("message", (event) => {
      const message = event.data ?? {};
      if (message.type === "file") this.serve(message);
      else if (message.type === "digest") this.digest(message);
      else this.dispatchEvent(new MessageEvent("message", { data: message }));
    });
    port1.start();
    const frame = (this.frame = document.createElement("iframe"));
    frame.setAttribute("sandbox", "allow-scripts");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.title = "loopstep guest runtime";
    frame.hidden = true;
    frame.dataset.role = "guest-runtime";
    this.onWindowMessage = (event) => {
      if (event.source !== frame.contentWindow || !frame.contentWindow) return;
      const { type, message } = event.data ?? {};
      if (type === "loopstep:guest-frame") {
        this.greeted = true;
        this.start(workerURL, port2);
      }
      else if (type === "loopstep:guest-error") this.fail(message);
    };
    window.addEventListener("message", this.onWindowMessage);
    // A frame whose script never ran (a host's policy that does not let the page frame its
    // own origin, or runs no script there) says so at once, not at the boot timeout: its
    // greeting is posted while it parses, before its load event.
    frame.addEventListener("load", () => {
      if (!this.greeted) setTimeout(() => this.greeted || this.fail(FRAME_BLOCKED), FRAME_GRACE_MS);
    });
    frame.src = frameURL.href;
    document.body.append(frame);
  }

  /** Hand the frame the worker's source (the one-file bundle, fetched here: the frame can
   * fetch nothing) and the worker's end of the port. */
  async start(workerURL, port) {
    if (this.started) return;
    this.started = true;
    try {
      const response = await fetch(workerURL, { credentials: "omit" });
      if (!response.ok) throw new Error(`${workerURL.pathname}: HTTP ${response.status}`);
      const source = await response.text();
      this.frame.contentWindow?.postMessage({ type: "loopstep:guest-start", source, port }, "*", [port]);
    } catch (error) {
      this.fail(`guest runtime: ${error?.message ?? error}`);
    }
  }

  fail(message) {
    this.dispatchEvent(new ErrorEvent("error", { message: String(message ?? "guest worker error") }));
  }

  /** A file the guest asks for: fetched here when it is one of the runtime's, else refused. */
  async serve({ file, url }) {
    try {
      const target = new URL(String(url), pageBase());
      if (!this.allowed(target)) throw new Error(`not a runtime file: ${target.pathname}`);
      const response = await fetch(target, { credentials: "omit" });
      const bytes = await response.arrayBuffer();
      this.port.postMessage({ type: "file-answer", file, status: response.status,
        contentType: response.headers.get("Content-Type") ?? "", bytes }, [bytes]);
    } catch (error) {
      this.port.postMessage({ type: "file-answer", file, error: String(error?.message ?? error) });
    }
  }

  /** The sha256 of bytes the guest holds (it has no Web Crypto of its own). */
  async digest({ file, bytes }) {
    try {
      this.port.postMessage({ type: "digest-answer", file, digest: await sha256(bytes) });
    } catch (error) {
      this.port.postMessage({ type: "digest-answer", file, error: String(error?.message ?? error) });
    }
  }

  postMessage(message, transfer) {
    this.port.postMessage(message, transfer ?? []);
  }

  terminate() {
    window.removeEventListener("message", this.onWindowMessage);
    this.port.close();
    this.frame.remove();
  }
}
