// Ships the learned evaluation's nets beside the pages: every NETS/<preset>.tcnn
// is copied to DIST/assets/nets/<preset>-<crc>.tcnn (the net's CRC-32, the
// checksum it ends with, in the name, so the server lets browsers cache it
// for good) and listed in
// DIST/assets/nets.json, which the engine reads to find the file of the
// net it needs (web/src/app/engine.ts; docs/nnue.md). Run by `make web`
// after Vite (which empties dist) and before tools/compress.mjs.
//   node tools/nets.mjs NETS_DIR [DIST]     (default dist)
// The manifest: {"nets": [{"preset", "file", "crc", "size"}, ...]}, sorted by
// preset; "file" is the path under DIST. No nets: an empty list.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';

export function shipNets(netsDir, dist) {
  const out = join(dist, 'assets', 'nets');
  rmSync(out, { recursive: true, force: true }); // nets shipped before
  mkdirSync(out, { recursive: true });
  const nets = [];
  const names = existsSync(netsDir) ? readdirSync(netsDir).filter((f) => f.endsWith('.tcnn')).sort() : [];
  for (const name of names) {
    const preset = basename(name, '.tcnn');
    if (!/^[a-z0-9][a-z0-9-]*$/.test(preset)) throw new Error(`${join(netsDir, name)}: a net's name is its preset's (letters, digits, -)`);
    const data = readFileSync(join(netsDir, name));
    if (data.length < 8) throw new Error(`${join(netsDir, name)}: ${data.length} bytes, not a net file`);
    // of the bytes before the checksum: a whole file's CRC is the same
    // constant for every file that ends with its own
    const crc = crc32(data.subarray(0, data.length - 4)).toString(16).padStart(8, '0');
    const file = `assets/nets/${preset}-${crc}.tcnn`;
    copyFileSync(join(netsDir, name), join(dist, file));
    nets.push({ preset, file, crc, size: data.length });
  }
  writeFileSync(join(dist, 'assets', 'nets.json'), `${JSON.stringify({ nets }, null, 1)}\n`);
  return nets;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  if (!process.argv[2]) {
    console.error('usage: node tools/nets.mjs NETS_DIR [DIST]');
    process.exit(2);
  }
  const nets = shipNets(resolve(process.argv[2]), resolve(here, '..', process.argv[3] ?? 'dist'));
  const kb = nets.reduce((s, n) => s + n.size, 0) / 1024;
  console.log(`nets: ${nets.length} shipped (${kb.toFixed(1)} KB)${nets.length ? ': ' + nets.map((n) => n.preset).join(', ') : ''}`);
}
