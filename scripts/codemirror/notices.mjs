// After esbuild: write LICENSES.md (each bundled package's license text) and README.md
// (what the bundle is: package versions, sha256) beside the bundle.
//   node notices.mjs META_JSON DEST_DIR VERSION   (run in the npm install folder)
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [metaPath, dest, version] = process.argv.slice(2);
const meta = JSON.parse(readFileSync(metaPath, "utf8"));

/** The package folders (node_modules/NAME or node_modules/@SCOPE/NAME) the bundle drew from. */
function bundledPackages() {
  const found = new Set();
  for (const input of Object.keys(meta.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) found.add(match[1]);
  }
  return [...found].sort();
}

function licenseText(folder) {
  const name = readdirSync(folder).find((f) => /^licen[sc]e(\.md|\.txt)?$/i.test(f));
  if (!name) throw new Error(`${folder}: no license file`);
  return readFileSync(join(folder, name), "utf8").trim();
}

const packages = bundledPackages().map((folder) => {
  const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  if (pkg.license !== "MIT") throw new Error(`${pkg.name}: license ${pkg.license}, expected MIT`);
  return { name: pkg.name, version: pkg.version, license: pkg.license, text: licenseText(folder) };
});

const bundle = readFileSync(join(dest, "codemirror.mjs"));
const sha256 = createHash("sha256").update(bundle).digest("hex");
const esbuild = JSON.parse(readFileSync("node_modules/esbuild/package.json", "utf8")).version;

const licenses = ["# Licenses of the bundled packages", "",
  "`codemirror.mjs` bundles the following packages, all under the MIT license.", ""];
for (const p of packages) licenses.push(`## ${p.name} ${p.version} (${p.license})`, "", "```", p.text, "```", "");
writeFileSync(join(dest, "LICENSES.md"), licenses.join("\n"));

const readme = [
  `# CodeMirror ${version}, bundled`, "",
  "One ES module with what loopstep's setup editor needs (see `scripts/codemirror/entry.mjs`),",
  `built by \`scripts/vendor_codemirror.sh\` with esbuild ${esbuild} from the exact npm packages`,
  "of `scripts/codemirror/package-lock.json`. No CDN: the page loads it from its own origin,",
  "on first use of \"edit setup\". License: MIT (every package; texts in `LICENSES.md`).", "",
  `sha256 of codemirror.mjs: \`${sha256}\``, "",
  "| package | version | license |", "|---|---|---|",
  ...packages.map((p) => `| ${p.name} | ${p.version} | ${p.license} |`), "",
];
writeFileSync(join(dest, "README.md"), readme.join("\n"));
