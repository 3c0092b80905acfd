// Write deterministic .br (quality 11) and .gz (level 9) copies beside each named file.
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

for (const name of process.argv.slice(2)) {
  const data = readFileSync(name);
  writeFileSync(name + ".br", brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  }));
  writeFileSync(name + ".gz", gzipSync(data, { level: 9 }));
}
