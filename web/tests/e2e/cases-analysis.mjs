// End-to-end cases: analysis, endings, animation, premove, sounds, keyboard, phones, custom pages (registered in order; run.mjs runs them).
import {
  spawn, execFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, createServer, cpus, loadavg, tmpdir, dirname, join, resolve, fileURLToPath, gzipSync, chromium, ARGS, BIN, Check, DIST, DOCS, MEASURE, MOBIUS_CLICKS, MOBIUS_SAMPLE, ONLY, PAGES, PRESETS, SHOTS, assert, base, cli, clickCell, context, customBase, fenOf, freePort, here, nservers, open3d, openPage, playClicks, plies, scratch, someMove, startServer, test, tests, top, userData, web,
} from './harness.mjs';

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

test('analysis: evaluation bar with side, MultiPV lines with depth and nodes, a line played by clicking it', async () => {
  // White a rook up (pawns on the board: searched, not read from the
  // solved endings): the bar leans to White and says so
  const fen = encodeURIComponent('r3k3/pp6/8/8/8/8/PP6/R3K2R b - - 0 1');
  const { page, errors } = await openPage(`${base}/analysis?variant=cylinder&fen=${fen}`);
  await page.selectOption('[data-multipv]', '3');
  // the lines change while the engine searches (a line of the previous
  // depth waits for its own update): read them in one go, in the same
  // frame as the count
  const seen = await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-lines] li[data-uci]')];
    return rows.length === 3 ? rows.map((e) => e.getAttribute('data-uci').split(' ')[0]) : null;
  }, null, { timeout: 60000 });
  const firsts = await seen.jsonValue();
  assert(new Set(firsts).size === 3, `three lines, three first moves: ${firsts}`);
  assert((await page.getAttribute('[data-evalbar]', 'data-side')) === 'white', 'a rook up: the bar does not lean to White');
  assert(/White better/.test(await page.textContent('[data-eval-side]')), 'the bar does not name the side');
  assert(/depth \d+, [\d,]+ nodes/.test(await page.textContent('[data-depth]')), 'no depth and nodes');
  // the best move is drawn on the board along its path (the engine
  // stopped first, so that the lines hold still)
  await page.uncheck('[data-analyse]');
  await page.waitForTimeout(300);
  const best = (await page.locator('[data-lines] li[data-uci]').first().getAttribute('data-uci')).split(' ')[0];
  const drawn = await page.getAttribute('#tc-app .tc-board', 'data-best');
  const [, from, to] = /^([a-p]\d+)([a-p]\d+)/.exec(best);
  assert(drawn && drawn.startsWith(`${from} `) && drawn.endsWith(` ${to}`), `best move ${best} drawn as ${drawn}`);
  assert((await page.locator('#tc-app .line-explore').count()) === 1, 'no best-move line on the board');
  const second = await page.locator('[data-lines] li[data-uci]').nth(1).getAttribute('data-uci');
  await page.locator('[data-lines] li[data-uci]').nth(1).click();
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length > 0);
  const n = await plies(page);
  const want = second.split(' ').slice(0, 8);
  assert(n === want.length, `played ${n} plies of the line ${want.join(' ')}`);
  await page.screenshot({ path: join(SHOTS, 'analysis-multipv.png') });
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('analysis: the solved endings say K+Q v K cannot mate on the torus, and mate on the plain board', async () => {
  const torus = encodeURIComponent('k7/8/8/8/8/8/8/8/8/8/3Q4/8/8/4K3 w - - 0 1');
  const { page, errors } = await openPage(`${base}/analysis?variant=torus&fen=${torus}`);
  const fact = await page.textContent('[data-ending]');
  assert(/^K\+Q v K cannot mate on this board: dead position/.test(fact ?? ''), `torus: ${fact}`);
  await page.screenshot({ path: join(SHOTS, 'analysis-torus-kqk.png') });
  // let the board's net finish loading: a download cut by the test's own
  // navigation is not a fault of the page
  await page.waitForLoadState('networkidle');
  await page.goto(`${base}/analysis?variant=chess&fen=${encodeURIComponent('k7/8/8/8/3Q4/8/8/4K3 w - - 0 1')}`);
  await page.waitForSelector('body[data-ready="true"]');
  const chess = await page.textContent('[data-ending]');
  assert(/^K\+Q v K: White mates in \d+ moves? with best play/.test(chess ?? ''), `chess: ${chess}`);
  await page.waitForLoadState('networkidle');
  // a position with pawns is not a solved ending: no fact shown
  await page.goto(`${base}/analysis?variant=chess&fen=${encodeURIComponent('k7/p7/8/8/8/8/8/4K3 w - - 0 1')}`);
  await page.waitForSelector('body[data-ready="true"]');
  assert(await page.locator('[data-ending]').isHidden(), 'a fact shown for a position with a pawn');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('animation: a move travels its real path, over the join of the cylinder', async () => {
  const fen = encodeURIComponent('4k3/8/8/8/8/8/8/R3K3 w - - 0 1');
  const { page, errors } = await openPage(`${base}/play?variant=cylinder&fen=${fen}`);
  // Ra1-g1: the king blocks the way right, so the rook goes left over the join
  await playClicks(page, [['a1', 'g1']]);
  assert((await page.getAttribute('#tc-app .tc-board', 'data-animation')) === null, 'the user\'s own move was animated');
  await page.locator('#tc-app .tc-board').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  const path = await page.getAttribute('#tc-app .tc-board', 'data-animation');
  assert(path === 'a1 h1 g1', `animated along ${path}`);
  assert((await page.getAttribute('#tc-app .tc-board', 'data-animation-jumps')) === '1', 'no flight over the join');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('premove: a move tried while the engine thinks is played when the turn comes', async () => {
  // full strength thinks 1.5 s a move: time to premove
  const { page, errors } = await openPage(`${base}/play?variant=chess&engine=black&level=20`);
  await clickCell(page, 'e2');
  await clickCell(page, 'e4');
  await page.waitForSelector('#tc-app [data-thinking]:not([hidden])');
  await clickCell(page, 'd2');
  await clickCell(page, 'd4');
  assert(await page.evaluate(() => document.getElementById('tc-app').hasAttribute('data-premove')), 'no premove kept');
  assert((await page.locator('#tc-app .mark-premove').count()) === 2, 'the premove is not marked');
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length >= 3, null, { timeout: 30000 });
  // after 1. e4, no Black reply reaches d3 or d4: d2-d4 is legal whatever it is
  const third = await page.textContent('#tc-app [data-ply="3"]');
  assert(third === 'd4', `ply 3 is ${third}, not the premove d4`);
  assert(!(await page.evaluate(() => document.getElementById('tc-app').hasAttribute('data-premove'))), 'the premove stayed');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('sounds: off by default; when on, a move, a capture and a check each have theirs', async () => {
  const fen = encodeURIComponent('4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1');
  const { page, errors } = await openPage(`${base}/play?variant=chess&fen=${fen}`);
  await playClicks(page, [['a1', 'a2']]);
  assert((await page.getAttribute('body', 'data-last-sound')) === null, 'a sound while sounds are off');
  await page.click('#tc-app [data-action="sound"]');
  assert((await page.getAttribute('#tc-app [data-action="sound"]', 'aria-pressed')) === 'true', 'the sound button is not on');
  await playClicks(page, [['e8', 'f8']]);
  assert((await page.getAttribute('body', 'data-last-sound')) === 'move', 'no move sound');
  await playClicks(page, [['e4', 'd5']]);
  assert((await page.getAttribute('body', 'data-last-sound')) === 'capture', 'no capture sound');
  await playClicks(page, [['f8', 'e8'], ['a2', 'a8']]);
  assert((await page.getAttribute('body', 'data-last-sound')) === 'check', 'no check sound');
  await page.click('#tc-app [data-action="sound"]');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('keyboard move entry (SAN), the library naming a refused move; moves announced for screen readers', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=mobius`);
  await page.fill('#tc-app [data-move-input]', 'd12');
  await page.press('#tc-app [data-move-input]', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 1);
  assert((await fenOf(page)) === cli(['fen', '--variant', 'mobius', '--play', 'd12']), 'typed d12 is not the CLI\'s d12');
  assert((await page.textContent('#tc-app [data-announce]')) === 'White d12', 'the move was not announced');
  await page.fill('#tc-app [data-move-input]', 'Qd4');
  await page.press('#tc-app [data-move-input]', 'Enter');
  const why = await page.textContent('#tc-app [data-note]');
  assert((await plies(page)) === 1 && (why ?? '').length > 0, `a refused move: ${why}`);
  await page.fill('#tc-app [data-move-input]', 'e11');
  await page.press('#tc-app [data-move-input]', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('#tc-app [data-ply]').length === 2);
  assert((await page.textContent('#tc-app [data-announce]')) === 'Black e11', 'the reply was not announced');
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
    // a move keeps the page where it was (the move list scrolls, not the page)
    assert((await page.evaluate(() => window.scrollY)) === 0, 'a move scrolled the page away from the board');
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

// Issue 19: a seed page whose front matter and body lost their line breaks,
// served from a pages folder: it reads as the original did, at 1280 and on
// a 390 px phone, with "How this board works" under it.
test('flattened seed page: headings, diagram rows, how this board works, fits 390 px', async () => {
  for (const width of [1280, 390]) {
    const { page, errors } = await openPage(`${customBase}/v/klein-bottle-chess`, { width, height: 844 });
    const h3 = await page.locator('.tc-page h3').allTextContents();
    for (const h of ['Why 8×14, not 8×8', 'The Board and Starting Position', 'Rules', 'Attribution']) {
      assert(h3.includes(h), `heading ${h} missing: ${h3.join(' | ')}`);
    }
    const rows = (await page.locator('.tc-page pre').first().textContent()).split('\n').filter((l) => /^ ?\d{1,2}\|/.test(l));
    assert(rows.length === 14, `${rows.length} diagram rows`);
    assert((await page.locator('#how-this-board-works .tc-howto-board').count()) === 3, 'three joins drawn');
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(scroll <= width, `page is ${scroll} px wide at ${width}`);
    await page.screenshot({ path: join(SHOTS, `klein-seed-${width}.png`) });
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  }
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

// Issue 28: a hosted game on a custom board, downloaded as PGN, replays in
// the analysis page's import (the PGN's [Topology] carries the board).
test('analysis: a hosted custom-board game imported from its own PGN', async () => {
  const text = readFileSync(join(top, 'examples/rules/one-rook.md'), 'utf8');
  const g = await (await fetch(`${base}/api/games`, { method: 'POST', body: JSON.stringify({ page: text }) })).json();
  const post = (side, move) =>
    fetch(`${base}/api/games/${g.id}/move`, { method: 'POST', body: JSON.stringify({ token: g[side].token, move }) });
  assert((await post('white', 'O-O-O')).status === 200 && (await post('black', 'Kf8')).status === 200, 'the moves');
  const pgn = await (await fetch(`${base}/api/games/${g.id}/pgn`)).text();
  assert(pgn.includes('[Topology "{topology: {type: grid, rows: 8, cols: 11'), `no Topology tag: ${pgn}`);
  const want = (await (await fetch(`${base}/api/games/${g.id}`)).json()).fen;
  const { page, errors } = await openPage(`${base}/analysis?variant=chess`);
  await page.click('[data-pgn-import] summary');
  await page.fill('[data-pgn-in]', pgn);
  await page.click('[data-action="import-pgn"]');
  await page.waitForFunction(() => /Loaded on/.test(document.querySelector('[data-pgn-msg]')?.textContent ?? ''), null, { timeout: 20000 });
  const fen = await page.inputValue('[data-fen-out]');
  assert(fen === want, `the imported game ends on ${fen}, the server on ${want}`);
  assert((await plies(page)) === 2, 'two plies in the move list');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});
