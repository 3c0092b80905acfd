// The memory snapshot stored as a delta against the wasm's own data segments.
//
// A Pyodide memory snapshot is a header followed by the whole wasm memory. Its first
// few MB are the module's static data, which pyodide.asm.wasm already carries in its data
// section and which Python's start-up barely changes: XOR-ing that region with the data
// segments turns it into zeros that compress to almost nothing (docs/performance.md).
// XOR is its own inverse, so `xorDataSegments` both encodes (scripts/build_boot.mjs) and
// decodes (boot.js), in place.

function leb128(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** The active data segments of a wasm module: [{offset, start, length}] where `start` is
 * the position of the segment's bytes in `wasm`. */
export function dataSegments(wasm) {
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) {
    throw new Error("not a wasm module");
  }
  const segments = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at++];
    let size;
    [size, at] = leb128(wasm, at);
    const end = at + size;
    if (id === 11) {
      let count;
      let p;
      [count, p] = leb128(wasm, at);
      for (let i = 0; i < count; i++) {
        let flags;
        [flags, p] = leb128(wasm, p);
        if (flags === 2) [, p] = leb128(wasm, p); // memory index
        let offset = null;
        if (flags !== 1) {
          if (wasm[p] !== 0x41) throw new Error("data segment offset is not an i32.const");
          [offset, p] = leb128(wasm, p + 1);
          if (wasm[p++] !== 0x0b) throw new Error("data segment offset expression too long");
        }
        let length;
        [length, p] = leb128(wasm, p);
        if (offset !== null) segments.push({ offset, start: p, length });
        p += length;
      }
    }
    at = end;
  }
  return segments;
}

/** XOR the memory part of `snapshot` (in place) with the data segments of `wasm`. */
export function xorDataSegments(snapshot, wasm) {
  const header = new DataView(snapshot.buffer, snapshot.byteOffset, 16);
  const memoryAt = header.getUint32(4, true);
  const memory = snapshot.subarray(memoryAt);
  for (const { offset, start, length } of dataSegments(wasm)) {
    if (offset + length > memory.length) throw new Error("data segment outside the snapshot");
    for (let i = 0; i < length; i++) memory[offset + i] ^= wasm[start + i];
  }
  return snapshot;
}
