// End-to-end cases: layout at laptop and phone sizes, the engine as an opponent, status, editor, URL names, compressed assets (registered in order; run.mjs runs them).
import {
  spawn, execFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, createServer, cpus, loadavg, tmpdir, dirname, join, resolve, fileURLToPath, gzipSync, chromium, ARGS, BIN, Check, DIST, DOCS, MEASURE, MOBIUS_CLICKS, MOBIUS_SAMPLE, ONLY, PAGES, PRESETS, SHOTS, assert, base, cli, clickCell, context, customBase, fenOf, freePort, here, nservers, open3d, openPage, playClicks, plies, scratch, someMove, startServer, test, tests, top, userData, web,
} from './harness.mjs';

const SCREENS = [[1366, 768], [1280, 720], [390, 844]];
async function insideViewport(page, selector, w, h, what) {
  const box = await page.locator(selector).first().boundingBox();
  assert(box, `${what}: ${selector} not shown`);
  const ok = box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= w + 0.5 && box.y + box.height <= h + 0.5;
  assert(ok, `${what}: ${selector} at ${Math.round(box.x)},${Math.round(box.y)} size ${Math.round(box.width)}x${Math.round(box.height)} leaves the ${w}x${h} viewport`);
  return box;
}
for (const [w, h] of SCREENS) {
  test(`layout ${w}x${h}: whole board and status on screen on every preset (play, analysis)`, async () => {
    for (const slug of PRESETS) {
      for (const kind of ['play', 'analysis']) {
        const { page, errors } = await openPage(`${base}/${kind}?variant=${slug}${kind === 'play' ? '&engine=black' : ''}`, { width: w, height: h });
        const what = `${kind} ${slug} at ${w}x${h}`;
        await page.waitForTimeout(50); // the board is fitted on the next frame after a resize
        const board = await insideViewport(page, '#tc-app .tc-board', w, h, what);
        await insideViewport(page, '#tc-app [data-status]', w, h, what);
        assert(board.width > Math.min(w, h) / 3, `${what}: board only ${Math.round(board.width)} px wide`);
        if (w > 700) {
          // beside the board: the players and the moves
          if (kind === 'play') await insideViewport(page, '#tc-app [data-players]', w, h, what);
          const moves = await page.locator('#tc-app .tc-moves').boundingBox();
          assert(moves && moves.y < h - 40, `${what}: the move list starts at ${moves?.y}`);
        }
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert(width <= w, `${what}: page is ${width} px wide`);
        if (slug === 'mobius' && kind === 'play') {
          // an illegal try: the library's reason is on screen too
          await clickCell(page, 'e2');
          await clickCell(page, 'e5');
          await page.waitForFunction(() => (document.querySelector('#tc-app [data-why]')?.textContent ?? '').length > 0);
          await insideViewport(page, '#tc-app [data-why]', w, h, `${what}, the explanation`);
          await page.screenshot({ path: join(SHOTS, `layout-${kind}-${slug}-${w}x${h}.png`) });
        }
        assert(errors.length === 0, errors.join('; '));
        await page.close();
      }
    }
  });
}

test('layout: a hosted game shows the whole board, the status and both clocks at 1366x768 and 390x844', async () => {
  const r = await fetch(`${base}/api/games`, {
    method: 'POST',
    body: JSON.stringify({ variant: 'mobius', clock: { kind: 'fischer', initial_ms: 300000, increment_ms: 3000 } }),
  });
  const g = await r.json();
  for (const [w, h] of [[1366, 768], [390, 844]]) {
    const { page, errors } = await openPage(`${base}${g.white.url}`, { width: w, height: h });
    await page.waitForTimeout(50);
    const what = `game at ${w}x${h}`;
    await insideViewport(page, '#tc-app .tc-board', w, h, what);
    await insideViewport(page, '#tc-app [data-status]', w, h, what);
    await insideViewport(page, '#tc-app [data-clock="white"]', w, h, what);
    await insideViewport(page, '#tc-app [data-clock="black"]', w, h, what);
    await page.screenshot({ path: join(SHOTS, `layout-game-${w}x${h}.png`) });
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  }
});

test('layout: the resize handle resizes the board, double-click fits it again', async () => {
  const { page } = await openPage(`${base}/play?variant=klein-bottle`, { width: 1366, height: 768 });
  await page.waitForTimeout(50);
  const before = await page.locator('#tc-app .tc-board').boundingBox();
  const grip = await page.locator('#tc-app [data-resize]').boundingBox();
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x - 100, grip.y + grip.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(50);
  const smaller = await page.locator('#tc-app .tc-board').boundingBox();
  assert(Math.abs(smaller.width - (before.width - 100)) < 12, `dragged 100 px left: ${before.width} -> ${smaller.width}`);
  assert((await plies(page)) === 0, 'resizing made a move');
  // remembered in this browser
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForTimeout(50);
  const again = await page.locator('#tc-app .tc-board').boundingBox();
  assert(Math.abs(again.width - smaller.width) < 2, `after a reload: ${again.width}, want ${smaller.width}`);
  await page.locator('#tc-app [data-resize]').dblclick();
  await page.waitForTimeout(50);
  const fitted = await page.locator('#tc-app .tc-board').boundingBox();
  assert(Math.abs(fitted.width - before.width) < 2, `double-click: ${fitted.width}, want ${before.width}`);
  // the 3-D view opens below the board without shrinking it
  await open3d(page);
  const with3d = await page.locator('#tc-app .tc-board').boundingBox();
  assert(Math.abs(with3d.width - before.width) < 2, `with the 3-D view the board is ${with3d.width} px, was ${before.width}`);
  await page.close();
});

test('the engine takes a draw only near equal; undo asks before taking back the result', async () => {
  // A queen and a rook down for White: the engine (Black) declines.
  const lost = encodeURIComponent('rq2k3/8/8/8/8/8/8/4K3 w - - 0 1');
  let { page, errors } = await openPage(`${base}/play?variant=chess&engine=black&fen=${lost}`);
  await page.click('#tc-app [data-action="draw"]');
  await page.waitForSelector('#tc-app [data-note][data-draw]', { timeout: 30000 });
  assert((await page.getAttribute('#tc-app [data-note]', 'data-draw')) === 'declined', 'a won position: draw accepted');
  assert(/declines/.test(await page.textContent('#tc-app [data-note]')), 'no reason given for the refusal');
  assert((await page.getAttribute('#tc-app', 'data-game-over')) === 'false', 'the game ended');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
  // A symmetrical position: accepted.
  const even = encodeURIComponent('4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1');
  ({ page, errors } = await openPage(`${base}/play?variant=chess&engine=black&fen=${even}`));
  await page.click('#tc-app [data-action="draw"]');
  await page.waitForSelector('#tc-app [data-note][data-draw]', { timeout: 30000 });
  const note = await page.textContent('#tc-app [data-note]');
  assert((await page.getAttribute('#tc-app [data-note]', 'data-draw')) === 'accepted', `an equal position: ${note}`);
  assert((await page.textContent('#tc-app [data-result]')).includes('1/2-1/2'), 'no draw result');
  // the level select names ratings
  const label = await page.locator('#tc-app [data-engine-level] option:checked').textContent();
  assert(/^10: about 1500$/.test(label ?? ''), `level label ${label}`);
  await page.click('#tc-app [data-action="undo"]');
  assert((await page.getAttribute('#tc-app', 'data-game-over')) === 'true', 'undo removed the draw without asking');
  await page.click('#tc-app [data-confirm-no]');
  assert((await page.getAttribute('#tc-app', 'data-game-over')) === 'true', 'cancel took back the draw');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('status says check; the FEN box follows the moves; out-of-turn clicks are answered', async () => {
  const fen = encodeURIComponent('4k3/8/8/8/8/8/8/R2K3r w - - 0 1');
  const { page, errors } = await openPage(`${base}/play?variant=cylinder&fen=${fen}`);
  const st = await page.textContent('#tc-app [data-status]');
  assert(st === 'White to move, in check', `status: ${st}`);
  await page.click('#tc-app .tc-io summary');
  await page.click('#tc-app [data-action="export-fen"]');
  await playClicks(page, [['d1', 'c2']]);
  const shown = await page.inputValue('#tc-app [data-io]');
  assert(shown === (await fenOf(page)), `the FEN box shows ${shown}, the board ${await fenOf(page)}`);
  // a White piece clicked on Black's move: the page says why nothing happens
  await clickCell(page, 'a1');
  const note = await page.textContent('#tc-app [data-note]');
  assert(/Black to move/.test(note ?? ''), `out-of-turn click: ${note}`);
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('editor: errors name their cause and clear on edit; a bad FEN in the URL opens the editor', async () => {
  const { page, errors } = await openPage(`${base}/analysis?variant=mobius&fen=${encodeURIComponent('8/8/8/8')}`);
  assert(await page.isVisible('[data-editor]'), 'the editor is not open');
  const msg = await page.textContent('[data-editor-msg]');
  assert(/4 ranks.*14/.test(msg ?? ''), `URL error: ${msg}`);
  assert((await page.inputValue('[data-editor-fen]')) === '8/8/8/8', 'the bad FEN is not shown for correction');
  await page.click('[data-brush="Q"]');
  await page.locator('[data-editor] [data-cell="d4"]').click();
  assert((await page.textContent('[data-editor-msg]')) === '', 'an edit left the old error');
  const edited = await page.getAttribute('[data-editor] .tc-board', 'data-fen');
  await page.fill('[data-editor-fen]', '8/8/8/8 w - - 0 1');
  await page.press('[data-editor-fen]', 'Enter');
  await page.locator('[data-editor-fen]').blur();
  const typed = await page.textContent('[data-editor-msg]');
  assert(/4 ranks.*14/.test(typed ?? ''), `typed FEN error: ${typed}`);
  const after = await page.getAttribute('[data-editor] .tc-board', 'data-fen');
  assert(after === edited && /Q/.test(after), `a refused FEN changed the board: ${edited} -> ${after}`);
  const box = await page.locator('[data-editor] .tc-board').boundingBox();
  assert(box.y + box.height <= 900 + 1, `editor board ends at ${box.y + box.height}`);
  await page.screenshot({ path: join(SHOTS, 'editor-error.png') });
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('URL names: an alias opens its variant; a 404 offers the closest name', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=moebius`);
  assert((await page.getAttribute('#tc-app .tc-board', 'data-variant')) === 'mobius', 'moebius is not mobius');
  assert(errors.length === 0, errors.join('; '));
  const r = await page.goto(`${base}/v/kleinn`);
  assert(r.status() === 404, `status ${r.status()}`);
  assert((await page.textContent('.tc-error')).includes("did you mean 'klein-bottle'?"), 'no suggestion');
  await page.close();
});

test('precompressed assets: a cold /play transfers under 250 KB', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tc-e2e-cold-'));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  try {
    const page = await ctx.newPage();
    const requests = [];
    page.on('requestfinished', (r) => requests.push(r));
    await page.goto(`${base}/play?variant=klein-bottle`);
    await page.waitForSelector('body[data-ready="true"] #tc-app [data-cell="e2"]');
    await page.waitForLoadState('networkidle');
    let total = 0;
    const lines = [];
    for (const r of requests) {
      const sz = await r.sizes();
      const resp = await r.response();
      const enc = (await resp?.headerValue('content-encoding')) ?? '';
      total += sz.responseBodySize + sz.responseHeadersSize;
      lines.push(`${new URL(r.url()).pathname} ${sz.responseBodySize} ${enc}`);
      if (/\.(js|css|wasm)$/.test(r.url())) assert(enc === 'gzip' || enc === 'br', `${r.url()} sent without compression`);
    }
    assert(!lines.some((l) => l.includes('view3d')), 'the 3-D chunk was loaded before the 3-D view was opened');
    assert(total < 250 * 1024, `cold /play transferred ${total} bytes: ${lines.join('; ')}`);
    console.log(`     cold /play?variant=klein-bottle: ${(total / 1024).toFixed(1)} KB in ${requests.length} requests (${lines.join('; ')})`);
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Two browsers play a timed Klein-bottle game through the hub, a third
// watches; the server is killed with kill -9 mid-game and restarted on the
// same port and database, and the game goes on with every move. With
// TG_TEST_DB=postgresql://... (make e2e-pg-test) the players and the
// watcher are on two server processes sharing that database.
