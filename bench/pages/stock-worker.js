// Bench worker A: only the stock boot of the vendored Pyodide, as any Pyodide page does it.
// ({{PYODIDE_URL}} is filled in by bench/serve.py.)
const indexURL = new URL("{{PYODIDE_URL}}", self.location.href).href;
const module = await import(indexURL + "pyodide.mjs");
const pyodide = await module.loadPyodide({ indexURL, packages: [], stdout: () => {}, stderr: () => {} });
const python = pyodide.runPython("import sys; sys.version.split()[0]");
self.postMessage({ type: "ready", path: "stock", python, at: performance.now() });
self.onmessage = ({ data }) => {
  if (data.type === "resources") {
    self.postMessage({ id: data.id, entries: performance.getEntriesByType("resource").map((e) => ({
      name: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize,
      decodedBodySize: e.decodedBodySize })) });
  }
};
