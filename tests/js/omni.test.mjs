// The omniscient views' pure parts: value history, the recorded answers, the reader's
// questions and their URL form, and stepping at recorded breakpoint hits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fromSteps } from "../../web/static/js/model/trace.js";
import { replay } from "../../web/static/js/model/replay.js";
import { history, changedAt } from "../../web/static/js/model/history.js";
import { answerIndex, isError } from "../../web/static/js/model/answers.js";
import { Questions, cleanSpec, MAX_WATCHES } from "../../web/static/js/model/questions.js";
import { END, step, hitIndices } from "../../web/static/js/model/stepping.js";
import { formatQuestions, parse, parseQuestions } from "../../web/static/js/page/url-state.js";

const S = (event, line, frame, set = {}, extra = {}) =>
  ({ event, line, end: line, fn: frame === 1 ? "f" : "g", frame, depth: frame, stack: 0, out: 0, set, ...extra });

// f binds x at line 2, calls g (frame 2) which binds x too, then changes x at line 4.
const steps = [
  S("call", 1, 1, { n: "3" }),       // 0
  S("line", 2, 1),                   // 1
  S("line", 3, 1, { x: "1" }),       // 2  x bound by line 2
  S("call", 7, 2, { x: "'inner'" }), // 3
  S("line", 8, 2),                   // 4
  S("return", 8, 2, {}, { ret: "None" }), // 5
  S("line", 4, 1),                   // 6
  S("line", 5, 1, { x: "2" }),       // 7  x changed by line 4
  S("line", 4, 1),                   // 8
  S("line", 5, 1, { x: "3" }),       // 9
];

test("history lists one frame's changes with the line that made each", () => {
  const t = fromSteps(steps);
  const h = history(t, replay(t), 1, "x");
  assert.deepEqual([...h.steps], [2, 7, 9]);
  assert.deepEqual([...h.lines], [2, 4, 4]);
  assert.deepEqual(h.values, ["1", "2", "3"]);
  assert.equal(changedAt(h, 1), -1);
  assert.equal(changedAt(h, 8), 1);
  const inner = history(t, replay(t), 2, "x");
  assert.deepEqual([...inner.steps], [3]);
  assert.deepEqual([...inner.lines], [7]); // bound at the call: the call's own line
  assert.equal(history(t, replay(t), 1, "missing").steps.length, 0);
});

test("history of a value changed 100,000 times is indexed once per trace", () => {
  const many = [S("call", 1, 1)];
  for (let k = 0; k < 100_000; k++) many.push(S("line", 2 + (k % 2), 1, { i: String(k) }));
  const t = fromSteps(many);
  const h = history(t, replay(t), 1, "i");
  assert.equal(h.steps.length, 100_000);
  assert.equal(history(t, replay(t), 1, "i"), h);
  assert.equal(changedAt(h, 50_000), 49_999);
});

test("watch values fold per frame; logs and errors by step", () => {
  const t = fromSteps(steps, {
    probes: {
      breakpoints: [{ line: 4, condition: "x > 1", hits: null, log: null, steps: [8], error: null },
        { line: 5, condition: null, hits: null, log: "x={x}", steps: [7, 9], error: "NameError: y" }],
      log: [7, 1, "x=2", 9, 1, "x=3"],
      watches: ["x * 2", "y"],
      watch: [0, 2, 0, { error: "NameError: name 'x' is not defined" }, 1, { error: "NameError: y" },
        2, 1, 0, "2", 1, 2, 0, "'innerinner'", 1, { error: "NameError: y" }, 4, 1, 0, "4"],
    },
  });
  const p = answerIndex(t);
  const at1 = p.watchesAt(1);
  assert.ok(isError(at1[0].value) && !at1[0].changed);
  assert.deepEqual(p.watchesAt(2).map((w) => [w.value, w.changed]), [["2", true], [{ error: "NameError: y" }, false]]);
  assert.equal(p.watchesAt(4)[0].value, "'innerinner'");
  assert.deepEqual(p.watchesAt(6).map((w) => w.value), ["2", { error: "NameError: y" }]);
  assert.deepEqual(p.watchesAt(7).map((w) => w.value), ["4", { error: "NameError: y" }]);
  assert.deepEqual(p.logUpTo(6), []);
  assert.deepEqual(p.logUpTo(8).map((l) => l.text), ["x=2"]);
  assert.equal(p.logUpTo(-1).length, 2);
  assert.deepEqual(p.errors(), [{ line: 5, error: "NameError: y" }]);
  // stepping: line 4 stops only at its recorded step; the logpoint on 5 never stops
  assert.equal(step(t, END, "debug", [4, 5]), 8);
  assert.deepEqual(hitIndices(t, [4, 5]), [8]);
  assert.equal(step(t, 1, "continue", [4]), 8);
  assert.equal(step(t, 8, "continue", [4]), END);
  assert.equal(step(t, END, "debug", [2]), 1); // plain breakpoints as before
});

test("the reader's questions: request, key and URL parameters round trip", () => {
  const state = new Questions();
  state.setSpec(15, cleanSpec({ condition: " max_calls == 1 ", hits: "2" }));
  state.setSpec(13, cleanSpec({ log: "n={len(w)} & más" }));
  state.setSpec(9, cleanSpec({ condition: "" }));
  assert.equal(state.spec(9), null);
  assert.ok(state.addWatch("len(history)"));
  assert.ok(!state.addWatch("len(history)"));
  assert.deepEqual(state.request(new Set([15])), {
    breakpoints: [{ line: 15, condition: "max_calls == 1", hits: 2 }], watches: ["len(history)"],
  });
  assert.throws(() => cleanSpec({ hits: "0" }), RangeError);
  assert.throws(() => cleanSpec({ hits: "two" }), RangeError);
  const hash = formatQuestions(state).join("&");
  const back = new Questions();
  back.replace(parseQuestions(new URLSearchParams(hash)));
  assert.deepEqual([...back.specs].sort(), [...state.specs].sort());
  assert.deepEqual(back.watches, ["len(history)"]);
  assert.equal(back.key(new Set([13, 15])), state.key(new Set([13, 15])));
  back.replace(parseQuestions(new URLSearchParams("h4=-1&c5=x&w=a&w=")));
  assert.deepEqual([...back.specs], [[5, { condition: "x" }]]);
  assert.deepEqual(back.watches, ["a"]);
  back.clearSpecs(); // a switch that resets the breakpoints (block.js chooseScenario)
  assert.deepEqual([...back.specs], []);
  assert.deepEqual(back.watches, ["a"]);
  back.clear();
  assert.equal(back.request(new Set([5])), null);
});

test("a link's 70,000 watches: the first MAX_WATCHES kept, the rest counted, at once", () => {
  const link = Array.from({ length: 70_000 }, (_, k) => `w=x%2B${k}`).join("&") + "&w=x%2B0";
  const started = performance.now();
  const parsed = parseQuestions(new URLSearchParams(link));
  const questions = new Questions();
  questions.replace(parsed);
  const took = performance.now() - started;
  assert.equal(MAX_WATCHES, 50);
  assert.deepEqual(parsed.watches, Array.from({ length: 50 }, (_, k) => `x+${k}`));
  assert.equal(parsed.leftOut, 70_000 - 50); // the repeated one is no watch left out
  assert.deepEqual(questions.watches, parsed.watches);
  assert.equal(questions.leftOut, 70_000 - 50);
  assert.ok(took < 1000, `${took} ms`); // linear: a quadratic de-duplication took ~30 s
  assert.equal(formatQuestions(questions).length, 50); // the URL written back holds 50
  const hash = `#b=run_subagent&${link}`;
  const read = performance.now();
  assert.deepEqual(parse(hash).questions, parsed); // a link's watches, read apart, the same
  assert.ok(performance.now() - read < 1000);
});

test("a link's watches read apart decode as URLSearchParams decodes them", () => {
  const hash = "b=x&w=a+b&w=%E0%A4&w=%41&w=c%2Bd&%77=enc&s=n";
  assert.deepEqual(parse(`#${hash}`).questions.watches, new URLSearchParams(hash).getAll("w"));
});

test("the watch form refuses past MAX_WATCHES and counts it; removing one makes room", () => {
  const q = new Questions();
  for (let k = 0; k < MAX_WATCHES; k++) assert.equal(q.addWatch(`w${k}`), true);
  assert.equal(q.addWatch("w0"), false); // already there: not counted
  assert.equal(q.leftOut, 0);
  assert.equal(q.addWatch("one more"), false);
  assert.equal(q.leftOut, 1);
  assert.equal(q.watches.length, MAX_WATCHES);
  assert.equal(q.removeWatch("w3"), true);
  assert.equal(q.leftOut, 0);
  assert.equal(q.addWatch("one more"), true);
  assert.equal(q.addWatch("w0"), false);
  assert.equal(q.removeWatch("never"), false);
  assert.equal(parseQuestions(new URLSearchParams("w=a&w=b")).leftOut, undefined);
});
