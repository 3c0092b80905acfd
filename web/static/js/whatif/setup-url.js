// The custom setup in the URL fragment: deflate-raw (CompressionStream), then base64url.
// The fragment never reaches the server; these functions only turn text into a short
// fragment-safe string and back. A fragment is inflated under a byte limit (the most a
// setup text may take), read part by part and dropped as soon as it passes the limit:
// a small link may inflate to gigabytes.

export const MAX_SETUP_CHARS = 100_000; // as runtime/catalog/custom.py accepts
// The most UTF-8 bytes a text of MAX_SETUP_CHARS UTF-16 units can take: 3 per unit
// (a surrogate pair is 2 units, 4 bytes).
export const MAX_SETUP_BYTES = 3 * MAX_SETUP_CHARS;

const tooLong = () => new Error(`longer than ${MAX_SETUP_CHARS} characters`);

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The inflated bytes of `compressed` (a ReadableStream of deflate-raw bytes), read up to
 * `limit`: rejects as soon as more than `limit` bytes have come out, and cancels the
 * rest, unread. */
export async function inflateLimited(compressed, limit) {
  const reader = compressed.pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw tooLong();
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
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

/** The setup text of an encoded string; rejects with an Error when it is not one (or
 * is longer than MAX_SETUP_CHARS, found out while inflating it). */
export async function decodeSetup(encoded) {
  const bytes = await inflateLimited(new Blob([fromBase64Url(encoded)]).stream(), MAX_SETUP_BYTES);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  if (text.length > MAX_SETUP_CHARS) throw tooLong();
  return text;
}
