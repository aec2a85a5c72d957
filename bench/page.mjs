#!/usr/bin/env node
// A cold first visit of /play?variant=klein-bottle in Debian's Chromium
// (a fresh profile per run, nothing cached): the time until the board is
// usable (the page says data-ready and e2 is drawn) and the bytes sent over
// the wire, first from a copy of web/dist without its .br/.gz files (the
// assets as they were served before `make web` compressed them), then from
// web/dist itself. Prints figures; asserts nothing.
//   make && make wasm web && nice -n 10 node bench/page.mjs [--runs N]
//   SMOKE=1 node bench/page.mjs       (one run each: the CI's smoke mode)
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const i = args.indexOf('--runs');
const RUNS = process.env.SMOKE === '1' ? 1 : i >= 0 ? Number(args[i + 1]) : 5;
const URL_PATH = '/play?variant=klein-bottle';
const bin = resolve(process.env.TC_BIN ?? join(root, 'topochess'));
const dist = join(root, 'web/dist');
for (const f of [bin, join(dist, 'assets/app.js')]) if (!existsSync(f)) throw new Error(`${f} missing: run make && make wasm web`);
const { chromium } = createRequire(join(root, 'web/package.json'))('playwright-core');
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];

const scratch = mkdtempSync(join(tmpdir(), 'tc-bench-page-'));
// The assets without their compressed copies.
const plain = join(scratch, 'plain');
cpSync(dist, plain, { recursive: true });
const strip = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) strip(p);
    else if (/\.(br|gz)$/.test(e.name)) rmSync(p);
  }
};
strip(plain);

const freePort = () =>
  new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });

async function serve(staticDir) {
  const port = await freePort();
  const proc = spawn(bin, ['serve', '--port', String(port), '--host', '127.0.0.1', '--pages', join(root, 'variants'),
    '--static', staticDir, '--db', join(scratch, `db-${port}.db`)], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (let k = 0; k < 200; k++) {
    try {
      if ((await fetch(`${base}/`)).ok) return { base, proc };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill();
  throw new Error('topochess serve did not start');
}

async function coldVisit(base) {
  const dir = mkdtempSync(join(scratch, 'profile-'));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  try {
    const page = await ctx.newPage();
    const done = [];
    page.on('requestfinished', (r) => done.push(r));
    const t0 = Date.now();
    await page.goto(base + URL_PATH);
    await page.waitForSelector('body[data-ready="true"] #tc-app [data-cell="e2"]');
    const ms = Date.now() - t0;
    await page.waitForLoadState('networkidle');
    let bytes = 0;
    for (const r of done) {
      const s = await r.sizes();
      bytes += s.responseBodySize + s.responseHeadersSize;
    }
    return { ms, bytes, requests: done.length };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const [label, dir] of [['uncompressed (before)', plain], ['brotli/gzip copies (after)', dist]]) {
    const { base, proc } = await serve(dir);
    try {
      const runs = [];
      for (let k = 0; k < RUNS; k++) runs.push(await coldVisit(base));
      const kb = (n) => (n / 1024).toFixed(1);
      console.log(`page: ${label}: cold ${URL_PATH} usable after ${median(runs.map((r) => r.ms))} ms (median of ${RUNS}: ${runs.map((r) => r.ms).join(', ')}), ${kb(median(runs.map((r) => r.bytes)))} KB in ${runs[0].requests} requests`);
    } finally {
      proc.kill();
    }
  }
  console.log(`page: load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
