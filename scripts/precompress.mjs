// Write deterministic .br (quality 11) and .gz (level 9) copies beside each named file.
// Every copy is compressed at once on Node's thread pool (the largest file's brotli is the
// build's longest step: the others are made while it runs); the bytes do not depend on it.
import { readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

await Promise.all(process.argv.slice(2).map((name) => {
  const data = readFileSync(name);
  return Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }).then((bytes) => writeFileSync(name + ".br", bytes)),
    gzipped(data, { level: 9 }).then((bytes) => writeFileSync(name + ".gz", bytes)),
  ]);
}));
