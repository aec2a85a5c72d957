// The module and the engine worker in a real browser (Debian's Chromium via
// playwright-core): a page built by Vite from a small entry that uses
// web/src/lib, served from 127.0.0.1 with and without cross-origin
// isolation, so both ways of stopping the engine run as they do on the
// site. Skipped when /usr/bin/chromium is missing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { native, WASM } from './helpers';

const CHROMIUM = '/usr/bin/chromium';
let dir = '';

const MAIN = `
import { loadTopochess, EngineClient } from ${JSON.stringify(resolve(__dirname, '../../src/lib/index.ts'))};
const out = {};
(async () => {
  const tc = await loadTopochess('/topochess.wasm');
  const v = tc.variant({ preset: 'klein-bottle' });
  const g = v.game();
  g.play('d12');
  out.fen = g.fen();
  out.moves = g.legalMoves().length;
  const e = await EngineClient.create({ module: tc.module, variant: { preset: 'klein-bottle' } });
  out.mode = e.stopMode;
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  // depth 100 never completes: only stop() ends it, from this thread
  const r = await e.search({ fen: g.fen(), depth: 100, onInfo: (i) => { if (i.depth >= 4) e.stop(); } });
  clearInterval(timer);
  out.stopped = r.stopped === true;
  out.best = r.best;
  out.legal = g.legalMoves().some((m) => m.uci === r.best);
  out.ticked = ticks > 0;
  const t = await e.search({ fen: g.fen(), depth: 3 });
  out.depth3 = t.depth;
  e.terminate();
})().then(() => { window.tcResult = out; }, (err) => { window.tcResult = { error: String(err) }; });
`;

function serve(root: string, isolate: boolean): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    const path = join(root, url === '/' ? 'index.html' : url);
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404);
      res.end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': types[extname(path)] ?? 'application/octet-stream' };
    if (isolate) {
      headers['cross-origin-opener-policy'] = 'same-origin';
      headers['cross-origin-embedder-policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    res.end(readFileSync(path));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

describe.skipIf(!existsSync(CHROMIUM))('in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tc-browser-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title><script type="module" src="./main.ts"></script>');
    writeFileSync(join(dir, 'main.ts'), MAIN);
    await build({ configFile: false, logLevel: 'silent', root: dir, build: { outDir: join(dir, 'dist'), write: true } });
    writeFileSync(join(dir, 'dist', 'topochess.wasm'), readFileSync(WASM));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([[false, 'respawn'], [true, 'shared-flag']] as const)('isolated %s: the engine stops by %s', async (isolate, mode) => {
    const server = await serve(join(dir, 'dist'), isolate);
    const profile = mkdtempSync(join(tmpdir(), 'tc-chromium-'));
    const ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => (window as unknown as { tcResult?: unknown }).tcResult, null, { timeout: 90000 });
      const r = await page.evaluate(() => (window as unknown as { tcResult: Record<string, unknown> }).tcResult);
      expect(errors).toEqual([]);
      expect(r).toEqual({
        fen: native(['fen', '--variant', 'klein-bottle', '--play', 'd12']).trim(),
        moves: native(['moves', '--variant', 'klein-bottle', '--play', 'd12']).trim().split('\n').length,
        mode,
        stopped: true,
        best: r['best'],
        legal: true,
        ticked: true,
        depth3: 3,
      });
    } finally {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
      server.close();
    }
  });
});
