// The schedule text (web/static/js/model/schedule.js) against tests/fixtures/schedule_text.json,
// which Python's runtime/world/choices.py writes and reads (tests/test_schedules.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { choiceAt, forkSchedule, formatSchedule, lastSwitch, parseSchedule, runnableAt, switchPointAt }
  from "../../web/static/js/model/schedule.js";

const CASES = JSON.parse(readFileSync(new URL("../fixtures/schedule_text.json", import.meta.url), "utf8"));

test("each text parses to Python's choices and formats to its canonical form", () => {
  assert.ok(CASES.valid.length >= 5);
  for (const { text, choices, canonical } of CASES.valid) {
    const parsed = parseSchedule(text);
    assert.deepEqual(parsed.map((c) => [c.kind, c.number, c.name]), choices, text);
    assert.equal(formatSchedule(parsed), canonical, text);
  }
});

test("what Python refuses is refused, with the same first words", () => {
  for (const { text, error } of CASES.invalid) {
    assert.throws(() => parseSchedule(text), (e) => e.message.startsWith(error.split(":")[0]), text);
  }
});

test("a fork at a switch point keeps the earlier choices and names the threads runnable there", () => {
  assert.equal(forkSchedule("", 10, "MainThread"), "switch:10=MainThread");
  assert.equal(forkSchedule("switch:3=a,switch:12=b,model:2=c", 10, "x,y"), "switch:3=a,switch:10=x%2Cy,model:2=c");
  const header = { threads: [{ name: "MainThread" }, { name: "alice" }, { name: "bob" }],
    schedule: { text: "", points: [[5, 1, [1, 2]], [9, 0, [0]], [12, 1, [1, 2, 0]]] } };
  assert.deepEqual(runnableAt(header, 3), ["alice", "bob", "MainThread"]);
  assert.deepEqual(runnableAt(header, 4), []);
  assert.deepEqual(runnableAt({}, 1), []);
});

test("a timeline mark stands for the last switch point at its step; a fork's choice is its last switch", () => {
  const header = { threads: [{ name: "MainThread" }, { name: "alice" }, { name: "bob" }],
    schedule: { text: "", points: [[5, 1, [1, 2]], [9, 0, [0]], [9, 2, [2, 0]], [12, 1, [1, 2, 0]]] } };
  assert.equal(switchPointAt(header, 5), 1);
  assert.equal(switchPointAt(header, 9), 3);   // the thread went on at point 2: the mark is point 3's
  assert.equal(switchPointAt(header, 7), 0);
  assert.equal(switchPointAt({}, 0), 0);
  assert.deepEqual(choiceAt(header, 4), { names: ["alice", "bob", "MainThread"], ran: "alice" });
  assert.deepEqual(choiceAt(header, 9), { names: [], ran: null });
  assert.deepEqual(lastSwitch("switch:3=a,switch:10=x%2Cy,model:2=c"), { number: 10, name: "x,y" });
  assert.equal(lastSwitch("model:2=c"), null);
  assert.throws(() => lastSwitch("switch:0=a"));
});
