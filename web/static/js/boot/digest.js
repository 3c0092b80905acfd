// The sha256 of bytes as hex, the form of boot.json's digests: one module for the worker's
// boot (boot.js) and for the page, which computes it for a guest's worker (guest-client.js).

/** The hex sha256 of `bytes`. Needs Web Crypto (a secure context): a guest's worker, whose
 * origin is opaque, has none and asks the page (boot/guest-channel.js). */
export async function sha256(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
