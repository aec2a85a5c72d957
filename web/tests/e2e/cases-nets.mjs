// End-to-end cases: the learned evaluation's nets as static files. A copy
// of web/dist gets random nets (testnet.mjs) shipped the way `make web`
// ships nets/ (tools/nets.mjs, tools/compress.mjs), served by its own
// `topochess serve`: the manifest, the headers, and the play page fetching
// only the net its board needs (none for a custom board), with the
// hand-written evaluation and a visible note when the net is missing or
// refused.
import { cpSync, writeFileSync } from 'node:fs';
import {
  execFileSync, mkdtempSync, readFileSync, rmSync, tmpdir, join, DIST, PAGES, SHOTS, assert, context, here, startServer, test, web,
} from './harness.mjs';
import { shipNets } from '../../tools/nets.mjs';
import { randomNets } from './testnet.mjs';

let env = null;
async function netsEnv() {
  if (env) return env;
  const dist = mkdtempSync(join(tmpdir(), 'tc-e2e-dist-'));
  const nets = mkdtempSync(join(tmpdir(), 'tc-e2e-nets-'));
  process.on('exit', () => {
    env?.srv.proc.kill();
    rmSync(dist, { recursive: true, force: true });
    rmSync(nets, { recursive: true, force: true });
  });
  cpSync(DIST, dist, { recursive: true });
  const make = await randomNets(DIST);
  writeFileSync(join(nets, 'chess.tcnn'), make('chess', 64, 1));
  writeFileSync(join(nets, 'torus.tcnn'), make('torus', 32, 2));
  // an 8x8 net under the name of an 8x14 board: the engine refuses it
  writeFileSync(join(nets, 'mobius.tcnn'), make('chess', 32, 3));
  const shipped = shipNets(nets, dist);
  execFileSync(process.execPath, [join(web, 'tools/compress.mjs'), join(dist, 'assets/nets')]);
  // the presets' pages and a custom board (16x16, no preset has its board)
  const pages = join(dist, 'pages');
  cpSync(PAGES, pages, { recursive: true });
  cpSync(join(here, 'pages/big-cylinder.md'), join(pages, 'big-cylinder.md'));
  const srv = await startServer(pages, { dist });
  env = { dist, nets, shipped, srv, base: srv.base };
  return env;
}

/** Opens /play for a variant, lets the engine play White, and waits for the
 * evaluation line to settle (not "loading"); the net files asked for. */
async function playWithEngine(url, { width = 1280, height = 900, route = null } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  const asked = [];
  page.on('request', (r) => /\.tcnn$/.test(new URL(r.url()).pathname) && asked.push(new URL(r.url()).pathname));
  if (route) await page.route('**/assets/nets/*.tcnn', route);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.selectOption('[data-engine-side]', 'white');
  await page.waitForFunction(() => {
    const n = document.querySelector('[data-evaluation]');
    return n && !n.hidden && !/loading/.test(n.textContent ?? '');
  }, null, { timeout: 60000 });
  // the engine's first move: its search ran (with whatever it had)
  await page.waitForFunction(() => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length > 0, null, { timeout: 60000 });
  const kind = await page.getAttribute('[data-evaluation]', 'data-evaluation');
  const text = await page.textContent('[data-evaluation]');
  return { page, errors, asked, kind, text };
}

test('nets: make web ships each net under a hashed name with a manifest; served cacheable and precompressed', async () => {
  const { dist, shipped, base } = await netsEnv();
  const manifest = JSON.parse(readFileSync(join(dist, 'assets/nets.json'), 'utf8'));
  assert(manifest.nets.map((n) => n.preset).join(',') === 'chess,mobius,torus', `manifest presets: ${manifest.nets.map((n) => n.preset)}`);
  assert(JSON.stringify(manifest.nets) === JSON.stringify(shipped), 'the manifest is what was shipped');
  for (const n of manifest.nets) {
    const bytes = readFileSync(join(dist, n.file));
    const stored = bytes.readUInt32LE(bytes.length - 4).toString(16).padStart(8, '0');
    assert(n.file === `assets/nets/${n.preset}-${stored}.tcnn`, `${n.file}: not named by the net's checksum ${stored}`);
    assert(n.crc === stored && n.size === bytes.length, `${n.preset}: crc ${n.crc} size ${n.size}`);
  }
  const chess = manifest.nets[0];
  const r = await fetch(`${base}/${chess.file}`, { headers: { 'Accept-Encoding': 'br' } });
  const body = Buffer.from(await r.arrayBuffer());
  assert(r.status === 200, `net: HTTP ${r.status}`);
  assert(r.headers.get('content-encoding') === 'br', `net: encoding ${r.headers.get('content-encoding')}`);
  assert(/immutable/.test(r.headers.get('cache-control') ?? ''), `net: cache ${r.headers.get('cache-control')}`);
  assert(r.headers.get('content-type') === 'application/octet-stream', `net: type ${r.headers.get('content-type')}`);
  // (fetch decodes the body; the length sent is the .br file's)
  assert(Number(r.headers.get('content-length')) === readFileSync(join(dist, `${chess.file}.br`)).length, 'net: not the .br file');
  assert(body.equals(readFileSync(join(dist, chess.file))), 'net: decoded, not the net');
  const m = await fetch(`${base}/assets/nets.json`);
  assert(m.headers.get('cache-control') === 'no-cache', `manifest: cache ${m.headers.get('cache-control')}`);
  assert(/^application\/json/.test(m.headers.get('content-type') ?? ''), `manifest: type ${m.headers.get('content-type')}`);
});

test('nets: /play fetches only its preset\'s net and the engine evaluates with it; a custom board fetches none', async () => {
  const { base, shipped } = await netsEnv();
  const chess = shipped.find((n) => n.preset === 'chess');
  for (const [width, height] of [[1366, 768], [390, 844]]) {
    const { page, errors, asked, kind, text } = await playWithEngine(`${base}/play?variant=chess`, { width, height });
    assert(kind === 'net' && /evaluation: net 'random' \(from memory, 8x8, H 64/.test(text), `chess: ${kind}: ${text}`);
    // (the second page may take it from the browser's cache)
    assert(asked.length === (width === 1366 ? 1 : asked.length) && asked.length <= 1 && asked.every((p) => p === `/${chess.file}`),
      `chess: nets asked for: ${asked}`);
    await page.screenshot({ path: join(SHOTS, `play-net-${width}x${height}.png`) });
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  }
  const { page, errors, asked, kind, text } = await playWithEngine(`${base}/play?variant=big-cylinder`);
  assert(kind === 'hand' && text === 'evaluation: hand-written', `custom board: ${kind}: ${text}`);
  assert(asked.length === 0, `custom board: nets asked for: ${asked}`);
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('nets: the analysis page evaluates with the net from its first search', async () => {
  const { base } = await netsEnv();
  const page = await context.newPage();
  await page.goto(`${base}/analysis?variant=torus`);
  // the first report of the first search comes after the net is in
  await page.waitForFunction(() => /^[+-]\d|^#/.test(document.querySelector('[data-eval]')?.textContent ?? ''), null, { timeout: 60000 });
  const text = await page.textContent('[data-evaluation]');
  assert((await page.getAttribute('[data-evaluation]', 'data-evaluation')) === 'net' && /net 'random' \(from memory, 8x14, H 32/.test(text),
    `analysis: ${text}`);
  await page.close();
});

test('nets: a net that cannot be fetched, or is for another board, leaves the hand-written evaluation with a note', async () => {
  const { base } = await netsEnv();
  const gone = await playWithEngine(`${base}/play?variant=torus`, { route: (r) => r.fulfill({ status: 404, body: 'gone' }) });
  assert(gone.kind === 'hand' && /hand-written \(the net for torus could not be fetched \(HTTP 404\)\)/.test(gone.text), `404: ${gone.text}`);
  assert(gone.errors.length === 0, gone.errors.join('; '));
  await gone.page.close();
  const wrong = await playWithEngine(`${base}/play?variant=mobius`);
  assert(wrong.kind === 'hand' && /the net for mobius was refused: .*8x8/.test(wrong.text), `wrong board: ${wrong.text}`);
  assert(wrong.asked.length === 1, `wrong board: nets asked for: ${wrong.asked}`);
  assert(wrong.errors.length === 0, wrong.errors.join('; '));
  await wrong.page.close();
});
