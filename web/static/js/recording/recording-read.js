// Reading a recording file off the page's thread: a worker of its own (started from a
// blob, as the runtime's are: boot/runtime-client.js startWorker) reads the file in the
// chunks its stream gives, decodes them as UTF-8 (as File.text() does: a byte-order mark
// dropped, bad bytes replaced), keeps the key's digest as it goes and tells how many bytes
// it has read; then parses the text once to say how many calls it holds and the preset it
// was made for (the page's Python checks it: runtime/browser/worker.py). Cancelling
// terminates the worker at once.

// The worker's whole source: a string, so that no bundler touches it and it needs no file.
// The digest is FNV-1a over the text's UTF-16 code units: the key of the traces the file's
// runs make (recording-file.js).
const SOURCE = `
self.onmessage = async ({ data: { file, every } }) => {
  try {
    const decoder = new TextDecoder();
    const parts = [];
    let h = 0x811c9dc5, bytes = 0, told = 0;
    const add = (part) => {
      for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
      parts.push(part);
    };
    const reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      add(decoder.decode(value, { stream: true }));
      if (bytes - told >= every) {
        told = bytes;
        postMessage({ type: "bytes", bytes });
      }
    }
    add(decoder.decode());
    postMessage({ type: "bytes", bytes });
    const text = parts.join("");
    parts.length = 0;
    let preset = null, calls = null;
    try {
      const doc = JSON.parse(text);
      if (typeof doc?.made_for?.preset === "string") preset = doc.made_for.preset;
      if (Array.isArray(doc?.calls)) calls = doc.calls.length;
    } catch {
      // not JSON: the page's Python says so, naming the file
    }
    postMessage({ type: "read", text, digest: (h >>> 0).toString(16), preset, calls });
  } catch (error) {
    postMessage({ type: "failed", message: String(error?.message ?? error) });
  }
};
`;

/** How often the worker tells of its bytes: every 1% of the file, at least 256 KB apart. */
const every = (size) => Math.max(256 * 1024, Math.ceil(size / 100));

export class ReadCancelled extends Error {
  constructor() {
    super("cancelled");
    this.kind = "cancelled";
  }
}

/** Read `file` in a worker: resolves with {text, digest, preset, calls} (`preset`: the
 * `made_for.preset` the file names, `calls`: how many calls it holds; null when it does not
 * say or is not JSON); `onBytes(n)` as the bytes arrive. `signal` (an AbortSignal) ends the
 * read at once: the promise rejects with a ReadCancelled. */
export function readFile(file, { onBytes = () => {}, signal } = {}) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ReadCancelled());
      return;
    }
    const url = URL.createObjectURL(new Blob([SOURCE], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module", name: "loopstep-recording-read" });
    const end = () => {
      worker.terminate();
      URL.revokeObjectURL(url);
      signal?.removeEventListener("abort", cancel);
    };
    const cancel = () => {
      end();
      reject(new ReadCancelled());
    };
    signal?.addEventListener("abort", cancel, { once: true });
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "bytes") onBytes(data.bytes);
      else {
        end();
        if (data.type === "read") resolve(data);
        else reject(new Error(`${file.name}: ${data.message}`));
      }
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      end();
      reject(new Error(`${file.name}: ${event.message || "cannot be read"}`));
    });
    worker.postMessage({ file, every: every(file.size) });
  });
}
