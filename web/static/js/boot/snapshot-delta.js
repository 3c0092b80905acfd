// The memory snapshot stored as a delta against the wasm's own data segments.
//
// A Pyodide memory snapshot is a header followed by the whole wasm memory. Its first
// few MB are the module's static data, which pyodide.asm.wasm already carries in its data
// section and which Python's start-up barely changes: XOR-ing that region with the data
// segments turns it into zeros that compress to almost nothing (docs/performance.md).
// XOR is its own inverse, so `xorDataSegments` both encodes (scripts/build_boot.mjs) and
// decodes (boot.js), in place.
//
// Most of the memory is then zeros (85 %, mostly in a few long runs): `packZeroRuns` keeps
// only what lies between runs of at least 4 KiB, so that the browser decompresses and
// hands over 9 MB instead of 31 MB, and `expandZeroRuns` lays it back out. Packed form,
// little-endian: "LSZR", u32 length of the whole, u32 count N, N × (u32 offset, u32
// length), then those N pieces.

/** The active data segments of a wasm module: [{offset, start, length}] where `start` is
 * the position of the segment's bytes in `wasm`. (It runs once per boot, on code not yet
 * optimised: the unsigned LEB128 numbers are read in place, without allocating.) */
export function dataSegments(wasm) {
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) {
    throw new Error("not a wasm module");
  }
  let p = 8;
  const uleb = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = wasm[p++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const segments = [];
  while (p < wasm.length) {
    const id = wasm[p++];
    const size = uleb();
    const end = p + size;
    if (id === 11) {
      const count = uleb();
      for (let i = 0; i < count; i++) {
        const flags = uleb();
        if (flags === 2) uleb(); // memory index
        let offset = null;
        if (flags !== 1) {
          if (wasm[p++] !== 0x41) throw new Error("data segment offset is not an i32.const");
          offset = uleb();
          if (wasm[p++] !== 0x0b) throw new Error("data segment offset expression too long");
        }
        const length = uleb();
        if (offset !== null) segments.push({ offset, start: p, length });
        p += length;
      }
    }
    p = end;
  }
  return segments;
}

/** XOR the memory part of `snapshot` (in place) with the data segments of `wasm`. The
 * segments are first laid out as they are in memory, zeros between them (a copy each),
 * so that the XOR runs over 32-bit words. */
export function xorDataSegments(snapshot, wasm) {
  const header = new DataView(snapshot.buffer, snapshot.byteOffset, 16);
  const memoryAt = header.getUint32(4, true);
  const memory = snapshot.subarray(memoryAt);
  const segments = dataSegments(wasm).sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const { offset, length } of segments) {
    if (offset < end) throw new Error("data segments overlap");
    end = offset + length;
  }
  if (end > memory.length) throw new Error("data segment outside the snapshot");
  const image = new Uint8Array(end);
  for (const { offset, start, length } of segments) {
    image.set(wasm.subarray(start, start + length), offset);
  }
  xorInto(memory, image);
  return snapshot;
}

/** `target` ^= `source`, byte for byte over `source`'s length. */
function xorInto(target, source) {
  let i = 0;
  if (target.byteOffset % 4 === 0 && source.byteOffset % 4 === 0) {
    const words = source.length >> 2;
    const t = new Uint32Array(target.buffer, target.byteOffset, words);
    const s = new Uint32Array(source.buffer, source.byteOffset, words);
    for (let w = 0; w < words; w++) t[w] ^= s[w];
    i = words * 4;
  }
  for (; i < source.length; i++) target[i] ^= source[i];
}

const PACKED = 0x525a534c; // "LSZR"
const MIN_RUN = 4096;

/** `bytes` without its runs of MIN_RUN or more zeros (the packed form above). */
export function packZeroRuns(bytes) {
  const pieces = [];
  let start = -1;
  let zeros = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0) {
      if (start < 0) start = i;
      zeros = 0;
    } else if (++zeros === MIN_RUN && start >= 0) {
      pieces.push([start, i + 1 - MIN_RUN - start]);
      start = -1;
    }
  }
  if (start >= 0) pieces.push([start, bytes.length - (zeros < MIN_RUN ? zeros : 0) - start]);
  const head = 12 + 8 * pieces.length;
  const out = new Uint8Array(head + pieces.reduce((sum, [, length]) => sum + length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, PACKED, true);
  view.setUint32(4, bytes.length, true);
  view.setUint32(8, pieces.length, true);
  let at = head;
  pieces.forEach(([offset, length], i) => {
    view.setUint32(12 + 8 * i, offset, true);
    view.setUint32(16 + 8 * i, length, true);
    out.set(bytes.subarray(offset, offset + length), at);
    at += length;
  });
  return out;
}

/** The bytes that `packZeroRuns` packed. */
export function expandZeroRuns(packed) {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.length < 12 || view.getUint32(0, true) !== PACKED) throw new Error("not zero-run packed");
  const count = view.getUint32(8, true);
  const out = new Uint8Array(view.getUint32(4, true));
  let at = 12 + 8 * count;
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(12 + 8 * i, true);
    const length = view.getUint32(16 + 8 * i, true);
    if (at + length > packed.length || offset + length > out.length) throw new Error("zero-run packing is damaged");
    out.set(packed.subarray(at, at + length), offset);
    at += length;
  }
  if (at !== packed.length) throw new Error("zero-run packing is damaged");
  return out;
}
