// End-to-end tests of the pages in a real browser: playwright-core drives
// Debian's Chromium against a real `topochess serve` on a free loopback
// port. Run from web/ after `make topochess web` (or `make e2e-test`):
//   node tests/e2e/run.mjs            the tests; prints "N passed, N failed"
//   node tests/e2e/run.mjs --measure  also prints time to interactive,
//                                     bundle sizes and the longest frame
// Environment: TC_BIN (default ../topochess), TC_PAGES (../variants),
// TC_E2E_SHOTS (screenshot dir; default a fresh scratch dir),
// TC_E2E_DOCS=1 (also write the README's screenshots into ../docs/),
// TC_E2E_ONLY=substring (run only tests whose name contains it).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import {
  ARGS, BIN, Check, DIST, DOCS, MEASURE, MOBIUS_CLICKS, MOBIUS_SAMPLE, ONLY, PAGES, PRESETS, SHOTS, assert, base, cli, clickCell, context, customBase, fenOf, freePort, here, nservers, open3d, openPage, playClicks, plies, scratch, someMove, startServer, test, tests, top, userData, web, setEnv,
} from './harness.mjs';
import './cases-board.mjs';
import './cases-layout.mjs';
import './cases-hosted.mjs';
import './cases-analysis.mjs';
import './cases-3d.mjs';
import './cases-nets.mjs';
import './cases-issue30.mjs';
import './cases-issue31.mjs';
import './cases-issue32.mjs';
import './cases-puzzles.mjs';
import './cases-puzzles-rated.mjs';
import './cases-tournaments.mjs';

async function measure() {
  const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
  const assets = readdirSync(join(DIST, 'assets'));
  const js = assets.filter((f) => f.endsWith('.js'));
  const three = js.filter((f) => f.startsWith('view3d'));
  const core = js.filter((f) => !f.startsWith('view3d'));
  const kb = (n) => (n / 1024).toFixed(1);
  const coreJs = core.reduce((s, f) => s + gz(join(DIST, 'assets', f)), 0);
  const css = gz(join(DIST, 'assets/app.css'));
  const wasm = gz(join(DIST, 'topochess.wasm'));
  const threeGz = three.reduce((s, f) => s + gz(join(DIST, 'assets', f)), 0);
  console.log(`measure: wasm ${kb(statSync(join(DIST, 'topochess.wasm')).size)} KB raw, ${kb(wasm)} KB gzip`);
  console.log(`measure: JS without the 3-D view (${core.join(', ')}) ${kb(coreJs)} KB gzip; CSS ${kb(css)} KB gzip`);
  console.log(`measure: page bundle JS+wasm without the 3-D view ${kb(coreJs + wasm)} KB gzip (target < 600)`);
  console.log(`measure: 3-D view chunk (${three.join(', ')}) ${kb(threeGz)} KB gzip, loaded on demand`);

  // Cold time to interactive: a fresh browser profile, nothing cached.
  const ttis = [];
  for (let i = 0; i < 3; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'tc-e2e-cold-'));
    const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
    const page = await ctx.newPage();
    const t0 = Date.now();
    await page.goto(`${base}/play?variant=klein-bottle`);
    await page.waitForSelector('body[data-ready="true"] #tc-app [data-cell="e2"]');
    ttis.push(Date.now() - t0);
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      return { ready: Math.round(performance.now()), dcl: Math.round(n.domContentLoadedEventEnd) };
    });
    console.log(`measure: cold /play?variant=klein-bottle run ${i + 1}: interactive after ${ttis[i]} ms (page clock ${nav.ready} ms, DOMContentLoaded ${nav.dcl} ms)`);
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
  ttis.sort((a, b) => a - b);
  console.log(`measure: time to interactive (cold, median of 3) ${ttis[1]} ms`);

  // Longest frame while the engine thinks: requestAnimationFrame gaps on
  // the analysis page during a search in the worker, beside the same on a
  // page where nothing thinks (the machine's own noise).
  // (measured from 1 s after the page is ready, when the search has long
  // started: the 8 s search of the analysis page is then still running)
  const frames = async (page) =>
    page.evaluate(async () => {
      await new Promise((res) => setTimeout(res, 1000));
      // long tasks: main-thread work of 50 ms or more (the page's own)
      const long = [];
      const obs = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
      obs.observe({ type: 'longtask' });
      let last = performance.now();
      let max = 0;
      let n = 0;
      let over = 0;
      const until = last + 4000;
      await new Promise((res) => {
        const tick = (t) => {
          max = Math.max(max, t - last);
          if (t - last > 50) over++;
          last = t;
          n++;
          if (t < until) requestAnimationFrame(tick);
          else res();
        };
        requestAnimationFrame(tick);
      });
      obs.disconnect();
      return { max, n, over, long: long.length, longest: Math.max(0, ...long), depth: document.querySelector('[data-depth]')?.textContent ?? '' };
    });
  const idle = await openPage(`${base}/play?variant=klein-bottle`);
  const quiet = await frames(idle.page);
  await idle.page.close();
  const busy = await openPage(`${base}/analysis?variant=klein-bottle`);
  const thinking = await frames(busy.page);
  await busy.page.close();
  const line = (r) => `${r.n} frames, longest ${r.max.toFixed(1)} ms, ${r.over} over 50 ms; main-thread long tasks: ${r.long} (longest ${r.longest.toFixed(0)} ms)`;
  console.log(`measure: frames with no engine (play, 4 s): ${line(quiet)}`);
  console.log(`measure: frames while the engine thinks (analysis, klein-bottle, 4 s): ${line(thinking)} (target: no frame over 50 ms); engine reached ${thinking.depth}`);
  console.log(`measure: load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
}

// ---------------------------------------------------------------- main
let passed = 0;
let failed = 0;
let server;
let custom;
try {
  server = await startServer(PAGES);
  custom = await startServer(join(here, 'pages'));
  setEnv({
    base: server.base,
    customBase: custom.base,
    context: await chromium.launchPersistentContext(userData, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS }),
  });
  for (const t of tests) {
    if (ONLY && !t.name.includes(ONLY)) continue;
    const t0 = Date.now();
    try {
      await t.fn();
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${e instanceof Check ? e.message : e.stack}`);
      for (const p of context.pages()) await p.close().catch(() => {});
    }
  }
  if (DOCS) {
    // docs/web-play.md's pictures: the pages at a laptop's and a phone's size
    const shot = async (url, w, h, file, act = async () => {}) => {
      const { page } = await openPage(`${base}${url}`, { width: w, height: h });
      await page.waitForTimeout(100);
      await act(page);
      await page.screenshot({ path: join(top, 'docs', file) });
      await page.close();
    };
    const game = async (page) => {
      await playClicks(page, [['e2', 'e4']]);
      await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length >= 2, null, { timeout: 30000 });
      await page.waitForTimeout(700);
    };
    await shot('/play?variant=klein-bottle&engine=black', 1366, 768, 'web-play-1366.png', game);
    await shot('/play?variant=klein-bottle&engine=black', 390, 844, 'web-play-390.png', game);
    await shot(`/analysis?variant=cylinder&fen=${encodeURIComponent('r3k3/pp6/8/8/8/8/PP6/R3K2R b - - 0 1')}`, 1366, 768, 'web-analysis-1366.png', async (page) => {
      await page.selectOption('[data-multipv]', '3');
      await page.waitForFunction(() => document.querySelectorAll('[data-lines] li[data-uci]').length === 3, null, { timeout: 60000 });
      await page.waitForTimeout(1500);
    });
    await shot(`/analysis?variant=cylinder&fen=${encodeURIComponent('r3k3/pp6/8/8/8/8/PP6/R3K2R b - - 0 1')}`, 390, 844, 'web-analysis-390.png', async (page) => {
      await page.waitForFunction(() => document.querySelectorAll('[data-lines] li[data-uci]').length >= 1, null, { timeout: 60000 });
    });
    await shot(`/analysis?variant=mobius&fen=${encodeURIComponent('8/8/8/8')}`, 1366, 768, 'web-editor-1366.png');
    await shot(`/analysis?variant=mobius&fen=${encodeURIComponent('8/8/8/8')}`, 390, 844, 'web-editor-390.png');
    await shot(`/analysis?variant=torus&fen=${encodeURIComponent('k7/8/8/8/8/8/8/8/8/8/3Q4/8/8/4K3 w - - 0 1')}`, 1366, 768, 'web-analysis-torus-kqk.png', async (page) => {
      await page.waitForFunction(() => (document.querySelector('[data-depth]')?.textContent ?? '').length > 0, null, { timeout: 30000 });
    });
    await shot('/play?variant=klein-bottle', 1366, 768, 'web-klein-rolled.png', async (page) => {
      await page.click('#tc-app [data-action="roll-down"]');
    });
    const { page } = await openPage(`${base}/play?variant=klein-bottle`, { width: 1366, height: 768 });
    await playClicks(page, [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6']]);
    await open3d(page);
    await page.locator('#tc-app .tc-boardview').screenshot({ path: join(top, 'docs/web-klein-bottle.png') });
    await page.close();
  }
  if (MEASURE) await measure();
} catch (e) {
  failed++;
  console.log(`FAIL setup: ${e.stack}`);
} finally {
  await context?.close().catch(() => {});
  server?.proc.kill();
  custom?.proc.kill();
  rmSync(userData, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
// the screenshots of a run that failed are kept to look at; otherwise a
// folder of our own (not TC_E2E_SHOTS) goes: no /tmp/tc-e2e-* is left
if (failed || process.env.TC_E2E_SHOTS) console.log(`screenshots in ${SHOTS}`);
else rmSync(SHOTS, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
