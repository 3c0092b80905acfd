// Files in one response (web/bundles.py): the page's Python sources, and the recorder's
// precompiled modules (scripts/build_runtime_pyc.mjs). Format:
// "LSPYC1\n", the length of a JSON index as 4 bytes big-endian, the index
// [{path, size}] and the files' bytes in that order.

const MAGIC = "LSPYC1\n";

/** The files of a bundle: [{path, bytes}] (none when it is not one). */
export function unbundle(buffer) {
  const bytes = new Uint8Array(buffer);
  if (new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) return [];
  const at = MAGIC.length;
  const length = new DataView(buffer, at, 4).getUint32(0);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(at + 4, at + 4 + length)));
  let offset = at + 4 + length;
  return index.map(({ path, size }) => {
    const file = { path, bytes: bytes.subarray(offset, offset + size) };
    offset += size;
    return file;
  });
}
