// The page's value text (values.js `text`) against the one specification,
// tests/fixtures/value_text.json (written by tests/fixtures/value_text.py), which
// the CLI and the recorder are held to as well (tests/test_value_text.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { text } from "../../web/static/js/model/values.js";

const CASES = JSON.parse(readFileSync(new URL("../fixtures/value_text.json", import.meta.url), "utf8"));

test("the specification has cases", () => {
  assert.ok(CASES.length >= 50);
});

for (const { expr, value, text: shown } of CASES) {
  test(`value text of ${expr}`, () => {
    assert.equal(text(value), shown);
  });
}
