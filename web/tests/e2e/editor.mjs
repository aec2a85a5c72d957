// The variant page editor end to end, in Debian's Chromium against a real
// `topochess serve` on a fresh database: an account writes a 6x10 Moebius
// strip (seam 9) at /new and sees the preview board follow the typing, then
// submits; `topochess admin editor` makes a second account an editor, who
// publishes it from /v/SLUG/edit; the page is then on the home page and
// /play?variant=SLUG loads it. Screenshots of the editor at 1366x768 and
// 390x844 go to TC_E2E_SHOTS (default a scratch dir). Run from web/ after
// `make topochess web`:  node tests/e2e/editor.mjs   ("N passed, N failed")
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ARGS, freePort } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '../..');
const BIN = resolve(web, process.env.TC_BIN ?? '../topochess');
const SHIPPED = resolve(web, process.env.TC_PAGES ?? '../variants');
const DIST = resolve(web, 'dist');
const scratch = mkdtempSync(join(tmpdir(), 'tc-e2e-editor-'));
const SHOTS = process.env.TC_E2E_SHOTS ? resolve(process.env.TC_E2E_SHOTS) : join(scratch, 'shots');
mkdirSync(SHOTS, { recursive: true });
const DB = join(scratch, 'pages.db');
// a copy of the pages folder: a page is added to it later (shown from the folder)
const PAGES = join(scratch, 'pages');
cpSync(SHIPPED, PAGES, { recursive: true });

let passed = 0;
let failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else {
    failed++;
    console.log(`FAIL: ${what}`);
  }
}


const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const proc = spawn(BIN, ['serve', '--port', String(port), '--pages', PAGES, '--static', DIST, '--db', DB], { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
proc.stderr.on('data', (d) => (stderr += d));
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`${base}/`)).ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 50));
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
const slug = `strip-${process.pid}`;
const SETUP = 'PPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR';

async function signUp(name) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${base}/signup`);
  await page.fill('input[name="name"]', name);
  await page.fill('input[name="password"]', 'klein bottle');
  await page.fill('input[name="password2"]', 'klein bottle');
  await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"], form input[type="submit"]')]);
  return { ctx, page };
}

try {
  const ann = await signUp('ann');
  const p = ann.page;
  // import: a whole page pasted fills the form, the text and the preview
  await p.goto(`${base}/new`);
  await p.waitForSelector('body[data-ready="true"] [data-preview-board] [data-cell]');
  await p.click('.tc-ed-import summary');
  await p.fill('[data-paste]', `---\ntitle: "Pasted"\nslug: pasted-one\nengine:\n  topology:\n    type: grid\n    rows: 10\n    cols: 6\n    wrap: mobius\n    seam: 9\n  setup: "${SETUP}"\n---\n\n## Pasted\n\nBody text.\n`);
  await p.click('[data-action="import-paste"]');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-preview') === '6x10');
  check((await p.inputValue('[data-field="slug"]')) === 'pasted-one' && (await p.inputValue('[data-field="seam"]')) === '9', 'the pasted page fills the form');
  check((await p.inputValue('[data-body]')).startsWith('## Pasted'), 'the pasted body is the Markdown body');
  // keys the form lacks stay, in their order, through form edits
  const KEPT = `---\n# kept: a comment\ntitle: "Kept"\nauthor: Ann Example\nslug: kept-one\nengine:\n  players: [white, black]\n  topology: {type: grid, rows: 10, cols: 6, wrap: mobius, seam: 9}\n  setup: "${SETUP}"\n  notation: algebraic\nlicence: CC-BY\n---\n`;
  await p.fill('[data-paste]', `${KEPT}\n## Kept\n`);
  await p.click('[data-action="import-paste"]');
  await p.waitForFunction(() => document.querySelector('[data-field="slug"]')?.value === 'kept-one');
  await p.fill('[data-field="title"]', 'Kept Too');
  await p.fill('[data-field="ranks"]', '12');
  await p.fill('[data-field="setup"]', `PPPPPP/6/6/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR`);
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-preview') === '6x12');
  const kept = await p.inputValue('[data-raw]');
  const order = ['# kept: a comment', 'title: "Kept Too"', 'author: Ann Example', 'slug: kept-one', 'engine:', '  players: [white, black]',
    '  topology:', '    rows: 12', '    seam: 9', '  setup: "PPPPPP/6/6/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR"', '  notation: algebraic', 'licence: CC-BY'];
  const at = order.map((l) => kept.split('\n').indexOf(l));
  check(at.every((x, i) => x >= 0 && (i === 0 || x > at[i - 1])), `form edits keep the other keys in order: ${kept}`);
  await p.goto(`${base}/new`);
  await p.waitForSelector('body[data-ready="true"] [data-preview-board] [data-cell]');
  check((await p.locator('[data-preview-board] [data-cell]').count()) === 64, 'the starter board is 8x8');
  await p.fill('[data-field="title"]', 'Six by Ten Strip');
  await p.fill('[data-field="slug"]', slug);
  await p.fill('[data-field="description"]', 'A 6x10 Moebius strip: ranks 9 and 10 joined with a half-twist');
  // typing the width first: the 8-wide setup no longer fits, and the preview says so
  await p.fill('[data-field="files"]', '6');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-preview') === 'error');
  const problem = await p.textContent('[data-problems]');
  check(/^setup: .*\(line 1[0-9]\)$/.test(problem ?? ''), `the preview names the setup and its line: ${problem}`);
  await p.fill('[data-field="setup"]', SETUP);
  await p.fill('[data-field="ranks"]', '10');
  await p.selectOption('[data-field="rank-rule"]', 'twist');
  await p.selectOption('[data-field="file-rule"]', 'open');
  await p.fill('[data-field="seam"]', '9');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-preview') === '6x10');
  check((await p.locator('[data-preview-board] [data-cell]').count()) === 60, 'the preview board is 6x10');
  check((await p.locator('[data-preview-board] [data-cell="f10"]').count()) === 1, 'the preview has f10');
  // a refusal from the server names the field, and the editor adds its line
  await p.fill('[data-field="slug"]', 'klein');
  await p.click('[data-action="save"]');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('save:'));
  const refusal = await p.textContent('[data-msg]');
  check((await p.getAttribute('#tc-app', 'data-last')) === 'save:refused' && /^slug: .*reserved.*\(line 3\)$/.test(refusal ?? ''),
    `a reserved slug is refused naming the field and line: ${refusal}`);
  await p.fill('[data-field="slug"]', slug);
  check((await p.locator('[data-msg] .tc-error').count()) === 0, 'an edit takes the old refusal off the screen');
  const raw = await p.inputValue('[data-raw]');
  check(raw.includes('seam: 9') && raw.includes('ranks: twist') && raw.includes('cols: 6'), `the raw front matter follows the form: ${raw}`);
  const report = await p.textContent('[data-report]');
  check(/Orientable\s*no/.test(report ?? ''), `the report: a Moebius strip is not orientable: ${report}`);
  // the solved endings of the board being written: solved in a worker while
  // the page stays live, the same figures as the native solver
  await p.waitForSelector('[data-endings="done"][data-endings-board^="6x10"]', { timeout: 60000 });
  const fmFile = join(scratch, 'strip.md');
  writeFileSync(fmFile, raw);
  for (const e of ['KQK', 'KRK', 'KBK', 'KNK']) {
    const ref = JSON.parse(execFileSync(BIN, ['endgame', e, '--variant-file', fmFile, '--json'], { encoding: 'utf8' }));
    const mates = await p.getAttribute(`[data-ending="${e}"] [data-mates]`, 'data-mates');
    const longest = await p.getAttribute(`[data-ending="${e}"] [data-longest]`, 'data-longest');
    check(mates === String(ref.mate_possible) && Number(longest) === (ref.longest_mate?.moves ?? 0),
      `${e} on the 6x10 strip: can mate ${mates}, longest ${longest} (native: ${ref.mate_possible}, ${ref.longest_mate?.moves})`);
  }
  // `topochess dead` prints a Markdown column: dead, partly (D of N), not
  const deadRows = execFileSync(BIN, ['dead', '--variant-file', fmFile], { encoding: 'utf8' }).trim().split('\n').slice(2);
  const deadCells = new Map(deadRows.map((r) => r.split('|').map((c) => c.trim())).map((c) => [c[1], c[2]]));
  for (const e of ['KQK', 'KRK', 'KBK', 'KNK']) {
    const d = await p.getAttribute(`[data-ending="${e}"] [data-dead]`, 'data-dead');
    check(d === deadCells.get(e), `${e} dead on the strip: ${d} (native: ${deadCells.get(e)})`);
  }
  // the 4-piece endings on request, with progress; typing goes on meanwhile
  await p.click('[data-action="endings-4"]');
  await p.waitForFunction(() => /plies done/.test(document.querySelector('[data-endings-status]')?.textContent ?? ''));
  const solving = await p.getAttribute('[data-endings]', 'data-endings');
  const bar = await p.evaluate(() => { const b = document.querySelector('[data-endings-progress]'); return [b.value, b.max]; });
  check(solving === 'solving' && bar[0] < bar[1] && bar[1] === 6, `the 4-piece solve shows its progress: ${solving} ${bar}`);
  const t0 = Date.now();
  await p.type('[data-field="description"]', ' (typed meanwhile)');
  const typedMs = Date.now() - t0;
  const rawNow = await p.inputValue('[data-raw]');
  check(rawNow.includes('(typed meanwhile)') && (await p.getAttribute('[data-endings]', 'data-endings')) === 'solving',
    `typing while the endings are solved: the front matter follows (${typedMs} ms for 18 keys)`);
  await p.evaluate(() => document.querySelector('[data-endings]').scrollIntoView());
  await p.screenshot({ path: join(SHOTS, 'editor-endings-solving.png') });
  // a change of the board cancels the solve and starts the 3-piece ones again
  await p.fill('[data-field="seam"]', '8');
  await p.waitForSelector('[data-endings-board^="6x10"][data-endings-board$="twist 8"]');
  check((await p.locator('[data-endings-table] tbody tr').count()) === 4, 'a new board drops the 4-piece rows');
  await p.waitForSelector('[data-endings="done"][data-endings-board$="twist 8"]', { timeout: 60000 });
  await p.fill('[data-field="seam"]', '9');
  await p.fill('[data-field="description"]', 'A 6x10 Moebius strip: ranks 9 and 10 joined with a half-twist');
  await p.waitForSelector('[data-endings="done"][data-endings-board$="twist 9"]', { timeout: 60000 });
  await p.click('[data-action="endings-4"]');
  await p.waitForSelector('[data-endings="done"] [data-ending="KRKN"] [data-mates]', { timeout: 180000 });
  for (const e of ['KBBK', 'KBNK', 'KNNK', 'KQKR', 'KRKB', 'KRKN']) {
    const d = await p.getAttribute(`[data-ending="${e}"] [data-dead]`, 'data-dead');
    check(d === deadCells.get(e), `${e} dead on the strip: ${d} (native: ${deadCells.get(e)})`);
  }
  await p.evaluate(() => document.querySelector('[data-endings]').scrollIntoView());
  await p.screenshot({ path: join(SHOTS, 'editor-endings-1366x768.png') });
  await p.setViewportSize({ width: 390, height: 844 });
  await p.evaluate(() => document.querySelector('[data-endings]').scrollIntoView());
  await p.screenshot({ path: join(SHOTS, 'editor-endings-390x844.png') });
  await p.setViewportSize({ width: 1366, height: 768 });
  console.log(`editor-e2e: typing 18 keys during a 4-piece solve took ${typedMs} ms; ${await p.textContent('[data-endings-status]')}`);
  // the raw text drives the form too
  await p.fill('[data-raw]', raw.replace('seam: 9', 'seam: 8'));
  await p.waitForFunction(() => (document.querySelector('[data-field="seam"]'))?.value === '8');
  await p.fill('[data-raw]', raw);
  await p.waitForFunction(() => (document.querySelector('[data-field="seam"]'))?.value === '9');
  await p.fill('[data-body]', '## Six by Ten Strip\n\nThe Moebius strip on a small board.\n');
  await p.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); document.querySelector('.tc-ed-preview').scrollTop = 0; });
  await p.screenshot({ path: join(SHOTS, 'editor-1366x768.png') });
  await p.setViewportSize({ width: 390, height: 844 });
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({ path: join(SHOTS, 'editor-390x844.png'), fullPage: false });
  await p.setViewportSize({ width: 1366, height: 768 });
  await p.click('[data-action="submit"]');
  await p.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('submit:'));
  check((await p.getAttribute('#tc-app', 'data-last')) === 'submit:200', `submitted: ${await p.textContent('[data-msg]')}`);
  check((await p.locator('[data-action="publish"]').count()) === 0, 'an author has no publish button');
  check((await fetch(`${base}/v/${slug}`)).status === 404, 'not published before an editor acts');

  const ed = await signUp('eda');
  execFileSync(BIN, ['admin', 'editor', 'eda', '--db', DB]);
  const e = ed.page;
  // the editor finds the submitted page in the review list of /new
  await e.goto(`${base}/new`);
  await e.waitForSelector(`[data-review] a[href="/v/${slug}/edit"]`);
  await Promise.all([e.waitForNavigation(), e.click(`[data-review] a[href="/v/${slug}/edit"]`)]);
  await e.waitForSelector('body[data-ready="true"] [data-preview-board] [data-cell="f10"]');
  check((await e.inputValue('[data-field="seam"]')) === '9', 'the editor sees the submitted page');
  await e.click('[data-action="publish"]');
  await e.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('publish:'));
  check((await e.getAttribute('#tc-app', 'data-last')) === 'publish:200', `published: ${await e.textContent('[data-msg]')}`);

  const revsBefore = Number(await e.getAttribute('[data-history]', 'data-count'));
  check(revsBefore === 1, `publishing an unchanged page adds no revision (${revsBefore})`);
  // a second revision, and the diff between the two
  await e.fill('[data-field="title"]', 'Six by Ten Moebius Strip');
  await e.click('[data-action="save"]');
  await e.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('save:'));
  check((await e.getAttribute('#tc-app', 'data-last')) === 'save:200', `second revision saved: ${await e.textContent('[data-msg]')}`);
  await e.waitForFunction(() => document.querySelector('[data-history]')?.getAttribute('data-count') === '2');
  await e.click('[data-history] summary');
  await e.click('[data-action="diff"]');
  await e.waitForSelector('[data-diff-view][data-shown="1-2"] pre.diff');
  const added = await e.locator('[data-diff-view] .add').allTextContents();
  const removed = await e.locator('[data-diff-view] .del').allTextContents();
  check(added.some((t) => t.includes('title: "Six by Ten Moebius Strip"')), `the diff adds the new title: ${added}`);
  check(removed.some((t) => t.includes('title: "Six by Ten Strip"')), `the diff removes the old title: ${removed}`);
  await e.screenshot({ path: join(SHOTS, 'editor-diff.png'), fullPage: true });

  await e.goto(`${base}/`);
  check((await e.locator(`[data-slug="${slug}"]`).count()) >= 1, 'on the home page');

  // a page added to the folder later (not in the database), with an author
  // in its front matter: a Klein bottle of the strip's size, one join apart
  writeFileSync(join(PAGES, 'klein-six.md'), `---\ntitle: "Six by Ten Klein"\nslug: klein-six\nauthor: "Jorge Monteiro"\ndescription: "The strip with its files joined too"\nengine:\n  topology: {type: grid, rows: 10, cols: 6, wrap: klein-bottle, seam: 9}\n  setup: "${SETUP}"\n---\n\n## Six by Ten Klein\n\nThe strip's files are joined as well.\n`);
  proc.kill('SIGHUP');
  for (let i = 0; i < 100 && (await fetch(`${base}/v/klein-six`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  // the home page filters by author: the account of a stored page, the front matter's author of a folder page
  await e.goto(`${base}/`);
  const authors = await e.locator('select[name="author"] option').allTextContents();
  check(authors.includes('ann') && authors.includes('Jorge Monteiro'), `the author filter offers ann and Jorge Monteiro: ${authors}`);
  await e.selectOption('select[name="author"]', 'ann');
  await Promise.all([e.waitForNavigation(), e.click('.tc-filter button[type="submit"]')]);
  const byAnn = await e.locator('.tc-hub [data-slug]').evaluateAll((els) => els.map((x) => x.getAttribute('data-slug')));
  check(byAnn.length === 1 && byAnn[0] === slug && e.url().includes('author=ann'), `?author=ann lists ann's page only: ${byAnn}`);
  await e.goto(`${base}/?author=${encodeURIComponent('Jorge Monteiro')}&size=6x10`);
  const byJorge = await e.locator('.tc-hub [data-slug]').evaluateAll((els) => els.map((x) => x.getAttribute('data-slug')));
  check(byJorge.length === 1 && byJorge[0] === 'klein-six', `author and size together: ${byJorge}`);
  check((await e.textContent('.tc-hub [data-slug="klein-six"] .tc-entry-author')) === 'by Jorge Monteiro', 'the entry names its author');
  await e.goto(`${base}/?author=nobody`);
  check((await e.locator('.tc-hub [data-slug]').count()) === 0 && (await e.locator('.tc-none').count()) === 1, 'an unknown author: no entry, a way back');
  // relatives: same size, one join changed, both ways
  await e.goto(`${base}/v/${slug}`);
  check((await e.locator('.tc-relatives a[href="/v/klein-six"]').count()) === 1, 'the strip lists the 6x10 Klein bottle as a relative');
  await e.goto(`${base}/v/klein-six`);
  check((await e.locator(`.tc-relatives a[href="/v/${slug}"]`).count()) === 1, 'the 6x10 Klein bottle lists the strip');

  // "make a variant of this": from a stored page, a shipped (seeded) page and a folder page
  for (const [from, cols, rows, seam, keep] of [[slug, '6', '10', '9', 'Moebius strip on a small board'],
    ['klein-bottle', '8', '14', '11', 'notation: algebraic'], ['klein-six', '6', '10', '9', 'author: "Jorge Monteiro"']]) {
    await e.goto(`${base}/v/${from}`);
    await Promise.all([e.waitForNavigation(), e.click('.tc-relatives a.tc-variant-of')]);
    await e.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-preview')?.includes('x'));
    const got = [await e.inputValue('[data-field="files"]'), await e.inputValue('[data-field="ranks"]'), await e.inputValue('[data-field="seam"]')];
    const whole = (await e.inputValue('[data-raw]')) + (await e.inputValue('[data-body]'));
    check(got.join() === [cols, rows, seam].join() && (await e.inputValue('[data-field="slug"]')) === `${from}-variant` &&
      (await e.inputValue('[data-field="title"]')).endsWith('(variant)') && whole.includes(keep),
      `/new?from=${from} starts from that page: ${got} ${await e.inputValue('[data-field="slug"]')}`);
  }
  // saved, the variant is a page of its own; the original is untouched
  await e.fill('[data-field="seam"]', '8');
  await e.click('[data-action="save"]');
  await e.waitForFunction(() => document.querySelector('#tc-app')?.getAttribute('data-last')?.startsWith('save:'));
  check((await e.getAttribute('#tc-app', 'data-last')) === 'save:200' && e.url().endsWith('/v/klein-six-variant/edit'), `the variant saved: ${await e.textContent('[data-msg]')}`);
  const nope = await e.goto(`${base}/new?from=no-such-page`);
  check(nope.status() === 404 && /no published page/i.test(await e.textContent('#tc-app')), 'a variant of a page that is not there: refused with the reason');
  const bad = await e.goto(`${base}/new?from=%3Cscript%3E`);
  check(bad.status() === 400 && /from:/.test(await e.textContent('#tc-app')), 'a bad from= names the field');
  await e.goto(`${base}/play?variant=${slug}`);
  await e.waitForSelector('body[data-ready="true"] #tc-app [data-cell="f10"]');
  check((await e.locator('#tc-app [data-cell]').first().isVisible()), '/play?variant= loads it');
  await e.screenshot({ path: join(SHOTS, 'editor-published-play.png') });
} catch (err) {
  failed++;
  console.log(`FAIL: ${err instanceof Error ? err.message : err}`);
} finally {
  await browser.close();
  if (proc.exitCode === null) {
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill();
    await gone; // a sanitizer's report comes at exit
  }
  if (stderr.match(/Sanitizer|runtime error/)) {
    failed++;
    console.log(`FAIL: server: ${stderr}`);
  }
  // the scratch folder goes, unless it holds the screenshots of a failed run
  if (failed || process.env.TC_E2E_SHOTS) console.log(`editor-e2e: screenshots in ${SHOTS}`);
  console.log(`editor-e2e: ${passed} passed, ${failed} failed`);
  rmSync(PAGES, { recursive: true, force: true });
  if (!process.env.TC_E2E_SHOTS) rmSync(join(scratch, 'pages.db'), { force: true });
  if (!failed || process.env.TC_E2E_SHOTS) rmSync(scratch, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}
