import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeSetup, decodeSetup, MAX_SETUP_CHARS } from "../../web/static/js/whatif/setup-url.js";

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
