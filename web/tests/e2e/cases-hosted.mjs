// End-to-end cases: hosted games between browsers (registered in order; run.mjs runs them).
import {
  spawn, execFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, createServer, cpus, loadavg, tmpdir, dirname, join, resolve, fileURLToPath, gzipSync, chromium, ARGS, BIN, Check, DIST, DOCS, MEASURE, MOBIUS_CLICKS, MOBIUS_SAMPLE, ONLY, PAGES, PRESETS, SHOTS, assert, base, cli, clickCell, context, customBase, fenOf, freePort, here, nservers, open3d, openPage, playClicks, plies, scratch, someMove, startServer, test, tests, top, userData, web,
} from './harness.mjs';
import { peopleTest } from './people.mjs';

test('hosted: two browsers play a timed Klein-bottle game, a watcher follows, kill -9 and restart', async () => {
  const pg = process.env.TG_TEST_DB ?? '';
  const s1 = await startServer(PAGES, pg ? { db: pg } : {});
  const s2 = pg ? await startServer(PAGES, { db: pg }) : s1;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  let restarted = null;
  try {
    const r = await fetch(`${s1.base}/api/games`, {
      method: 'POST',
      body: JSON.stringify({ variant: 'klein-bottle', clock: { kind: 'fischer', initial_ms: 600000, increment_ms: 5000 } }),
    });
    assert(r.status === 201, `create: ${r.status}`);
    const g = await r.json();
    const open = async (url) => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      await page.goto(url);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
      return { page, errors };
    };
    const white = await open(`${s1.base}${g.white.url}`);
    const black = await open(`${s2.base}${g.black.url}`);
    const watch = await open(`${s2.base}${g.url}`);
    const all = [white, black, watch];
    assert((await white.page.getAttribute('#tc-app', 'data-you')) === 'white', 'white page does not play white');
    assert((await black.page.getAttribute('#tc-app', 'data-you')) === 'black', 'black page does not play black');
    assert((await watch.page.getAttribute('#tc-app', 'data-you')) === 'watcher', 'watch page is not a watcher');
    assert(await watch.page.locator('[data-clock="white"][data-ms]').count() === 1, 'no clock shown');
    const names = new Map([[white, 'white'], [black, 'black'], [watch, 'watcher']]);
    const everyoneAt = async (n) => {
      for (const p of all) {
        try {
          await p.page.waitForFunction((k) => document.querySelectorAll('#tc-app [data-ply]').length === k, n, { timeout: 20000 });
        } catch {
          const seen = await p.page.evaluate(() => ({
            plies: document.querySelectorAll('#tc-app [data-ply]').length,
            live: document.querySelector('#tc-app')?.getAttribute('data-live'),
            status: document.querySelector('[data-status]')?.textContent,
          }));
          throw new Error(`the ${names.get(p)} page shows ${seen.plies} plies, not ${n} (live ${seen.live}; status "${seen.status}"; errors ${p.errors.join('; ') || 'none'})`);
        }
      }
    };
    const move = async (who, from, to, n) => {
      await clickCell(who.page, from);
      await clickCell(who.page, to);
      await everyoneAt(n);
    };
    await move(white, 'e2', 'e4', 1);
    await move(black, 'e7', 'e5', 2);
    await move(white, 'g1', 'f3', 3);
    await move(black, 'b8', 'c6', 4);
    const before = await (await fetch(`${s2.base}/api/games/${g.id}`)).json();
    // kill -9 mid-game, then the same port and database again
    s1.proc.kill('SIGKILL');
    await new Promise((res) => s1.proc.once('exit', res));
    restarted = await startServer(PAGES, { port: s1.port, db: s1.db });
    const after = await (await fetch(`${restarted.base}/api/games/${g.id}`)).json();
    assert(JSON.stringify(after.moves) === JSON.stringify(before.moves), 'moves lost in the restart');
    assert(after.clocks.black === before.clocks.black, `black's clock ${before.clocks.black} -> ${after.clocks.black}`);
    // the pages' streams reconnect by themselves; play on
    await move(white, 'f1', 'c4', 5);
    await move(black, 'f8', 'c5', 6);
    const fens = await Promise.all(all.map((p) => fenOf(p.page)));
    assert(new Set(fens).size === 1, `the pages disagree: ${fens.join(' | ')}`);
    const sans = await watch.page.locator('#tc-app [data-ply]').allTextContents();
    assert(sans.join(' ') === 'e4 e5 Nf3 Nc6 Bc4 Bc5', `watcher's moves: ${sans.join(' ')}`);
    const final = await (await fetch(`${s2.base}/api/games/${g.id}`)).json();
    assert(final.fen === fens[0], `the board ${fens[0]} is not the server's ${final.fen}`);
    for (const p of all) assert(p.errors.length === 0, p.errors.join('; '));
  } finally {
    await browser.close().catch(() => {});
    (restarted ?? s1).proc.kill();
    if (s2 !== s1) s2.proc.kill();
  }
});

// The "done when" (people.mjs): two accounts, a rated seek, the
// game page, ratings, rematch, archive.
test('people: sign up, a rated seek, the game page (clocks, offers, chat, resign), ratings, rematch, archive', () =>
  peopleTest({ startServer, clickCell, assert, Check, chromium, ARGS, SHOTS, PAGES, DOCS, top }));

test('hosted: a low clock turns red, and a flag fall says who lost on time', async () => {
  const r = await fetch(`${base}/api/games`, {
    method: 'POST',
    body: JSON.stringify({ variant: 'torus', clock: { kind: 'fischer', initial_ms: 11000, increment_ms: 0 } }),
  });
  const g = await r.json();
  const post = (side, move) =>
    fetch(`${base}/api/games/${g.id}/move`, { method: 'POST', body: JSON.stringify({ token: g[side].token, move }) });
  assert((await post('white', 'e3')).status === 200 && (await post('black', 'e6')).status === 200, 'the first moves');
  const { page, errors } = await openPage(`${base}${g.black.url}`);
  // White's clock runs from 11 s; under 10 s it is marked low
  await page.waitForSelector('[data-clock="white"][data-running][data-low]', { timeout: 10000 });
  assert(await page.locator('[data-clock="black"][data-low]').count() === 0, 'the waiting clock is marked low');
  await page.waitForSelector('#tc-app[data-game-status="ended"]', { timeout: 20000 });
  assert((await page.locator('[data-status]').textContent()).includes('White lost on time'), 'the flag fall is not in words');
  assert((await page.locator('[data-result]').textContent()).includes('Black wins'), 'the result is not in words');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('hosted: the play page creates an online game; its links play and watch', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=torus`);
  await page.fill('[data-online-minutes]', '0');
  await page.click('[data-action="online-create"]');
  await page.waitForSelector('[data-online-links] a[data-link="black"]', { timeout: 10000 });
  const white = await page.getAttribute('[data-link="white"]', 'href');
  const watchUrl = await page.getAttribute('[data-link="watch"]', 'href');
  const blackTok = (await page.getAttribute('[data-link="black"]', 'href')).split('#token=')[1];
  assert(/^\/game\/[0-9a-f]{16}#token=[0-9a-f]{32}$/.test(white ?? ''), `white link ${white}`);
  await page.goto(`${base}${white}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  assert((await page.getAttribute('#tc-app', 'data-you')) === 'white', 'the white link does not play white');
  assert((await page.locator('[data-clock="white"]').textContent())?.includes('untimed'), 'an untimed game shows a clock');
  // this browser keeps the white token for the game (a reload still
  // plays); the watcher is someone else, without it
  await page.evaluate(() => localStorage.clear());
  const w = await openPage(`${base}${watchUrl}`);
  assert((await w.page.getAttribute('#tc-app', 'data-you')) === 'watcher', 'the watch link plays');
  await clickCell(page, 'e2');
  await clickCell(page, 'e3');
  await w.page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 1, null, { timeout: 20000 });
  // black answers through the API; before it, the first two plies offer abort, not resign
  assert(await page.locator('[data-action="abort"]:not([hidden])').count() === 1, 'no abort in the first plies');
  assert(await page.locator('[data-action="resign"]:not([hidden])').count() === 0, 'resign in the first plies');
  const bid = watchUrl.split('/').pop();
  const bm = await fetch(`${base}/api/games/${bid}/move`, { method: 'POST', body: JSON.stringify({ token: blackTok, move: 'e6' }) });
  assert(bm.status === 200, `black's move: ${bm.status}`);
  await w.page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 2, null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 2, null, { timeout: 20000 });
  // resign asks first; cancel keeps the game on
  await page.click('[data-action="resign"]');
  await page.waitForSelector('[data-confirm]:not([hidden])');
  await page.click('[data-action="resign-cancel"]');
  assert((await (await fetch(`${base}/api/games/${bid}`)).json()).status === 'active', 'cancel resigned');
  await page.click('[data-action="resign"]');
  await page.click('[data-action="resign-confirm"]');
  await w.page.waitForSelector('#tc-app[data-game-status="ended"]', { timeout: 20000 });
  assert((await w.page.locator('[data-result]').textContent())?.includes('0-1'), 'the watcher does not see the result');
  assert((await w.page.locator('[data-status]').textContent())?.includes('White resigned'), 'the termination is not in words');
  const id = watchUrl.split('/').pop();
  const archive = await openPage(`${base}/games?variant=torus`);
  assert(await archive.page.locator(`[data-game="${id}"]`).count() === 1, 'the game is not in the archive');
  assert(archive.errors.length === 0, archive.errors.join('; '));
  await archive.page.close();
  assert(errors.length === 0 && w.errors.length === 0, [...errors, ...w.errors].join('; '));
  await w.page.close();
  await page.close();
});
