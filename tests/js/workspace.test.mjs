// The run's folder at a cursor (model/workspace.js): files at the start, changes from their
// step on, what a child changed between two steps, the gate's decisions of a span.
import { test } from "node:test";
import assert from "node:assert/strict";
import { changedBetween, decisionsBetween, folderAt } from "../../web/static/js/model/workspace.js";

const workspace = {
  files: { "a.txt": { size: 2, text: "a\n" }, "gone.txt": { size: 1, text: "g" } },
  changes: [
    [5, "new.py", 1, { size: 3, text: "x=1" }],
    [7, "a.txt", 0, { size: 3, text: "ab\n" }],
    [9, "gone.txt", 1, null],
    [11, "a.txt", 0, { size: 2, text: "a\n" }],
    [12, "tmp.bin", 0, { size: 4, binary: true }],
    [13, "tmp.bin", 0, null],
  ],
};

const shown = (rows) => rows.map((r) => [r.path, r.state, r.depth, r.step]);

test("the folder at a cursor: each change counts from its own step on", () => {
  assert.deepEqual(shown(folderAt(workspace, 4)), [
    ["a.txt", "unchanged", undefined, undefined], ["gone.txt", "unchanged", undefined, undefined]]);
  assert.deepEqual(shown(folderAt(workspace, 5)), [
    ["a.txt", "unchanged", undefined, undefined], ["gone.txt", "unchanged", undefined, undefined],
    ["new.py", "created", 1, 5]]);
  assert.deepEqual(shown(folderAt(workspace, 9)), [
    ["a.txt", "changed", 0, 7], ["gone.txt", "deleted", 1, 9], ["new.py", "created", 1, 5]]);
  // written back as it was: unchanged against the start, its last write still known
  assert.deepEqual(shown(folderAt(workspace, 12)).find((r) => r[0] === "a.txt"), ["a.txt", "unchanged", 0, 11]);
  assert.equal(folderAt(workspace, 12).find((r) => r.path === "tmp.bin").state, "created");
  // created and deleted within the run: not in the folder at the end
  assert.deepEqual(shown(folderAt(workspace, -1)).map((r) => r[0]), ["a.txt", "gone.txt", "new.py"]);
  assert.deepEqual(folderAt(undefined, 3), []);
});

test("what a child changed between two steps, at its depth and deeper", () => {
  assert.deepEqual(changedBetween(workspace, 1, 4, 10).map((r) => [r.path, r.state]),
    [["gone.txt", "deleted"], ["new.py", "created"]]);
  assert.deepEqual(changedBetween(workspace, 1, 6, 8), []);
});

test("the gate's decisions of a span, by depth", () => {
  const gate = [[3, "task", "allow", 0], [6, "bash", "deny", 1], [8, "read_file", "allow", 1], [12, "bash", "allow", 0]];
  assert.deepEqual(decisionsBetween(gate, 0, 10, (d) => d === 0).map((d) => d.tool), ["task"]);
  assert.deepEqual(decisionsBetween(gate, 4, -1, (d) => d >= 1).map((d) => [d.tool, d.decision]),
    [["bash", "deny"], ["read_file", "allow"]]);
});
