// The custom setup in the URL fragment: deflate-raw (CompressionStream), then base64url.
// The fragment never reaches the server; these functions only turn text into a short
// fragment-safe string and back.

export const MAX_SETUP_CHARS = 100_000; // as runtime/custom.py accepts

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The setup text as a URL-fragment-safe string. */
export async function encodeSetup(text) {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

/** The setup text of an encoded string; rejects with an Error when it is not one. */
export async function decodeSetup(encoded) {
  const bytes = await pipe(fromBase64Url(encoded), new DecompressionStream("deflate-raw"));
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  if (text.length > MAX_SETUP_CHARS) throw new Error(`longer than ${MAX_SETUP_CHARS} characters`);
  return text;
}
