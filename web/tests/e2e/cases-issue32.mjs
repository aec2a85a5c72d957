// End-to-end cases of issue 32: the computer review of a finished hosted
// game, searched in the browser's engine worker and judged by the library
// when the server does not take it (a visitor neither signed in nor with a
// player's link), and the server's analysis asked for by a player, shown
// with the better move as an arrow, then shown to another visitor without
// asking (registered in order; run.mjs runs them). Screenshots at
// 1366x768 and 390x844 (TC_E2E_DOCS=1: docs/review-*.jpg, docs/analysis-*.jpg).
import { readFileSync, writeFileSync } from 'node:fs';
import { ARGS, BIN, DOCS, PAGES, SHOTS, assert, base, chromium, execFileSync, join, openContextPage, openPage, scratch, signUp, startServer, test, top } from './harness.mjs';

/** The scholar's mate, played through the API of the server at b: the create answer. */
async function scholarsMate(b = base) {
  const r = await fetch(`${b}/api/games`, { method: 'POST', body: JSON.stringify({ variant: 'chess' }) });
  assert(r.status === 201, `create: ${r.status}`);
  const g = await r.json();
  const moves = ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#'];
  for (let i = 0; i < moves.length; i++) {
    const side = i % 2 ? g.black : g.white;
    const m = await fetch(`${b}/api/games/${g.id}/move`, { method: 'POST', body: JSON.stringify({ token: side.token, move: moves[i] }) });
    assert(m.status === 200, `move ${moves[i]}: ${m.status}`);
  }
  return g;
}

for (const [w, h] of [[1366, 768], [390, 844]]) {
  test(`review (${w}x${h}): a finished game's computer review marks the blunder and goes to it`, async () => {
    const g = await scholarsMate();
    const { page, errors } = await openPage(`${base}${g.url}`, { width: w, height: h });
    const button = page.locator('[data-review-box] [data-action="review"]');
    assert(await button.isVisible(), 'no review button on an ended game');
    await button.click();
    await page.waitForSelector('[data-review]', { timeout: 120000 });
    // a watcher without a session: the server refuses (401), the browser reviews and says so
    assert(await page.getAttribute('[data-review]', 'data-review-by') === 'browser', 'not reviewed in the browser');
    const by = await page.locator('[data-review] .tc-review-note').textContent();
    assert(/^Analysed in your browser at 50,000 nodes a position\./.test(by ?? ''), `the note: ${by}`);
    assert(/not signed in for the server's analysis: analysed in your browser/.test(await page.locator('[data-review-state]').textContent() ?? ''),
      `the state line: ${await page.locator('[data-review-state]').textContent()}`);
    const sides = await page.locator('.tc-review-sides li').allTextContents();
    assert(/^White: accuracy \d+%, 0 inaccuracies, 0 mistakes, 0 blunders$/.test(sides[0] ?? ''), `white: ${sides[0]}`);
    assert(/^Black: accuracy \d+%, \d+ inaccurac(y|ies), \d+ mistakes?, 1 blunder$/.test(sides[1] ?? ''), `black: ${sides[1]}`);
    assert(await page.locator('.tc-review-graph circle[data-ply]').count() === 7, 'the graph has not a point a move');
    const blunder = page.locator('.tc-review-marks button.tc-mark-blunder');
    assert(await blunder.count() === 1 && (await blunder.textContent()) === '3... Nf6??', `the blunder: ${await blunder.allTextContents()}`);
    const said = await page.locator('.tc-review-marks li').last().textContent();
    assert(/Blunder \([+-]\d+\.\d\d → #1\)\. \S+ was best\./.test(said ?? ''), `the blunder's line: ${said}`);
    // the PGN with the review: [%eval] after each move, read back by the project's reader
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-review-pgn]')]);
    const text = readFileSync(await dl.path(), 'utf8');
    assert(/3\.\.\. Nf6\?\? \{ \[%eval #1\]/.test(text.replace(/\s+/g, ' ')), `the review's PGN: ${text}`);
    assert((text.match(/\[%eval /g) ?? []).length === 6, `an [%eval] a move but after the mate: ${text}`);
    const file = join(scratch, `review-${w}.pgn`);
    writeFileSync(file, text);
    const back = execFileSync(BIN, ['pgn', file], { encoding: 'utf8' });
    assert(/game 1: 4 moves, result 1-0, ok/.test(back), `topochess pgn says: ${back}`);
    await blunder.click();
    const current = await page.locator('#tc-app .tc-moves .current').getAttribute('data-ply');
    assert(current === '6', `the move list shows ply ${current} after the click, not 6`);
    await page.locator('[data-review]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `review-${w}.png`) });
    if (DOCS) await page.screenshot({ path: join(top, 'docs', `review-${w}.jpg`), type: 'jpeg', quality: 60 });
    assert(!errors.length, errors.join('; '));
    await page.close();
  });
}

for (const [w, h] of [[1366, 768], [390, 844]]) {
  test(`analysis (${w}x${h}): a player asks the server; the better move as an arrow; a watcher sees the stored analysis`, async () => {
    const g = await scholarsMate();
    const { page, errors } = await openPage(`${base}${g.white.url}`, { width: w, height: h });
    const button = page.locator('[data-review-box] [data-action="review"]');
    assert((await button.textContent()) === 'Request computer analysis', `the button: ${await button.textContent()}`);
    await button.click();
    await page.waitForSelector('[data-review][data-review-by="server"]', { timeout: 120000 });
    const by = await page.locator('[data-review] .tc-review-note').textContent();
    assert(/^Analysed by the server at 100,000 nodes a position\./.test(by ?? ''), `the note: ${by}`);
    const stored = await (await fetch(`${base}/api/games/${g.id}/analysis`)).json();
    assert(stored.state === 'done' && stored.analysis.review.moves.length === 7, `the stored analysis: ${JSON.stringify(stored).slice(0, 200)}`);
    const blunder = page.locator('.tc-review-marks button.tc-mark-blunder');
    assert(await blunder.count() === 1 && (await blunder.textContent()) === '3... Nf6??', `the blunder: ${await blunder.allTextContents()}`);
    const said = await page.locator('.tc-review-marks li').last().textContent();
    const best = stored.analysis.review.moves[5].best;
    assert(said.includes(`${best} was best.`), `the blunder's line names ${best}: ${said}`);
    // the better move drawn as an arrow from the position before the blunder, along the library's path
    await blunder.click();
    const arrow = page.locator('#tc-app .line-best[data-best-path]');
    await arrow.waitFor({ timeout: 5000 });
    const path = (await arrow.getAttribute('data-best-path')).split(' ');
    const uci = stored.analysis.values[5].best;
    assert(path[0] === uci.slice(0, 2) && path[path.length - 1] === uci.slice(2, 4), `the arrow ${path} is not ${uci}`);
    assert(await page.locator('#tc-app .line-best path[marker-end]').count() === 1, 'the arrow has no head');
    await page.locator('#tc-app .tc-board').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `analysis-arrow-${w}.png`) });
    if (DOCS) await page.screenshot({ path: join(top, 'docs', `analysis-arrow-${w}.jpg`), type: 'jpeg', quality: 60 });
    // another ply: no arrow
    await page.locator('#tc-app .tc-moves [data-ply="2"]').click();
    assert(await page.locator('#tc-app .line-best').count() === 0, 'an arrow on an unmarked move');
    await blunder.click();
    // the server's PGN carries the evaluations
    const href = await page.getAttribute('[data-review-pgn]', 'href');
    assert(href === `/api/games/${g.id}/pgn`, `the PGN link: ${href}`);
    const text = await (await fetch(`${base}${href}`)).text();
    assert((text.match(/\[%eval /g) ?? []).length === 6 && /Nf6\?\?/.test(text), `the server's PGN: ${text}`);
    const file = join(scratch, `analysis-${w}.pgn`);
    writeFileSync(file, text);
    const back = execFileSync(BIN, ['pgn', file], { encoding: 'utf8' });
    assert(/game 1: 4 moves, result 1-0, ok/.test(back), `topochess pgn says: ${back}`);
    await page.locator('[data-review]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `analysis-${w}.png`) });
    if (DOCS) await page.screenshot({ path: join(top, 'docs', `analysis-${w}.jpg`), type: 'jpeg', quality: 60 });
    // a watcher (no token, no session) sees the stored analysis without asking
    const watcher = await openPage(`${base}/game/${g.id}`, { width: w, height: h });
    await watcher.page.waitForSelector('[data-review][data-review-by="server"]', { timeout: 10000 });
    assert(!(await watcher.page.locator('[data-review-box] [data-action="review"]').isVisible()), 'the watcher is asked to request it again');
    assert(!errors.length && !watcher.errors.length, [...errors, ...watcher.errors].join('; '));
    await watcher.page.close();
    await page.close();
  });
}

test('analysis: a signed-in account that plays neither side asks the server (its session and CSRF token)', async () => {
  const g = await scholarsMate();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  try {
    const { page, errors } = await openContextPage(browser, 1366, 768);
    await signUp(page, base, 'Analyst');
    await page.goto(`${base}/game/${g.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('[data-review-box] [data-action="review"]');
    await page.waitForSelector('[data-review][data-review-by="server"]', { timeout: 120000 });
    const stored = await (await fetch(`${base}/api/games/${g.id}/analysis`)).json();
    assert(stored.state === 'done', `the stored state: ${stored.state}`);
    assert(!errors.length, errors.join('; '));
  } finally {
    await browser.close().catch(() => {});
  }
});

test('analysis: the server\'s analysis switched off (serve --analysis-threads 0): a player\'s request is reviewed in the browser, and the page says so', async () => {
  const srv = await startServer(PAGES, { args: ['--analysis-threads', '0'] });
  try {
    const g = await scholarsMate(srv.base);
    const { page, errors } = await openPage(`${srv.base}${g.white.url}`, { width: 1366, height: 768 });
    await page.click('[data-review-box] [data-action="review"]');
    await page.waitForSelector('[data-review][data-review-by="browser"]', { timeout: 120000 });
    const line = await page.locator('[data-review-state]').textContent();
    assert(/^the server's analysis is off here: analysed in your browser in [\d.]+ s$/.test(line ?? ''), `the state line: ${line}`);
    const stored = await (await fetch(`${srv.base}/api/games/${g.id}/analysis`)).json();
    assert(stored.state === 'none' && stored.server.threads === 0, `the server stored something: ${JSON.stringify(stored)}`);
    assert(!errors.length, errors.join('; '));
    await page.close();
  } finally {
    srv.proc.kill();
  }
});
