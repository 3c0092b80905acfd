// Split the page's modules (scripts/build_page.py): the page's script holding every module
// it imports statically, and a chunk per set of views loaded on first use, each chunk
// holding only what the script does not. Unminified, with source maps; esbuild minifies.
//
//   node scripts/rollup_page.mjs ROLLUP_DIR ENTRY OUT_DIR META_JSON SALT
//
// SALT: a comment written at the top of each file (the minifier drops it), so that the
// names, digests of the text written, change with the tools and options that made them.
//
// META_JSON: [{file, entry, imports, dynamicImports, modules}], modules as absolute paths.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [rollupDir, entry, outDir, metaPath, salt] = process.argv.slice(2);
const { rollup } = await import(pathToFileURL(join(rollupDir, "dist", "es", "rollup.js")).href);
const warnings = [];
const bundle = await rollup({ input: entry, onwarn: (warning) => warnings.push(warning) });
const { output } = await bundle.write({
  dir: outDir, format: "es", sourcemap: true, banner: `/* ${salt.replaceAll("*/", "")} */`,
  entryFileNames: "page-[hash].js", chunkFileNames: "chunk-[hash].js", hashCharacters: "base36",
});
await bundle.close();
for (const warning of warnings) console.error(`rollup: ${warning.code}: ${warning.message}`);
if (warnings.length) process.exit(1);
const chunks = output.filter((item) => item.type === "chunk").map((chunk) => ({
  file: chunk.fileName, entry: chunk.isEntry, imports: chunk.imports,
  dynamicImports: chunk.dynamicImports, modules: Object.keys(chunk.modules),
}));
writeFileSync(metaPath, JSON.stringify(chunks, null, 1));
