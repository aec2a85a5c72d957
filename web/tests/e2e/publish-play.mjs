// "Published means playable at once" (issue 19) end to end, in Debian's
// Chromium against two real `topochess serve` processes on one fresh
// database: an account writes a 6x10 Moebius strip (seam 9) at /new on
// server A and sees the preview and the topology report follow the typing,
// then submits; an editor (made by `topochess admin editor`) publishes it;
// without a restart it is on both servers' home pages and lobbies. A game
// is played on it against the engine in the browser, one against the
// server's engine (a hosted game made from the play page), and one between
// two accounts through a rated lobby seek (posted on A, seen on B, and on
// PostgreSQL accepted and played on B; moves cross over, Black resigns).
// The page's archive lists the games; a second revision is saved and the
// diff shown; unpublished (the editor's button), it leaves the home page and the lobby, and its
// finished games stay readable.
// With TG_TEST_DB=postgresql://... (tools/with-postgres) the same runs on
// PostgreSQL, the lobby game then played across the two processes.
// Screenshots (1366x768 and 390x844) of the published page and a game on
// it go to TC_E2E_SHOTS (default a scratch dir). Run from web/ after
// `make topochess web`:  node tests/e2e/publish-play.mjs  ("N passed, N failed")
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ARGS, freePort } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '../..');
const BIN = resolve(web, process.env.TC_BIN ?? '../topochess');
const PAGES = resolve(web, process.env.TC_PAGES ?? '../variants');
const DIST = resolve(web, 'dist');
const scratch = mkdtempSync(join(tmpdir(), 'tc-e2e-pubplay-'));
const SHOTS = process.env.TC_E2E_SHOTS ? resolve(process.env.TC_E2E_SHOTS) : join(scratch, 'shots');
mkdirSync(SHOTS, { recursive: true });
// TG_TEST_DB (a PostgreSQL URL, as tools/with-postgres sets) or an SQLite
// file. On SQLite live streams do not cross processes (docs/deploy.md: one
// process per SQLite file), so the lobby game is then played on server A
// after its seek is seen on B; on PostgreSQL Bob accepts and plays on B.
const PG = /^postgres(ql)?:/.test(process.env.TG_TEST_DB ?? '');
const DB = PG ? process.env.TG_TEST_DB : join(scratch, 'hub.db');
const SLUG = 'strip-6x10';
const TITLE = 'Six by Ten Strip';
const SETUP = 'PPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR';

let passed = 0;
let failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else {
    failed++;
    console.log(`FAIL: ${what}`);
  }
}
/** A step the rest depends on: a failure ends the run. */
function need(cond, what) {
  check(cond, what);
  if (!cond) throw new Error(`cannot go on: ${what}`);
}


const servers = [];
async function startServer() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(BIN, ['serve', '--port', String(port), '--host', '127.0.0.1', '--pages', PAGES, '--static', DIST, '--db', DB], { stdio: ['ignore', 'ignore', 'pipe'] });
  const srv = { base, proc, stderr: '' };
  proc.stderr.on('data', (d) => (srv.stderr += d));
  servers.push(srv);
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) throw new Error(`topochess serve exited: ${srv.stderr}`);
    try {
      if ((await fetch(`${base}/`)).ok) return srv;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`topochess serve did not answer on ${base}`);
}

/** Waits until f() is true (a server process sees a change a moment later). */
async function eventually(f, ms = 5000) {
  for (let t = 0; t < ms; t += 100) {
    if (await f()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return f();
}
const text = async (url) => (await fetch(url)).text();
const status = async (url) => (await fetch(url)).status;

const A = await startServer();
const B = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
const pageErrors = [];
const opened = [];

async function open(base, width = 1366, height = 768) {
  const ctx = await browser.newContext({ viewport: { width, height } });
  const page = await ctx.newPage();
  page.setDefaultTimeout(20000);
  opened.push(page);
  page.on('pageerror', (e) => pageErrors.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !/favicon/.test(m.location().url ?? '') && pageErrors.push(`console: ${m.text()} (${m.location().url})`));
  return { ctx, page, base };
}
async function signUp(base, name, width, height) {
  const who = await open(base, width, height);
  const p = who.page;
  await p.goto(`${base}/signup`);
  await p.fill('form[action="/signup"] [name="name"]', name);
  await p.fill('form[action="/signup"] [name="password"]', 'moebius strip');
  await p.fill('form[action="/signup"] [name="password2"]', 'moebius strip');
  await Promise.all([p.waitForURL(`**/@/${name}`), p.click('form[action="/signup"] button[type="submit"]')]);
  return who;
}
const attr = (p, sel, name) => p.getAttribute(sel, name);
const plies = (p) => p.locator('#tc-app [data-ply]').count();
async function waitPlies(p, n, timeout = 60000) {
  await p.waitForFunction((k) => document.querySelectorAll('#tc-app [data-ply]').length >= k, n, { timeout });
}
/** A legal move of the side to move, read off the board's own marks
 * (the rules are the wasm module's; nothing here knows them). */
async function playSome(p, prefer) {
  const before = await plies(p);
  for (const from of prefer) {
    await p.locator(`#tc-app [data-cell="${from}"]`).first().click();
    const dests = await p.locator('#tc-app [data-dest]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    if (dests.length) {
      await p.locator(`#tc-app [data-cell="${dests[0]}"]`).first().click();
      await waitPlies(p, before + 1, 20000);
      return `${from}-${dests[0]}`;
    }
  }
  throw new Error(`no legal move from ${prefer.join(' ')}`);
}
const WHITE = ['a2', 'b2', 'c2', 'd2', 'e2', 'f2', 'b1', 'c1'];
const BLACK = ['a5', 'b5', 'c5', 'd5', 'e5', 'f5', 'b6', 'c6', 'a7', 'b7'];
async function shots(p, url, name, ready) {
  for (const [w, h] of [[1366, 768], [390, 844]]) {
    await p.setViewportSize({ width: w, height: h });
    if (url) await p.goto(url);
    await p.waitForSelector(ready);
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.screenshot({ path: join(SHOTS, `${name}-${w}x${h}.png`) });
  }
  await p.setViewportSize({ width: 1366, height: 768 });
}

let step = 'writing the page';
try {
  // ---- Ann writes the page at /new on server A and submits it
  const ann = await signUp(A.base, 'ann');
  const p = ann.page;
  await p.goto(`${A.base}/new`);
  await p.waitForSelector('body[data-ready="true"] [data-preview-board] [data-cell]');
  check((await p.locator('[data-preview-board] [data-cell]').count()) === 64, 'the starter preview is 8x8');
  await p.fill('[data-field="title"]', TITLE);
  await p.fill('[data-field="slug"]', SLUG);
  await p.fill('[data-field="description"]', 'A 6x10 Moebius strip: ranks 9 and 10 joined with a half-twist');
  await p.fill('[data-field="files"]', '6');
  await p.fill('[data-field="setup"]', SETUP);
  await p.fill('[data-field="ranks"]', '10');
  await p.selectOption('[data-field="rank-rule"]', 'twist');
  await p.selectOption('[data-field="file-rule"]', 'open');
  await p.fill('[data-field="seam"]', '9');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-preview') === '6x10');
  check((await p.locator('[data-preview-board] [data-cell]').count()) === 60, 'the preview follows the typing: 6x10');
  const report = await p.textContent('[data-report]');
  check(/Orientable\s*no/.test(report ?? ''), `the report follows the typing (a Moebius strip is not orientable): ${report}`);
  await p.fill('[data-body]', `## ${TITLE}\n\nThe Moebius strip on a small board: ranks 9 and 10 meet with a half-twist.\n`);
  await p.click('[data-action="submit"]');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('submit:'));
  need((await attr(p, '#tc-app', 'data-last')) === 'submit:200', `submitted: ${await p.textContent('[data-msg]')}`);
  check((await status(`${A.base}/v/${SLUG}`)) === 404, 'not served before an editor publishes it');
  const lobbyBefore = await (async () => { await p.goto(`${A.base}/lobby`); return p.locator(`.tc-seek-form [name="variant"] option[value="${SLUG}"]`).count(); })();
  check(lobbyBefore === 0, 'a draft is not in the lobby');

  step = 'publishing';
  // ---- Eda, made an editor from the command line, publishes it
  const eda = await signUp(A.base, 'eda');
  execFileSync(BIN, ['admin', 'editor', 'eda', '--db', DB]);
  const e = eda.page;
  await e.goto(`${A.base}/v/${SLUG}/edit`);
  await e.waitForSelector('body[data-ready="true"] [data-preview-board] [data-cell="f10"]');
  await e.click('[data-action="publish"]');
  await e.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('publish:'));
  need((await attr(e, '#tc-app', 'data-last')) === 'publish:200', `published: ${await e.textContent('[data-msg]')}`);

  // ---- on the home page, the page itself and the lobby of both processes at once
  for (const [name, srv] of [['A', A], ['B', B]]) {
    check(await eventually(async () => (await text(`${srv.base}/`)).includes(`data-slug="${SLUG}"`)), `server ${name}: on the home page`);
    check((await status(`${srv.base}/v/${SLUG}`)) === 200, `server ${name}: /v/${SLUG} is served`);
    const api = await (await fetch(`${srv.base}/api/variants`)).json();
    check(JSON.stringify(api).includes(`"${SLUG}"`), `server ${name}: in /api/variants`);
  }
  // the lobby's variant list, signed in (Ann on A, Bob on B)
  const bob = await signUp(B.base, 'bob', 390, 844);
  const b = bob.page;
  for (const [name, q, srv] of [['A', p, A], ['B', b, B]]) {
    await q.goto(`${srv.base}/lobby`);
    check((await q.locator(`.tc-seek-form [name="variant"] option[value="${SLUG}"]`).count()) === 1, `server ${name}: in the lobby's variant list`);
  }
  await e.goto(`${A.base}/`);
  await e.locator(`[data-slug="${SLUG}"]`).first().scrollIntoViewIfNeeded();
  await e.screenshot({ path: join(SHOTS, 'home-1366x768.png') });
  await Promise.all([e.waitForURL(`**/v/${SLUG}`), e.locator(`a[href="/v/${SLUG}"]`).first().click()]);
  await shots(e, `${A.base}/v/${SLUG}`, 'published-page', 'body[data-ready="true"] [data-cell="f10"]');
  await e.screenshot({ path: join(SHOTS, 'published-page-full.png'), fullPage: true });

  // ---- against the engine in the browser
  step = 'browser engine game';
  // the page names every way to play it, near its top
  const ways = await e.locator('[data-play-links] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  check(['/play?engine=black&level=5&variant=', '/play?variant=', '/lobby?variant=', '/games?variant='].every((w) => ways.includes(w + SLUG)), `the page's ways to play: ${ways}`);
  await e.goto(`${A.base}/v/${SLUG}`);
  await Promise.all([e.waitForURL(/\/play\?engine=black/), e.click('[data-play-links] a >> nth=0')]);
  await e.waitForSelector('body[data-ready="true"] #tc-app [data-cell="f10"]');
  for (let i = 0; i < 2; i++) {
    const n = await plies(e);
    await playSome(e, WHITE);
    await waitPlies(e, n + 2);
  }
  check((await plies(e)) >= 4, `the browser's engine answered: ${await plies(e)} plies`);
  await shots(e, '', 'browser-engine-game', 'body[data-ready="true"] #tc-app [data-ply]');

  // ---- against the server's engine: a hosted game made from the play page
  step = 'server engine game';
  await e.goto(`${A.base}/play?variant=${SLUG}`);
  await e.waitForSelector('body[data-ready="true"] [data-online-opponent]');
  await e.selectOption('[data-online-opponent]', 'black');
  await e.fill('[data-online-minutes]', '0');
  await e.selectOption('[name="online-level"]', '1');
  await Promise.all([e.waitForURL(/\/game\/[0-9a-f]{16}#token=/), e.click('[data-action="online-create"]')]);
  const engineGame = e.url().split('/game/')[1].split('#')[0];
  await e.waitForSelector('#tc-app[data-you="white"] [data-cell="f10"]', { timeout: 30000 });
  await playSome(e, WHITE);
  await waitPlies(e, 2, 60000);
  check((await plies(e)) === 2, 'the server engine answered on the game page');
  await playSome(e, WHITE);
  await waitPlies(e, 4, 60000);
  const eg = await (await fetch(`${B.base}/api/games/${engineGame}`)).json();
  check(eg.variant === SLUG && eg.moves?.length >= 4, `server B reads the engine game: ${eg.variant} ${eg.moves?.length}`);
  await e.click('[data-action="resign"]');
  await e.click('[data-action="resign-confirm"]');
  await e.waitForSelector('#tc-app[data-game-status="ended"]');

  // ---- between two accounts through a lobby seek: posted on A, accepted on B
  step = 'lobby game';
  // from the page's "a seek in the lobby": the lobby's form has it picked
  await p.goto(`${A.base}/v/${SLUG}`);
  await Promise.all([p.waitForURL(/\/lobby\?variant=/), p.click('[data-play-links] a[href^="/lobby"]')]);
  await p.waitForSelector('body[data-ready="true"]');
  check((await p.inputValue('.tc-seek-form [name="variant"]')) === SLUG, 'the lobby link picks the page in the seek form');
  await p.selectOption('.tc-seek-form [name="clock"]', '10+5');
  await p.selectOption('.tc-seek-form [name="color"]', 'white');
  await p.check('.tc-seek-form [name="rated"]');
  await p.click('.tc-seek-form button[type="submit"]');
  await p.waitForSelector('tr[data-seek]', { timeout: 10000 });
  await b.goto(`${B.base}/lobby`);
  await b.waitForSelector('tr[data-seek] button[type="submit"]', { timeout: 10000 });
  check((await b.textContent('tr[data-seek]'))?.includes(TITLE), 'the seek, seen on server B, names the page by its title');
  if (!PG) {
    await b.goto(`${A.base}/lobby`);
    await b.waitForSelector('tr[data-seek] button[type="submit"]', { timeout: 10000 });
  }
  await Promise.all([b.waitForURL(/\/game\/[0-9a-f]{16}#token=/), b.click('tr[data-seek] button[type="submit"]')]);
  await p.waitForURL(/\/game\/[0-9a-f]{16}#token=/, { timeout: 15000 });
  for (const q of [p, b]) await q.waitForSelector('#tc-app[data-you] [data-cell="f10"]', { timeout: 30000 });
  const lobbyGame = p.url().split('/game/')[1].split('#')[0];
  check(b.url().includes(`/game/${lobbyGame}`), 'both players land in the same game');
  check((await attr(p, '#tc-app', 'data-you')) === 'white' && (await attr(b, '#tc-app', 'data-you')) === 'black', 'the seek\'s colours');
  await playSome(p, WHITE);
  await waitPlies(b, 1, 20000);
  await playSome(b, BLACK);
  await waitPlies(p, 2, 20000);
  await playSome(p, WHITE);
  await waitPlies(b, 3, 20000);
  check((await plies(b)) === 3 && (await plies(p)) === 3, 'the moves reached the other side');
  await shots(p, '', 'lobby-game', 'body[data-ready="true"] #tc-app [data-ply]');
  await b.click('[data-action="resign"]');
  await b.click('[data-action="resign-confirm"]');
  for (const q of [p, b]) await q.waitForSelector('#tc-app[data-game-status="ended"]', { timeout: 10000 });
  check((await p.locator('[data-result]').textContent())?.includes('1-0'), 'White wins by resignation');
  // rated on the page's own rating: Ann's went up, Bob's down
  for (const [who, up] of [['ann', true], ['bob', false]]) {
    const ok = await eventually(async () => {
      const m = new RegExp(`${TITLE}</a></td><td class="tc-rating">(\\d+)`).exec(await text(`${B.base}/@/${who}`));
      return m && (up ? Number(m[1]) > 1500 : Number(m[1]) < 1500);
    });
    check(ok, `${who}'s ${TITLE} rating moved ${up ? 'up' : 'down'}`);
  }

  // ---- the page's own archive, on both processes
  step = 'archive';
  for (const [name, srv] of [['A', A], ['B', B]]) {
    const res = await fetch(`${srv.base}/games?variant=${SLUG}`);
    const html = await res.text();
    check(res.status === 200, `server ${name}: /games?variant=${SLUG} answers ${res.status}`);
    check(html.includes(`data-game="${engineGame}"`) && html.includes(`data-game="${lobbyGame}"`), `server ${name}: the archive lists the engine game and the lobby game`);
  }

  // ---- a second revision, and the diff between the two
  step = 'second revision';
  await e.goto(`${A.base}/v/${SLUG}/edit`);
  await e.waitForSelector('body[data-ready="true"] [data-preview-board] [data-cell="f10"]');
  await e.fill('[data-field="title"]', 'Six by Ten Moebius Strip');
  await e.click('[data-action="save"]');
  await e.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('save:'));
  check((await attr(e, '#tc-app', 'data-last')) === 'save:200', `second revision saved: ${await e.textContent('[data-msg]')}`);
  await e.waitForFunction(() => document.querySelector('[data-history]')?.getAttribute('data-count') === '2');
  await e.click('[data-history] summary');
  await e.click('[data-action="diff"]');
  await e.waitForSelector('[data-diff-view] pre.diff');
  const added = await e.locator('[data-diff-view] .add').allTextContents();
  check(added.some((t) => t.includes('Six by Ten Moebius Strip')), `the diff shows the new title: ${added}`);

  step = 'unpublish';
  // ---- unpublished: out of the home page and the lobby; finished games stay readable
  await e.click('[data-action="unpublish"]');
  await e.click('[data-ask] [data-confirm-yes]');
  await e.waitForFunction(() => /^unpublish:/.test(document.querySelector('#tc-app')?.getAttribute('data-last') ?? ''));
  const un = Number((await e.getAttribute('#tc-app', 'data-last')).split(':')[1]);
  check(await e.locator('[data-action="unpublish"]').isHidden(), 'unpublished: the button hides');
  need(un === 200, `unpublish: ${un}`);
  for (const [name, srv] of [['A', A], ['B', B]]) {
    check(await eventually(async () => !(await text(`${srv.base}/`)).includes(`data-slug="${SLUG}"`)), `server ${name}: unpublished, off the home page`);
    check(!(await text(`${srv.base}/lobby`)).includes(`<option value="${SLUG}"`), `server ${name}: unpublished, off the lobby's list`);
    check((await status(`${srv.base}/v/${SLUG}`)) === 404, `server ${name}: unpublished, /v/${SLUG} is gone`);
    for (const id of [engineGame, lobbyGame]) {
      check((await status(`${srv.base}/game/${id}`)) === 200, `server ${name}: the finished game ${id} still opens`);
      const pgn = await text(`${srv.base}/api/games/${id}/pgn`);
      check(/\[Result "[01]-[01]"\]/.test(pgn) && /\[FEN "/.test(pgn), `server ${name}: the finished game's PGN: ${pgn.slice(0, 200)}`);
    }
    const made = await fetch(`${srv.base}/api/games`, { method: 'POST', body: JSON.stringify({ variant: SLUG, engine: 'black', level: 1 }) });
    check(made.status === 404 && (await made.text()).includes(`no variant '${SLUG}'`), `server ${name}: no new hosted game on the unpublished page (${made.status})`);
    const arch = await fetch(`${srv.base}/games?variant=${SLUG}`);
    check(arch.status === 200 && (await arch.text()).includes(`data-game="${lobbyGame}"`), `server ${name}: the archive still lists its games`);
  }
  await p.goto(`${A.base}/game/${lobbyGame}`);
  await p.waitForSelector('body[data-ready="true"] #tc-app[data-game-status="ended"] [data-cell="f10"]', { timeout: 30000 });
  check((await plies(p)) === 3, 'the finished game replays its moves after unpublishing');
  check(pageErrors.length === 0, `no errors in the pages: ${pageErrors.join('; ')}`);
  // a seek on the unpublished page is refused with a reason (the browser
  // logs the 400 to the console: expected here)
  await p.goto(`${A.base}/lobby`);
  const seek = await p.evaluate(async (slug) => {
    const form = document.querySelector('.tc-seek-form');
    const fd = new FormData(form);
    fd.set('variant', slug);
    const r = await fetch(form.getAttribute('action') ?? '/lobby/seek', { method: 'POST', body: new URLSearchParams(fd), credentials: 'same-origin' });
    return { status: r.status, text: await r.text() };
  }, SLUG);
  check(seek.status === 400 && new RegExp(`no variant (&#39;|')${SLUG}`).test(seek.text), `a seek on the unpublished page: ${seek.status} ${seek.text.replace(/[^]*<main[^>]*>/, '').slice(0, 300)}`);
} catch (err) {
  failed++;
  console.log(`FAIL: ${step}: ${err instanceof Error ? err.message : err}`);
  for (const [i, q] of opened.entries()) await q.screenshot({ path: join(SHOTS, `failed-${i}.png`) }).catch(() => {});
} finally {
  await browser.close();
  for (const s of servers) {
    if (s.proc.exitCode === null) {
      const gone = new Promise((r) => s.proc.once('exit', r));
      s.proc.kill();
      await gone; // a sanitizer's report comes at exit
    }
    if (s.stderr.match(/Sanitizer|runtime error/)) {
      failed++;
      console.log(`FAIL: server: ${s.stderr}`);
    }
  }
  // the scratch folder goes, unless it holds the screenshots of a failed run
  if (failed || process.env.TC_E2E_SHOTS) console.log(`publish-play-e2e: screenshots in ${SHOTS}`);
  console.log(`publish-play-e2e: ${passed} passed, ${failed} failed`);
  if (!PG) rmSync(DB, { force: true });
  if (!failed || process.env.TC_E2E_SHOTS) rmSync(scratch, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}
