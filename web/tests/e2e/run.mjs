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
import { peopleTest } from './people.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '../..');
const top = resolve(web, '..');
const BIN = resolve(web, process.env.TC_BIN ?? '../topochess');
const PAGES = resolve(web, process.env.TC_PAGES ?? '../variants');
const DIST = resolve(web, 'dist');
const SHOTS = process.env.TC_E2E_SHOTS ? resolve(process.env.TC_E2E_SHOTS) : mkdtempSync(join(tmpdir(), 'tc-e2e-shots-'));
const DOCS = process.env.TC_E2E_DOCS === '1';
const ONLY = process.env.TC_E2E_ONLY ?? '';
const MEASURE = process.argv.includes('--measure');
mkdirSync(SHOTS, { recursive: true });

const PRESETS = ['chess', 'cylinder', 'monteiro-cylinder', 'torus', 'mobius', 'klein-bottle', 'folding'];
const MOBIUS_SAMPLE = '1. d12 e11 2. c12 exc12 3. e12 g11';
// The same moves as cells to click (from, to).
const MOBIUS_CLICKS = [['d14', 'd12'], ['e9', 'e11'], ['c14', 'c12'], ['e11', 'c12'], ['e14', 'e12'], ['g9', 'g11']];

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'tc-e2e-db-'));
let nservers = 0;
async function startServer(pages, { port: fixed = 0, db = join(scratch, `games-${nservers++}.db`) } = {}) {
  const port = fixed || (await freePort());
  const proc = spawn(BIN, ['serve', '--port', String(port), '--host', '127.0.0.1', '--pages', pages, '--static', DIST, '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) throw new Error(`topochess serve exited: ${stderr}`);
    try {
      const r = await fetch(`${base}/`);
      if (r.ok) return { base, proc, port, db };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill();
  throw new Error(`topochess serve did not answer on ${base}: ${stderr}`);
}

function cli(args) {
  return execFileSync(BIN, args, { encoding: 'utf8' }).trim();
}

class Check extends Error {}
function assert(cond, msg) {
  if (!cond) throw new Check(msg);
}

// ---------------------------------------------------------------- browser
const userData = mkdtempSync(join(tmpdir(), 'tc-e2e-profile-'));
const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

let context;
let base;
let customBase;

async function openPage(url, { width = 1280, height = 900 } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  // The one error that is not the page's: the browser asks for
  // /favicon.ico, which the server does not have.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url ?? '')) errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => /\/favicon\.ico$/.test(r.url()) || errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

async function fenOf(page) {
  return page.getAttribute('#tc-app .tc-board[data-fen]', 'data-fen');
}

async function plies(page) {
  return page.locator('#tc-app .tc-moves [data-ply]').count();
}

async function clickCell(page, name, root = '#tc-app') {
  await page.locator(`${root} [data-cell="${name}"]`).first().click();
}

async function playClicks(page, clicks) {
  for (const [from, to] of clicks) {
    const before = await plies(page);
    await clickCell(page, from);
    await clickCell(page, to);
    await page.waitForFunction((n) => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === n + 1, before);
  }
}

/** A legal move of the side to move, read off the board's own marks. */
async function someMove(page, prefer) {
  for (const from of prefer) {
    await clickCell(page, from);
    const dests = await page.locator('#tc-app [data-dest]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    if (dests.length) return [from, dests[0]];
  }
  return null;
}

async function open3d(page) {
  await page.click('#tc-app .tc-toolbar [data-action="view3d"]');
  await page.waitForSelector('#tc-app .tc-3d[data-pieces]', { timeout: 30000 });
  await page.waitForTimeout(300); // let the canvas present its frame (no result depends on it)
}

// ---------------------------------------------------------------- tests
const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('hub lists every preset without console errors', async () => {
  const { page, errors } = await openPage(`${base}/`);
  const slugs = await page.evaluate(() => JSON.parse(document.getElementById('tc-data').textContent).variants.map((v) => v.slug));
  for (const s of PRESETS) assert(slugs.includes(s), `hub data lacks ${s}`);
  const entries = await page.locator('[data-variant-entry]').count();
  assert(entries === slugs.length, `hub enhanced ${entries} of ${slugs.length} entries`);
  await page.screenshot({ path: join(SHOTS, 'hub.png'), fullPage: true });
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

for (const slug of PRESETS) {
  test(`variant page ${slug}: board, explorer and 3-D view without console errors`, async () => {
    const { page, errors } = await openPage(`${base}/v/${slug}`);
    const data = await page.evaluate(() => JSON.parse(document.getElementById('tc-data').textContent).variant);
    const cells = await page.locator('.tc-variant-play [data-cell]').count();
    assert(cells === data.rows * data.cols, `${cells} cells, want ${data.rows * data.cols}`);
    assert((await page.getAttribute('.tc-variant-play .tc-board', 'data-variant')) === slug, 'data-variant');
    // The explorer: a queen on d4 of the empty board.
    await page.click('[data-explorer] [data-piece="Q"]');
    await page.locator('[data-explorer] [data-cell="d4"]').click();
    const queen = Number(await page.locator('[data-reach-piece="Q"] td').textContent());
    const marked = await page.locator('[data-explorer] .mark-reach').count();
    assert(queen > 0 && queen === marked, `explorer: queen reach ${queen}, marked ${marked}`);
    const orientable = await page.locator('[data-figure="orientable"]').textContent();
    assert(orientable === (data.report.orientable ? 'yes' : 'no'), 'report figure orientable');
    await page.locator('.tc-variant-play .tc-flat').screenshot({ path: join(SHOTS, `${slug}-flat.png`) });
    await open3d(page);
    const surface = await page.getAttribute('.tc-variant-play .tc-3d', 'data-surface');
    const pieces = Number(await page.getAttribute('.tc-variant-play .tc-3d', 'data-pieces'));
    const want = data.start_fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;
    assert(pieces === want, `3-D view shows ${pieces} pieces, want ${want}`);
    await page.locator('.tc-variant-play .tc-3d').screenshot({ path: join(SHOTS, `${slug}-3d.png`) });
    assert(surface, 'no surface');
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  });
}

test('Moebius sample game by clicking cells gives the native FEN', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=mobius`);
  await playClicks(page, MOBIUS_CLICKS);
  const fen = await fenOf(page);
  const native = cli(['fen', '--variant', 'mobius', '--play', MOBIUS_SAMPLE]);
  assert(fen === native, `browser ${fen} != native ${native}`);
  const sans = await page.locator('#tc-app .tc-moves [data-ply]').allTextContents();
  assert(sans.join(' ') === 'd12 e11 c12 exc12 e12 g11', `move list: ${sans.join(' ')}`);
  const last = await page.locator('#tc-app [data-last]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')).sort());
  assert(last.join(',') === 'g11,g9', `last move marks ${last}`);
  assert(errors.length === 0, errors.join('; '));
  if (DOCS) await page.locator('#tc-app .tc-flat').screenshot({ path: join(top, 'docs/web-mobius-sample.png') });
  await page.close();
});

test('picking the e11 pawn marks c12 across the twist', async () => {
  const { page } = await openPage(`${base}/play?variant=mobius`);
  await playClicks(page, MOBIUS_CLICKS.slice(0, 3));
  await clickCell(page, 'e11');
  const dests = await page.locator('#tc-app [data-dest]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
  assert(dests.includes('c12'), `e11 destinations: ${dests}`);
  // Its lines of movement are drawn, leaving at the twist line.
  const lines = await page.locator('#tc-app .line-move').count();
  assert(lines > 0, 'no lines of movement drawn for the picked pawn');
  await page.screenshot({ path: join(SHOTS, 'mobius-e11-picked.png') });
  // A cell it cannot reach: the library says why.
  await clickCell(page, 'e13');
  const why = await page.textContent('#tc-app [data-why]');
  assert(why && why.length > 0, 'no reason shown for an unreachable cell');
  await page.close();
});

test('drag and drop, undo, flip, coordinates, PGN export and import', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=cylinder`);
  const from = page.locator('#tc-app [data-cell="e2"]');
  const to = page.locator('#tc-app [data-cell="e4"]');
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 20, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 1);
  assert((await page.locator('#tc-app [data-ply="1"]').textContent()) === 'e4', 'dragged e2-e4');
  const bottom = await page.locator('#tc-app [data-coord="bottom"]').allTextContents();
  assert(bottom.join('') === 'abcdefgh', `bottom coordinates ${bottom.join('')}`);
  await page.click('#tc-app [data-action="flip"]');
  const flipped = await page.locator('#tc-app [data-coord="bottom"]').allTextContents();
  assert(flipped.join('') === 'hgfedcba', `flipped coordinates ${flipped.join('')}`);
  const left = await page.locator('#tc-app [data-coord="left"]').allTextContents();
  assert(left.join(',') === '1,2,3,4,5,6,7,8', `flipped left coordinates ${left}`);
  await playClicks(page, [['e7', 'e5'], ['g1', 'f3']]);
  await page.click('#tc-app [data-action="undo"]');
  assert((await plies(page)) === 2, 'undo took back one ply');
  await page.click('#tc-app .tc-io summary');
  await page.click('#tc-app [data-action="export-pgn"]');
  const pgn = await page.inputValue('#tc-app [data-io]');
  assert(/\[Variant "cylinder"\]/.test(pgn) && /1\. e4 e5/.test(pgn), `PGN: ${pgn}`);
  await page.fill('#tc-app [data-io]', '[Variant "cylinder"]\n\n1. d4 d5 2. c4 *');
  await page.click('#tc-app [data-action="import"]');
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 3);
  await page.fill('#tc-app [data-io]', '8/8/8/8/8/8/8/8 w - - 0 1');
  await page.click('#tc-app [data-action="import"]');
  const msg = await page.textContent('#tc-app [data-io-msg]');
  assert(/king/i.test(msg ?? ''), `bad FEN message: ${msg}`);
  assert((await plies(page)) === 3, 'a bad FEN leaves the game as it was');
  await page.click('#tc-app [data-action="resign"]');
  assert(/0-1|1-0/.test(await page.textContent('#tc-app [data-result]')), 'resign shows a result');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('promotion chooser', async () => {
  const fen = encodeURIComponent('7k/P7/8/8/8/8/8/K7 w - - 0 1');
  const { page } = await openPage(`${base}/play?variant=chess&fen=${fen}`);
  await clickCell(page, 'a7');
  await clickCell(page, 'a8');
  const choices = await page.locator('#tc-app [data-promote]').evaluateAll((els) => els.map((e) => e.getAttribute('data-promote')).sort());
  assert(choices.join('') === 'bnqr', `promotion buttons ${choices}`);
  await page.click('#tc-app [data-promote="n"]');
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 1);
  const fenAfter = await fenOf(page);
  assert(fenAfter.startsWith('N6k/'), `after a8=N: ${fenAfter}`);
  assert((await page.locator('#tc-app [data-ply="1"]').textContent()).startsWith('a8=N'), 'SAN a8=N');
  await page.close();
});

test('check marked, checking line drawn across the wrap', async () => {
  // Cylinder: the rook on a1 checks the king on h1 through the a/h join.
  const fen = encodeURIComponent('4k3/8/8/8/8/8/8/R2K3r w - - 0 1');
  const { page } = await openPage(`${base}/play?variant=cylinder&fen=${fen}`);
  const check = await page.locator('#tc-app [data-check]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
  assert(check.join() === 'd1', `data-check on ${check}`);
  assert((await page.locator('#tc-app .line-check').count()) > 0, 'no checking line');
  await page.close();
});

test('rolling: ghost cells, mirrored rows past the twist, coordinates follow', async () => {
  const { page } = await openPage(`${base}/play?variant=klein-bottle`);
  // At rest: the page layout, a twist line inside, ghosts beyond the wraps.
  assert((await page.locator('#tc-app [data-seam]').count()) === 8, 'twist line with 8 pairs');
  const ghostTop = await page.locator('#tc-app [data-ghost][data-side="top"]').count();
  assert(ghostTop === 8, `top ghosts ${ghostTop}`);
  await page.click('#tc-app [data-action="roll-up"]');
  // Rolled: the window is walked on the surface; rows past the twist are mirrored.
  const mirrored = await page.locator('#tc-app [data-cell][data-mirrored]').count();
  assert(mirrored > 0 && mirrored % 8 === 0, `mirrored cells after rolling: ${mirrored}`);
  const left = await page.locator('#tc-app [data-coord="left"]').allTextContents();
  assert(left[left.length - 1] !== '1', `bottom row after rolling: ${left[left.length - 1]}`);
  await page.click('#tc-app [data-action="roll-left"]');
  const bottom = await page.locator('#tc-app [data-coord="bottom"]').allTextContents();
  assert(bottom[0] !== 'a', `files after rolling: ${bottom.join('')}`);
  await page.screenshot({ path: join(SHOTS, 'klein-rolled.png') });
  await page.click('#tc-app [data-action="roll-reset"]');
  assert((await page.locator('#tc-app [data-cell][data-mirrored]').count()) === 0, 'reset roll');
  // The wheel rolls the ranks; dragging a ghost cell rolls by whole cells.
  const roll = () => page.getAttribute('#tc-app .tc-board', 'data-roll');
  const box = await page.locator('#tc-app [data-cell="d4"]').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 100);
  await page.waitForFunction(() => document.querySelector('#tc-app .tc-board')?.getAttribute('data-roll') === '0,1');
  await page.click('#tc-app [data-action="roll-reset"]');
  const ghost = await page.locator('#tc-app [data-ghost][data-side="left"]').nth(5).boundingBox();
  await page.mouse.move(ghost.x + ghost.width / 2, ghost.y + ghost.height / 2);
  await page.mouse.down();
  await page.mouse.move(ghost.x + ghost.width / 2 + box.width * 2, ghost.y + ghost.height / 2, { steps: 8 });
  await page.mouse.up();
  assert((await roll()) === '6,0', `after dragging two cells right: roll ${await roll()}`);
  await page.close();
});

test('a short game against the in-browser engine', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=klein-bottle&engine=black&level=1`);
  const prefer = ['e2', 'd2', 'c2', 'b1', 'g1', 'f2', 'a2', 'h2', 'e1', 'd1'];
  for (let i = 0; i < 3; i++) {
    if ((await page.getAttribute('#tc-app', 'data-game-over')) === 'true') break;
    const n = await plies(page);
    const mv = await someMove(page, prefer);
    assert(mv, 'no legal move found for White');
    await clickCell(page, mv[1]);
    await page.waitForFunction((k) => document.querySelectorAll('#tc-app [data-ply]').length >= k + 2, n, { timeout: 60000 });
  }
  const count = await plies(page);
  assert(count >= 6, `only ${count} plies`);
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});


// Two browsers play a timed Klein-bottle game through the hub, a third
// watches; the server is killed with kill -9 mid-game and restarted on the
// same port and database, and the game goes on with every move. With
// TG_TEST_DB=postgresql://... (make e2e-pg-test) the players and the
// watcher are on two server processes sharing that database.
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
    const everyoneAt = async (n) => {
      for (const p of all)
        await p.page.waitForFunction((k) => document.querySelectorAll('#tc-app [data-ply]').length === k, n, { timeout: 20000 });
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

test('analysis: live evaluation, best line, board editor', async () => {
  const { page, errors } = await openPage(`${base}/analysis?variant=torus`);
  await page.waitForFunction(() => /^[+-]\d|^#/.test(document.querySelector('[data-eval]')?.textContent ?? ''), null, { timeout: 60000 });
  await page.waitForFunction(() => (document.querySelector('[data-pv]')?.textContent ?? '').length > 0);
  await page.click('[data-action="edit"]');
  await page.click('[data-action="editor-clear"]');
  await page.click('[data-brush="K"]');
  await page.locator('[data-editor] [data-cell="a1"]').click();
  await page.click('[data-brush="k"]');
  await page.locator('[data-editor] [data-cell="a5"]').click();
  await page.click('[data-brush="Q"]');
  await page.locator('[data-editor] [data-cell="h5"]').click();
  await page.click('[data-action="editor-apply"]');
  const msg = await page.textContent('[data-editor-msg]');
  // On a torus h5 and a5 are neighbours: the side not to move is in check.
  assert(msg && msg.length > 0, 'the editor refused a position with the side not to move in check');
  await page.click('[data-action="editor-clear"]');
  await page.click('[data-brush="K"]');
  await page.locator('[data-editor] [data-cell="a1"]').click();
  await page.click('[data-brush="k"]');
  await page.locator('[data-editor] [data-cell="e7"]').click();
  await page.click('[data-action="editor-apply"]');
  await page.waitForFunction(() => document.querySelector('#tc-app .tc-board')?.getAttribute('data-fen')?.startsWith('8/8/8/8/8/8/8/4k3/'));
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('fits a 390 px wide screen with touch', async () => {
  // A phone: its own profile with a touch screen.
  const dir = mkdtempSync(join(tmpdir(), 'tc-e2e-phone-'));
  const phone = await chromium.launchPersistentContext(dir, {
    executablePath: '/usr/bin/chromium', headless: true, args: ARGS,
    viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2,
  });
  try {
    const page = await phone.newPage();
    await page.goto(`${base}/play?variant=klein-bottle`);
    await page.waitForSelector('body[data-ready="true"]');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `page is ${width} px wide`);
    const box = await page.locator('#tc-app .tc-board').boundingBox();
    assert(box.width <= 390 && box.width > 300, `board ${box.width} px`);
    // Tap-tap moves.
    await page.locator('#tc-app [data-cell="e2"]').tap();
    assert((await page.locator('#tc-app [data-dest]').count()) > 0, 'a tapped pawn shows its destinations');
    await page.locator('#tc-app [data-cell="e4"]').tap();
    await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 1);
    assert((await page.locator('#tc-app [data-ply="1"]').textContent()) === 'e4', 'tap-tap e2-e4');
    await page.screenshot({ path: join(SHOTS, 'phone-klein.png'), fullPage: true });
  } finally {
    await phone.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('custom page: a 16x16 board', async () => {
  const { page, errors } = await openPage(`${customBase}/v/big-cylinder`);
  const cells = await page.locator('.tc-variant-play [data-cell]').count();
  assert(cells === 256, `${cells} cells`);
  await playClicks(page, [['e2', 'e4']]);
  const fen = await fenOf(page);
  const native = cli(['fen', '--variant-file', join(here, 'pages/big-cylinder.md'), '--play', 'e4']);
  assert(fen === native, `browser ${fen} != native ${native}`);
  await page.locator('.tc-variant-play .tc-flat').screenshot({ path: join(SHOTS, 'big-cylinder-flat.png') });
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('keyboard arrows step through the moves', async () => {
  const { page } = await openPage(`${base}/play?variant=mobius`);
  await playClicks(page, MOBIUS_CLICKS.slice(0, 2));
  const end = await fenOf(page);
  await page.locator('#tc-app .tc-board').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const start = await fenOf(page);
  assert(start === cli(['fen', '--variant', 'mobius']), `after two Left: ${start}`);
  await page.keyboard.press('ArrowRight');
  assert((await fenOf(page)) === cli(['fen', '--variant', 'mobius', '--play', 'd12']), 'one Right');
  await page.keyboard.press('End');
  assert((await fenOf(page)) === end, 'End');
  await page.close();
});

// ---------------------------------------------------------------- measures
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
  base = server.base;
  customBase = custom.base;
  context = await chromium.launchPersistentContext(userData, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
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
    const { page } = await openPage(`${base}/play?variant=klein-bottle`, { width: 1280, height: 900 });
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
console.log(`screenshots in ${SHOTS}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
