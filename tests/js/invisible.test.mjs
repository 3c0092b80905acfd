// Invisible and bidirectional control characters (page/invisible.js) against the one
// specification, tests/fixtures/invisible_text.json, which the server's HTML
// (web/highlight.py) is held to as well (tests/test_invisible.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pieces, MAX_MARKS } from "../../web/static/js/page/invisible.js";

const CASES = JSON.parse(readFileSync(new URL("../fixtures/invisible_text.json", import.meta.url), "utf8"));

/** The pieces in the fixture's form: strings and [char, label, title]. */
function plain(list) {
  return list.map((p) => (typeof p === "string" ? p : [p.char, p.label, p.title]));
}

test("the specification has cases", () => {
  assert.ok(CASES.length >= 10);
});

for (const { name, text, pieces: expected, limit } of CASES) {
  test(`invisible characters: ${name}`, () => {
    assert.deepEqual(plain(limit === undefined ? pieces(text) : pieces(text, limit)), expected);
  });
}

test("every piece together is the text, marks or not", () => {
  const text = "a\u202Eb\u2066c\u2069\td\n\u200B";
  assert.equal(plain(pieces(text)).map((p) => (typeof p === "string" ? p : p[0])).join(""), text);
});

test("a megabyte of controls makes at most MAX_MARKS marks, the rest labels", () => {
  const text = "\u202E".repeat(1_000_000);
  const out = pieces(text);
  assert.equal(out.filter((p) => typeof p !== "string").length, MAX_MARKS);
  assert.equal(out.length, MAX_MARKS + 1);
  assert.equal(out.at(-1), "<U+202E>".repeat(1_000_000 - MAX_MARKS));
});
