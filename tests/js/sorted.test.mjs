import { test } from "node:test";
import assert from "node:assert/strict";
import { lastAtOrBefore } from "../../web/static/js/model/sorted.js";

/** The same answer by scanning every entry. */
function scan(sorted, x, length) {
  let found = -1;
  for (let i = 0; i < length; i++) if (sorted[i] <= x) found = i;
  return found;
}

test("lastAtOrBefore agrees with a scan, repeats and a shorter length included", () => {
  const arrays = [[], [5], [1, 1, 1], [0, 2, 2, 4, 9, 9, 10], Uint32Array.from([3, 7, 7, 8, 20, 0, 0])];
  for (const sorted of arrays) {
    const lengths = sorted instanceof Uint32Array ? [5] : [sorted.length, Math.max(0, sorted.length - 1)];
    for (const length of lengths) {
      for (let x = -1; x <= 21; x++) {
        assert.equal(lastAtOrBefore(sorted, x, length), scan(sorted, x, length), `${[...sorted]} ${x} ${length}`);
      }
    }
  }
});

test("lastAtOrBefore reads only the first `length` entries of a typed array", () => {
  const steps = new Int32Array(8);           // grown buffer: zeros past the count
  steps.set([2, 5, 9]);
  assert.equal(lastAtOrBefore(steps, 100, 3), 2);
  assert.equal(lastAtOrBefore(steps, 1, 3), -1);
});
