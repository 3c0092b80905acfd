import { test } from "node:test";
import assert from "node:assert/strict";
import { createDeflateRaw } from "node:zlib";
import {
  encodeSetup, decodeSetup, inflateLimited, MAX_SETUP_CHARS, MAX_SETUP_BYTES,
} from "../../web/static/js/whatif/setup-url.js";

const SETUP = "scenario = 'normal'\nQUESTION=\"教学默认问题\"\ndef ask(history,restricted):\n    if index<9:\n        return 1\n";

test("a setup text survives the URL round trip, in fragment-safe characters", async () => {
  const encoded = await encodeSetup(SETUP);
  assert.match(encoded, /^[A-Za-z0-9_-]+$/);
  assert.equal(await decodeSetup(encoded), SETUP);
  assert.equal(await decodeSetup(await encodeSetup("")), "");
});

test("it is compressed", async () => {
  const long = SETUP.repeat(50);
  assert.ok((await encodeSetup(long)).length < long.length / 4);
});

test("what is not an encoded setup is rejected", async () => {
  await assert.rejects(decodeSetup("not base64!"));
  await assert.rejects(decodeSetup("AAAA"));
  const huge = await encodeSetup("#".repeat(MAX_SETUP_CHARS + 1));
  await assert.rejects(decodeSetup(huge), /longer than/);
});

test("the longest setup there may be decodes, in the widest characters", async () => {
  const wide = "教".repeat(MAX_SETUP_CHARS); // 3 UTF-8 bytes per character: MAX_SETUP_BYTES
  assert.equal(new TextEncoder().encode(wide).length, MAX_SETUP_BYTES);
  assert.equal(await decodeSetup(await encodeSetup(wide)), wide);
  const astral = "😀".repeat(MAX_SETUP_CHARS / 2); // 2 UTF-16 units, 4 bytes each
  assert.equal(await decodeSetup(await encodeSetup(astral)), astral);
  await assert.rejects(decodeSetup(await encodeSetup(`${wide}#`)), /longer than/);
});

/** `megabytes` MB of zeros, deflate-raw, compressed part by part (never held whole). */
async function zeroBomb(megabytes) {
  const deflate = createDeflateRaw({ level: 9 });
  const parts = [];
  deflate.on("data", (part) => parts.push(part));
  const finished = new Promise((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < megabytes; i++) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await finished;
  return new Uint8Array(Buffer.concat(parts));
}

/** The most the process's array buffers grew above their size at the start while
 * `promise` was pending (sampled every millisecond). */
async function peakGrowth(start, promise) {
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const sample = () => { peak = Math.max(peak, process.memoryUsage().arrayBuffers); };
  const timer = setInterval(sample, 1);
  try {
    await start(promise);
  } finally {
    clearInterval(timer);
    sample();
  }
  return peak - base;
}

test("a link that inflates to 200 MB is refused before it is inflated", async () => {
  const bomb = await zeroBomb(200);
  assert.ok(bomb.length < 400_000, `the bomb is ${bomb.length} bytes`);
  let binary = "";
  for (let i = 0; i < bomb.length; i += 0x8000) binary += String.fromCharCode(...bomb.subarray(i, i + 0x8000));
  const encoded = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const grown = await peakGrowth((p) => assert.rejects(p, /longer than 100000 characters/),
    decodeSetup(encoded));
  // inflating it all would hold 200 MB; the limit is 300 KB
  assert.ok(grown < 32 * 2 ** 20, `array buffers grew by ${grown} bytes`);
  const stream = new Blob([bomb]).stream();
  const direct = await peakGrowth((p) => assert.rejects(p, /longer than/),
    inflateLimited(stream, MAX_SETUP_BYTES));
  assert.ok(direct < 32 * 2 ** 20, `array buffers grew by ${direct} bytes`);
});

test("inflating under a limit gives the bytes when they fit", async () => {
  const text = new TextEncoder().encode(SETUP.repeat(20));
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  assert.deepEqual(await inflateLimited(compressed, text.length), text);
  const again = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  await assert.rejects(inflateLimited(again, text.length - 1), /longer than/);
});
