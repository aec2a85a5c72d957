// Run by bench/view3d.sh: see there. One `topochess serve` on loopback,
// one headless Chromium; the page's own requestAnimationFrame clock.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SMOKE = process.env.SMOKE === '1';
const TURN_MS = SMOKE ? 1000 : 5000;
const MOVES = SMOKE ? 1 : 3;
const bin = resolve(process.env.TC_BIN ?? join(root, 'topochess'));
const { chromium } = createRequire(join(root, 'web/package.json'))('playwright-core');
const scratch = mkdtempSync(join(tmpdir(), 'tc-bench-3d-'));

// the server picks a free port and says which on its first line
const proc = spawn(bin, ['serve', '--port', '0', '--host', '127.0.0.1', '--pages', join(root, 'variants'),
  '--static', join(root, 'web/dist'), '--db', join(scratch, 'bench.db')], { stdio: ['ignore', 'pipe', 'ignore'] });
const base = await new Promise((res, rej) => {
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) res(m[0]);
  });
  proc.on('exit', () => rej(new Error(`topochess serve exited: ${out}`)));
});

/** Frames for ms milliseconds; with turn, the view turns a little each frame (and draws). */
const frames = (page, ms, turn) =>
  page.evaluate(
    ([ms, turn]) =>
      new Promise((res) => {
        const v = document.querySelector('#tc-app .tc-3d')?.tc3d;
        const gaps = [];
        let last = performance.now();
        const end = last + ms;
        const tick = (t) => {
          gaps.push(t - last);
          last = t;
          if (turn && v) v.turn(0.02);
          if (t < end) requestAnimationFrame(tick);
          else res({ n: gaps.length, ms: gaps.reduce((a, b) => a + b, 0), longest: Math.max(...gaps) });
        };
        requestAnimationFrame(tick);
      }),
    [ms, turn],
  );
/** Plays a legal move of White's on the flat board (the first that its marks offer). */
async function playSome(page) {
  for (const from of ['e2', 'd2', 'g1', 'b1', 'c2', 'f2', 'a2', 'h2', 'e1']) {
    await page.locator(`#tc-app [data-cell="${from}"]`).first().click();
    const dests = page.locator('#tc-app [data-dest]');
    const to = (await dests.count()) ? await dests.first().getAttribute('data-cell') : null;
    if (to) {
      await page.locator(`#tc-app [data-cell="${to}"]`).first().click();
      return true;
    }
  }
  return false;
}
const fps = (r) => ((1000 * r.n) / r.ms).toFixed(1);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [w, h] of SMOKE ? [[1366, 768]] : [[1366, 768], [390, 844]]) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    await page.goto(`${base}/play?variant=klein-bottle&engine=black&level=20`);
    await page.waitForSelector('body[data-ready="true"] #tc-app [data-cell="e2"]');
    await page.click('#tc-app [data-action="view3d"]');
    await page.waitForSelector('#tc-app .tc-3d[data-pieces]');
    const size = await page.evaluate(() => document.querySelector('#tc-app .tc-3d canvas').getBoundingClientRect().toJSON());
    await frames(page, 300, true); // warm up
    const turning = await frames(page, TURN_MS, true);
    console.log(`view3d: ${w}x${h}, canvas ${Math.round(size.width)}x${Math.round(size.height)}: turning the Klein bottle: ${fps(turning)} frames/s over ${(turning.ms / 1000).toFixed(1)} s, longest frame ${turning.longest.toFixed(1)} ms`);
    // the engine thinks (up to 1.5 s a move at level 20) while the view turns
    let worst = 0;
    let n = 0;
    let ms = 0;
    // (moves are clicked on the flat board: on a phone, back from the view's place into sight)
    if ((await page.getAttribute('#tc-app .tc-boardview', 'data-view3d')) === 'instead') await page.click('#tc-app [data-action="view3d-swap"]');
    for (let k = 0; k < MOVES; k++) {
      const plies = await page.locator('#tc-app .tc-moves [data-ply]').count();
      if (!(await playSome(page))) break;
      await page.waitForSelector('#tc-app [data-thinking]:not([hidden])', { timeout: 5000 }).catch(() => {});
      const r = await frames(page, 1000, true);
      worst = Math.max(worst, r.longest);
      n += r.n;
      ms += r.ms;
      await page.waitForFunction((p) => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length >= p + 2, plies, { timeout: 30000 });
    }
    console.log(`view3d: ${w}x${h}: while the engine thinks (${MOVES} move${MOVES > 1 ? 's' : ''}, 1 s each) and the view turns: ${fps({ n, ms })} frames/s, longest frame ${worst.toFixed(1)} ms`);
    // the same with the view closed: the page alone while the engine thinks
    await page.click('#tc-app [data-action="view3d"]');
    const plies = await page.locator('#tc-app .tc-moves [data-ply]').count();
    await playSome(page);
    const quiet = await frames(page, 1000, false);
    await page.waitForFunction((p) => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length >= p + 2, plies, { timeout: 30000 }).catch(() => {});
    console.log(`view3d: ${w}x${h}: while the engine thinks, 3-D view closed: ${fps(quiet)} frames/s, longest frame ${quiet.longest.toFixed(1)} ms`);
    await page.close();
  }
} finally {
  await browser.close();
  proc.kill();
  rmSync(scratch, { recursive: true, force: true });
}
