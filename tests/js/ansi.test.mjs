// Terminal colours in output: SGR sequences become styles, other escapes vanish.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parse, applySgr } from "../../web/static/js/page/ansi.js";

const plain = (runs) => runs.map(([text]) => text).join("");
const view = (runs) => runs.map(([text, s]) => [text, s.fg, s.bg, [...s.flags].sort().join(",")]);

test("the lesson's magenta label is one magenta run, then plain text", () => {
  const runs = parse("\n\x1b[35m[Subagent started]\x1b[0m\nnext");
  assert.deepEqual(view(runs), [
    ["\n", null, null, ""],
    ["[Subagent started]", 5, null, ""],
    ["\nnext", null, null, ""],
  ]);
});

test("bright, bold, background, defaults and partial resets", () => {
  const runs = parse("\x1b[1;90mA\x1b[22mB\x1b[44mC\x1b[39mD\x1b[49;4mE\x1b[mF");
  assert.deepEqual(view(runs), [
    ["A", 8, null, "bold"], ["B", 8, null, ""], ["C", 8, 4, ""], ["D", null, 4, ""],
    ["E", null, null, "underline"], ["F", null, null, ""],
  ]);
});

test("256-colour and 24-bit colours", () => {
  assert.equal(applySgr({ fg: null, bg: null, flags: [] }, "38;5;9").fg, 9);
  assert.equal(applySgr({ fg: null, bg: null, flags: [] }, "38;5;196").fg, "rgb(255, 0, 0)");
  assert.equal(applySgr({ fg: null, bg: null, flags: [] }, "38;5;244").fg, "rgb(128, 128, 128)");
  assert.equal(applySgr({ fg: null, bg: null, flags: [] }, "48;2;1;2;300").bg, "rgb(1, 2, 255)");
  // an extended colour swallows its arguments: 1 here is a colour part, not bold
  assert.deepEqual([...applySgr({ fg: null, bg: null, flags: [] }, "38;2;1;1;1").flags], []);
});

test("every other escape sequence is dropped, never shown", () => {
  const text = "a\x1b[2Kb\x1b[1;1Hc\x1b]0;title\x07d\x1b]8;;http://x\x1b\\e\x1b(Bf\x1bcg\x1b[31";
  const runs = parse(text);
  assert.equal(plain(runs), "abcdefg");
  assert.ok(!plain(runs).includes("\x1b"));
  assert.equal(plain(parse("lone \x1b")), "lone ");
});

test("markup stays text", () => {
  const runs = parse("\x1b[31m<b>&amp;</b>\x1b[0m");
  assert.equal(plain(runs), "<b>&amp;</b>");
});

test("text without escapes is one plain run", () => {
  assert.deepEqual(view(parse("x\ny")), [["x\ny", null, null, ""]]);
  assert.deepEqual(parse(""), []);
});
