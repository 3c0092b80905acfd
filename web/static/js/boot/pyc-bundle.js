// Files in one response (web/bundles.py): the page's Python sources, and the recorder's
// precompiled modules (scripts/build_runtime_pyc.mjs); fetched and written into Pyodide's
// file system by the worker (worker.js). Format:
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

/** Fetch Python files in bundles (web/bundles.py), at a low priority, so that they do not
 * delay the runtime's own downloads: resolves to their ArrayBuffers. */
export function fetchBundles(urls) {
  return Promise.all(urls.map(async (url) => {
    const response = await fetch(url, { priority: "low" });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.arrayBuffer();
  }));
}

/** The recorder's precompiled modules (null when they do not arrive: Python then compiles
 * the sources, slower, not wrong). */
export function fetchCompiled(url) {
  if (!url) return Promise.resolve(null);
  return fetch(url, { priority: "low" }).then((r) => (r.ok ? r.arrayBuffer() : null))
    .catch(() => null);
}

/** Write the files of bundles (ArrayBuffers) into `pyodide`'s file system under `sysPath`:
 * [{path, bytes}]. */
export function writeBundles(pyodide, buffers, sysPath, { required = true } = {}) {
  const written = [];
  for (const buffer of buffers) {
    let files = [];
    try {
      files = buffer ? unbundle(buffer) : [];
    } catch {
      // not a bundle after all (precompiled modules only: the sources are compiled)
    }
    if (!files.length && required) throw new Error("the page's Python files did not arrive as a bundle");
    for (const { path, bytes } of files) {
      const target = `${sysPath}/${path}`;
      pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
      pyodide.FS.writeFile(target, bytes);
    }
    written.push(...files);
  }
  return written;
}
