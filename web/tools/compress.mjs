// Writes NAME.br and NAME.gz beside every compressible file of web/dist/
// (JavaScript, CSS, wasm, JSON, SVG, net files), with Node's own zlib (brotli quality
// 11, gzip level 9): `topochess serve` sends them to browsers that accept
// them (docs/web-architecture.md). Run by `make web` after Vite.
//   node tools/compress.mjs [DIR]     (default: dist)
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', process.argv[2] ?? 'dist');
const KINDS = /\.(js|mjs|css|wasm|json|svg|map|tcnn)$/;
const MIN = 1024; // smaller files gain nothing worth a second request path

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (KINDS.test(name)) yield path;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
for (const path of files(root)) {
  const data = readFileSync(path);
  if (data.length < MIN) continue;
  const b = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [constants.BROTLI_PARAM_MODE]: /\.(wasm|tcnn)$/.test(path) ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
  const g = gzipSync(data, { level: 9 });
  writeFileSync(`${path}.br`, b);
  writeFileSync(`${path}.gz`, g);
  raw += data.length;
  br += b.length;
  gz += g.length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`compress: ${kb(raw)} -> brotli ${kb(br)}, gzip ${kb(gz)} (${root})`);
