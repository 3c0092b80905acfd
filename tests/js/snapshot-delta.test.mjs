// The snapshot's delta against the wasm's data segments (web/static/js/boot/snapshot-delta.js):
// read from a small hand-made module; XOR is its own inverse; zero runs pack and expand.
import assert from "node:assert/strict";
import test from "node:test";

import {
  dataSegments, expandZeroRuns, packZeroRuns, xorDataSegments,
} from "../../web/static/js/boot/snapshot-delta.js";

/** A wasm module with only a data section: segments [{offset, bytes}] (active) or
 * {passive: bytes}. Numbers below 128 only, so each is one LEB128 byte. */
function moduleWith(segments) {
  const body = [segments.length];
  for (const segment of segments) {
    if (segment.passive) body.push(1, segment.passive.length, ...segment.passive);
    else body.push(0, 0x41, segment.offset, 0x0b, segment.bytes.length, ...segment.bytes);
  }
  return Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 11, body.length, ...body]);
}

/** A snapshot: a 16-byte header saying the memory starts at byte 16, then `memory`. */
function snapshotOf(memory) {
  const bytes = new Uint8Array(16 + memory.length);
  new DataView(bytes.buffer).setUint32(4, 16, true);
  bytes.set(memory, 16);
  return bytes;
}

test("the active segments are found where the module puts them", () => {
  const wasm = moduleWith([{ offset: 3, bytes: [1, 2] }, { passive: [9] }, { offset: 9, bytes: [7] }]);
  assert.deepEqual(dataSegments(wasm).map(({ offset, length, start }) =>
    [offset, length, wasm[start]]), [[3, 2, 1], [9, 1, 7]]);
  assert.throws(() => dataSegments(Uint8Array.from([1, 2, 3, 4])), /not a wasm module/);
});

test("XOR with the segments turns the static data into zeros, and back", () => {
  const wasm = moduleWith([{ offset: 1, bytes: [5, 6, 7, 8, 9] }, { offset: 10, bytes: [1, 2, 3] }]);
  const memory = Uint8Array.from([4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1, 2, 99, 42]);
  const snapshot = snapshotOf(memory);
  xorDataSegments(snapshot, wasm);
  assert.deepEqual([...snapshot.subarray(16)], [4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 96, 42]);
  xorDataSegments(snapshot, wasm);
  assert.deepEqual(snapshot.subarray(16), memory);
});

test("segments that overlap, or lie outside the memory, are refused", () => {
  const overlapping = moduleWith([{ offset: 0, bytes: [1, 2, 3] }, { offset: 2, bytes: [4] }]);
  assert.throws(() => xorDataSegments(snapshotOf(new Uint8Array(8)), overlapping), /overlap/);
  const outside = moduleWith([{ offset: 6, bytes: [1, 2, 3] }]);
  assert.throws(() => xorDataSegments(snapshotOf(new Uint8Array(8)), outside), /outside/);
});

test("runs of zeros are left out and laid back", () => {
  const bytes = new Uint8Array(20000);
  bytes.set([1, 2, 3], 10);
  bytes.set([4], 15000);
  const packed = packZeroRuns(bytes);
  assert.ok(packed.length < 100);
  assert.deepEqual(expandZeroRuns(packed), bytes);
  packed[packed.length - 1] ^= 1;
  assert.notDeepEqual(expandZeroRuns(packed), bytes);
  assert.throws(() => expandZeroRuns(packed.subarray(0, packed.length - 1)), /damaged/);
});
