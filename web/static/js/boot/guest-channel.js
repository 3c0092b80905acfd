// The worker's side of a guest runtime (boot/guest-client.js starts it in an opaque-origin
// frame, guest/guest-frame.js). A guest worker talks to the page over the MessagePort its
// bootstrap was given, never over `self`, and reads every file through the page, which
// answers only the runtime's own files: the guest's policy (web/static/guest.html) allows it
// no request of its own. Outside a guest (the page's own worker) `guest` is null and the
// channel is the worker itself.

/** {port} set by the guest's bootstrap before this module runs, or null. */
export const guest = globalThis.loopstepGuest ?? null;

/** Where the worker posts and listens. */
export const channel = guest ? guest.port : globalThis;

const waiting = new Map(); // file request id → {resolve, reject}
let nextFile = 1;

/** A file asked of the page, as a Response (status and Content-Type as the page got them). */
export function guestFetch(input) {
  const url = input instanceof Request ? input.url : String(input);
  const file = nextFile++;
  return new Promise((resolve, reject) => {
    waiting.set(file, { resolve, reject });
    channel.postMessage({ type: "file", file, url });
  });
}

/** The hex sha256 of `bytes`, computed by the page: a worker of an opaque origin is no
 * secure context and has no Web Crypto (boot.js's `digest` option). */
export function guestDigest(bytes) {
  const file = nextFile++;
  return new Promise((resolve, reject) => {
    waiting.set(file, { resolve, reject });
    channel.postMessage({ type: "digest", file, bytes });
  });
}

/** Settle the request a `file-answer` or `digest-answer` message answers; false for any
 * other message. */
export function answerFile(message) {
  if (message.type === "digest-answer") {
    const entry = waiting.get(message.file);
    waiting.delete(message.file);
    if (message.error !== undefined) entry?.reject(new Error(String(message.error)));
    else entry?.resolve(String(message.digest));
    return true;
  }
  if (message.type !== "file-answer") return false;
  const entry = waiting.get(message.file);
  if (!entry) return true;
  waiting.delete(message.file);
  if (message.error !== undefined) entry.reject(new TypeError(String(message.error)));
  else {
    entry.resolve(new Response(message.bytes, {
      status: message.status, headers: { "Content-Type": message.contentType ?? "" },
    }));
  }
  return true;
}

/** import() of a module the page hands over as text: the guest imports nothing itself. */
export async function importText(url) {
  const response = await guestFetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const blob = new Blob([await response.arrayBuffer()], { type: "text/javascript" });
  return import(URL.createObjectURL(blob));
}

// The boot reads two zips synchronously, on the first import that needs them (boot.js
// loaderFor, loadStockSync): a guest has them read ahead, and is ready only once they are.
const preloaded = new Map(); // url → Promise<Uint8Array>, then the bytes
const reading = [];

function preload(url) {
  if (!preloaded.has(url)) {
    const read = guestFetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      preloaded.set(url, bytes);
      return bytes;
    });
    preloaded.set(url, read);
    reading.push(read);
  }
}

/** A synchronous loader of `url` whose bytes are read ahead (boot.js's `loaderFor`). */
export function syncLoader(url) {
  preload(url);
  return () => {
    const bytes = preloaded.get(url);
    if (!(bytes instanceof Uint8Array)) throw new Error(`${url}: not read yet`);
    return bytes;
  };
}

/** Resolves once every file read ahead has arrived (rejects if one failed). */
export function readAhead() {
  return Promise.all(reading);
}
