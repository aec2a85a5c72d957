// End-to-end cases of the 3-D view (names start "3d:", so TC_E2E_ONLY=3d
// runs them alone): every surface framed at a laptop's and a phone's size,
// the pieces of the FEN on their cells, moves made by clicking cells in
// 3-D on the play and analysis pages, cell names that read the right way
// round on the screen (their pixels, not only their geometry), the view
// instead of the board, and the editor's live preview.
import { mkdtempSync, rmSync, tmpdir, join, chromium, ARGS, DOCS, PRESETS, SHOTS, assert, base, customBase, fenOf, open3d, openPage, plies, test, top } from './harness.mjs';

const view = '#tc-app .tc-3d';

/** The pieces a FEN places, by cell name (files a.., ranks 1..). */
function fenPieces(fen) {
  const out = new Map();
  const ranks = fen.split(' ')[0].split('/');
  ranks.forEach((text, i) => {
    const y = ranks.length - i;
    let x = 0;
    for (const m of text.matchAll(/(\d+)|([pnbrqkPNBRQK])/g)) {
      if (m[1]) x += Number(m[1]);
      else out.set(`${String.fromCharCode(97 + x++)}${y}`, m[2]);
    }
  });
  return out;
}

/** Every cell centre inside the canvas; the pieces of the board's FEN, each on its cell. */
async function checkView(page, what) {
  const { cells, pieces, box } = await page.evaluate((sel) => {
    const v = document.querySelector(sel).tc3d;
    return { cells: v.cells(), pieces: v.pieces(), box: v.canvas() };
  }, view);
  assert(box.width >= 200 && box.height >= 200, `${what}: canvas ${box.width}x${box.height}`);
  const out = cells.filter((c) => !(c.x > box.left && c.x < box.right && c.y > box.top && c.y < box.bottom && c.depth < 1));
  assert(out.length === 0, `${what}: ${out.length} cell centres outside the canvas (${out.slice(0, 4).map((c) => `${c.name} at ${Math.round(c.x)},${Math.round(c.y)}`).join(', ')}; canvas ${JSON.stringify(box)})`);
  const want = fenPieces(await fenOf(page));
  const shown = new Map(pieces.filter((p) => !p.under).map((p) => [p.cell, p.letter]));
  assert(shown.size === want.size, `${what}: ${shown.size} pieces in 3-D, the FEN has ${want.size}`);
  for (const [cell, letter] of want) assert(shown.get(cell) === letter, `${what}: ${cell} has ${shown.get(cell) ?? 'nothing'} in 3-D, ${letter} in the FEN`);
  return box;
}

for (const [w, h] of [[1366, 768], [390, 844]]) {
  test(`3d: every preset at ${w}x${h} framed whole, the FEN's pieces on their cells`, async () => {
    for (const slug of PRESETS) {
      const { page, errors } = await openPage(`${base}/play?variant=${slug}`, { width: w, height: h });
      await open3d(page);
      const box = await checkView(page, `${slug} ${w}x${h}`);
      // as large as the board (beside, below or instead of it)
      const board = await page.locator('#tc-app .tc-board svg').boundingBox();
      assert(Math.abs(box.width - board.width) < 2, `${slug} ${w}x${h}: canvas ${box.width} wide, board ${board.width}`);
      await page.screenshot({ path: join(SHOTS, `3d-${slug}-${w}.png`) });
      assert(errors.length === 0, errors.join('; '));
      await page.close();
    }
  });
}

test('3d: a custom 16x16 page framed whole, and its pieces', async () => {
  const { page, errors } = await openPage(`${customBase}/play?variant=big-cylinder`, { width: 1366, height: 768 });
  await open3d(page);
  await checkView(page, 'big-cylinder');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

/** Clicks a cell in the 3-D view where a click lands on it (asserted). */
async function click3d(page, name) {
  const at = await page.evaluate(([sel, n]) => document.querySelector(sel).tc3d.cell(n), [view, name]);
  assert(at && at.hits, `${name}: no point of the 3-D view shows it (${JSON.stringify(at)})`);
  await page.mouse.click(at.x, at.y);
}

/** A move of the side to move whose cells can both be clicked in the view. */
async function clickableMove(page) {
  const fen = await fenOf(page);
  const white = fen.split(' ')[1] === 'w';
  for (const [cell, letter] of fenPieces(fen)) {
    if ((letter === letter.toUpperCase()) !== white) continue;
    const at = await page.evaluate(([sel, n]) => document.querySelector(sel).tc3d.cell(n), [view, cell]);
    if (!at?.hits) continue;
    await click3d(page, cell);
    const dests = await page.locator('#tc-app [data-dest]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    for (const d of dests) {
      const to = await page.evaluate(([sel, n]) => document.querySelector(sel).tc3d.cell(n), [view, d]);
      if (to?.hits) return [cell, d, dests];
    }
    await click3d(page, cell); // put it down again
  }
  return null;
}

for (const url of ['/play?variant=chess', '/play?variant=klein-bottle', '/analysis?variant=torus']) {
  test(`3d: a move clicked in 3-D reaches the game (${url})`, async () => {
    const { page, errors } = await openPage(`${base}${url}`, { width: 1366, height: 768 });
    await open3d(page);
    const before = await fenOf(page);
    const n = await plies(page);
    const move = await clickableMove(page);
    assert(move, 'no move with both cells in sight');
    const [from, to, dests] = move;
    // picked in 3-D: the flat board shows the same legal targets the 3-D view draws
    assert(dests.length > 0, `${from}: no targets shown after the click in 3-D`);
    const picked = await page.evaluate((sel) => document.querySelector(sel).tc3d.picked(), view);
    assert(picked.cell === from && picked.targets.sort().join() === [...dests].sort().join(), `3-D shows ${JSON.stringify(picked)}, the board ${from} -> ${dests}`);
    await click3d(page, to);
    await page.waitForFunction((k) => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === k + 1, n, { timeout: 10000 });
    const after = await fenOf(page);
    assert(after !== before, 'the FEN did not change');
    const pieces = fenPieces(after);
    assert(!pieces.has(from) && pieces.has(to), `after ${from}-${to}: ${after}`);
    // the 3-D view follows
    const shown = await page.evaluate((sel) => document.querySelector(sel).tc3d.pieces(), view);
    assert(shown.some((p) => p.cell === to && !p.under) && !shown.some((p) => p.cell === from), `3-D pieces after the move: ${JSON.stringify(shown.filter((p) => [from, to].includes(p.cell)))}`);
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  });
}

test('3d: a drag turns the view and moves nothing; the wheel zooms', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=cylinder`, { width: 1366, height: 768 });
  await open3d(page);
  const cam = () => page.evaluate((sel) => document.querySelector(sel).tc3d.camera(), view);
  const box = await page.locator(`${view} canvas`).boundingBox();
  const before = await cam();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(100);
  const turned = await cam();
  const moved = Math.hypot(...turned.position.map((x, i) => x - before.position[i]));
  assert(moved > 0.5, `the camera moved ${moved.toFixed(3)} after a drag`);
  assert((await plies(page)) === 0, 'the drag made a move');
  assert((await page.evaluate((sel) => document.querySelector(sel).tc3d.picked(), view)).cell === null, 'the drag picked a piece');
  const dist = (c) => Math.hypot(...c.position.map((x, i) => x - c.target[i]));
  await page.mouse.wheel(0, -400);
  await page.waitForTimeout(100);
  assert(dist(await cam()) < dist(turned) - 0.1, `the wheel did not zoom in: ${dist(turned)} -> ${dist(await cam())}`);
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

/**
 * The label's pixels against the name drawn upright and drawn mirrored:
 * the dark pixels of the rendered label match the upright drawing better.
 */
async function labelReads(page, name) {
  return page.evaluate(([sel, n]) => {
    const v = document.querySelector(sel).tc3d;
    const l = v.label(n);
    const canvas = document.querySelector(`${sel} canvas`);
    const r = canvas.getBoundingClientRect();
    const k = canvas.width / r.width;
    const x0 = (l.left.x - r.left) * k;
    const x1 = (l.right.x - r.left) * k;
    const y0 = (l.top.y - r.top) * k;
    const y1 = (l.bottom.y - r.top) * k;
    const w = Math.round(x1 - x0);
    const h = Math.round(y1 - y0);
    // dark pixels: darker than halfway between the crop's darkest and lightest
    const mask = (ctx) => {
      // inside the tag (its rounded corners and the cell around it left out)
      const d = ctx.getImageData(Math.round(w * 0.1), Math.round(h * 0.2), Math.round(w * 0.8), Math.round(h * 0.65)).data;
      const lum = [];
      for (let i = 0; i < d.length; i += 4) lum.push(d[i] * 0.3 + d[i + 1] * 0.59 + d[i + 2] * 0.11);
      const cut = (Math.min(...lum) + Math.max(...lum)) / 2;
      return lum.map((x) => (x < cut ? 1 : 0));
    };
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, x0, y0, x1 - x0, y1 - y0, 0, 0, w, h);
    const seen = mask(ctx);
    const drawn = (mirror) => {
      ctx.clearRect(0, 0, w, h);
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, w, h);
      ctx.save();
      if (mirror) {
        ctx.translate(w, 0);
        ctx.scale(-1, 1);
      }
      ctx.scale(w / 128, h / 64);
      ctx.fillStyle = '#000';
      ctx.font = 'bold 40px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(n, 64, 34);
      ctx.restore();
      return mask(ctx);
    };
    const overlap = (a, b) => {
      let both = 0;
      let any = 0;
      for (let i = 0; i < a.length; i++) {
        both += a[i] & b[i];
        any += a[i] | b[i];
      }
      return any ? both / any : 0;
    };
    return { upright: overlap(seen, drawn(false)), mirrored: overlap(seen, drawn(true)), dark: seen.reduce((s, x) => s + x, 0), w, h, geometry: l };
  }, [view, name]);
}

test('3d: cell names read the right way round (screen direction and pixels)', async () => {
  for (const [slug, names] of [['chess', ['e4', 'c5']], ['cylinder', ['e4', 'd5']], ['mobius', null]]) {
    const { page, errors } = await openPage(`${base}/play?variant=${slug}`, { width: 1366, height: 768 });
    await open3d(page);
    // on the strip: the two largest names on the screen of empty cells
    const pick = async () => {
      const empty = [...(await page.evaluate((sel) => document.querySelector(sel).tc3d.cells().map((c) => c.name), view))].filter((c) => /^[a-h](3|4|5|6)$/.test(c));
      const sized = await page.evaluate(([sel, list]) => list.map((n) => [n, document.querySelector(sel).tc3d.label(n)]).filter(([, l]) => l.visible).map(([n, l]) => [n, l.right.x - l.left.x]), [view, empty]);
      return sized.sort((a, b) => b[1] - a[1]).slice(0, 2).map(([n]) => n);
    };
    for (const n of names ?? (await pick())) {
      const r = await labelReads(page, n);
      const g = r.geometry;
      assert(g.visible, `${slug} ${n}: the label faces away`);
      // left to right along the screen's x, top above bottom: not mirrored, not upside down
      assert(g.right.x - g.left.x > 4 && Math.abs(g.right.y - g.left.y) < 1 && g.bottom.y - g.top.y > 2, `${slug} ${n}: label on the screen ${JSON.stringify(g)}`);
      assert(r.dark > 10, `${slug} ${n}: the label's text is not on the screen (${r.dark} dark pixels in ${r.w}x${r.h})`);
      assert(r.upright > 0.3 && r.upright > r.mirrored + 0.1, `${slug} ${n}: rendered name matches upright ${r.upright.toFixed(2)}, mirrored ${r.mirrored.toFixed(2)}`);
    }
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  }
});

test('3d: instead of the board: same box, board hidden, moves still work', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=torus`, { width: 1366, height: 768 });
  await open3d(page);
  const mode = async () => page.getAttribute('#tc-app .tc-boardview', 'data-view3d');
  if ((await mode()) !== 'instead') await page.click('#tc-app [data-action="view3d-swap"]');
  assert((await mode()) === 'instead', `mode ${await mode()}`);
  await page.waitForTimeout(100);
  const board = await page.locator('#tc-app .tc-board svg').boundingBox();
  const canvas = await page.locator(`${view} canvas`).boundingBox();
  assert(Math.abs(board.x - canvas.x) < 2 && Math.abs(board.y - canvas.y) < 2 && Math.abs(board.width - canvas.width) < 2, `board ${JSON.stringify(board)}, canvas ${JSON.stringify(canvas)}`);
  assert((await page.locator('#tc-app .tc-board').evaluate((e) => getComputedStyle(e).visibility)) === 'hidden', 'the flat board still shows');
  await checkView(page, 'torus instead');
  const move = await clickableMove(page);
  assert(move, 'no move in sight');
  await click3d(page, move[1]);
  await page.waitForFunction(() => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === 1, null, { timeout: 10000 });
  await page.click('#tc-app [data-action="view3d-swap"]');
  assert((await mode()) === 'on', 'back to the flat board');
  assert((await page.locator('#tc-app .tc-board').evaluate((e) => getComputedStyle(e).visibility)) === 'visible', 'the flat board is back');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('3d: a promotion clicked in 3-D asks for the piece over the view', async () => {
  const fen = encodeURIComponent('7k/4P3/8/8/8/8/8/4K3 w - - 0 1');
  const { page, errors } = await openPage(`${base}/play?variant=chess&fen=${fen}`, { width: 1366, height: 768 });
  await open3d(page);
  await click3d(page, 'e7');
  await click3d(page, 'e8');
  // the chooser shows above the 3-D view (which stands where the board was)
  const q = page.locator('#tc-app [data-promote="n"]');
  await q.waitFor({ state: 'visible', timeout: 5000 });
  const box = await q.boundingBox();
  const top = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-promote]')?.getAttribute('data-promote'), [box.x + box.width / 2, box.y + box.height / 2]);
  assert(top === 'n', `the knight's button is covered (${top})`);
  await q.click();
  await page.waitForFunction(() => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === 1, null, { timeout: 10000 });
  const pieces = fenPieces(await fenOf(page));
  assert(pieces.get('e8') === 'N', `e8 holds ${pieces.get('e8')}`);
  const shown = await page.evaluate((sel) => document.querySelector(sel).tc3d.pieces(), view);
  assert(shown.some((p) => p.cell === 'e8' && p.letter === 'N'), '3-D view has no knight on e8');
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('3d: the editor shows the 3-D view of the board being edited, and follows the typing', async () => {
  // an account of its own, in a browser profile of its own
  const dir = mkdtempSync(join(tmpdir(), 'tc-e2e-3d-'));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS, viewport: { width: 1366, height: 768 } });
  try {
    const page = await ctx.newPage();
    page.setDefaultTimeout(20000);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/signup`);
    await page.fill('input[name="name"]', `three${process.pid}`);
    await page.fill('input[name="password"]', 'klein bottle');
    await page.fill('input[name="password2"]', 'klein bottle');
    await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"], form input[type="submit"]')]);
    await page.goto(`${base}/new`);
    await page.waitForSelector('[data-preview-3d][data-pieces]');
    const surface = () => page.getAttribute('[data-preview-3d]', 'data-surface');
    assert((await surface()) === 'cylinder-files', `starter surface ${await surface()}`);
    // a pawn less, typed into the setup: the 3-D view follows
    await page.fill('[data-field="setup"]', 'rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR');
    await page.waitForFunction(() => document.querySelector('[data-preview-3d]')?.getAttribute('data-pieces') === '31', null, { timeout: 20000 });
    // the files no longer joined: a flat board
    await page.selectOption('[data-field="file-rule"]', 'open');
    await page.waitForFunction(() => document.querySelector('[data-preview-3d]')?.getAttribute('data-surface') === 'plane', null, { timeout: 20000 });
    const pieces = Number(await page.getAttribute('[data-preview-3d]', 'data-pieces'));
    assert(pieces === 31, `the flat preview shows ${pieces} pieces`);
    assert((await page.locator('[data-preview-3d] canvas').count()) === 1, 'one canvas after the edit (the old view disposed)');
    await page.screenshot({ path: join(SHOTS, '3d-editor.png') });
    assert(errors.length === 0, errors.join('; '));
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('3d: pictures for docs/web-play.md (with TC_E2E_DOCS=1)', async () => {
  if (!DOCS) return;
  // a laptop: the bottle beside the board, after two moves clicked in 3-D, a piece picked
  let { page } = await openPage(`${base}/play?variant=klein-bottle`, { width: 1366, height: 768 });
  await open3d(page);
  for (let k = 1; k <= 2; k++) {
    const m = await clickableMove(page);
    assert(m, 'no move in sight');
    await click3d(page, m[1]);
    await page.waitForFunction((n) => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === n, k);
  }
  assert(await clickableMove(page), 'no piece to pick');
  await page.waitForTimeout(300);
  await page.locator('#tc-app .tc-3d').screenshot({ path: join(top, 'docs/web-3d-klein-1366.png') });
  await page.close();
  // a phone: the torus instead of the board
  ({ page } = await openPage(`${base}/play?variant=torus`, { width: 390, height: 844 }));
  await open3d(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(top, 'docs/web-3d-torus-390.png') });
  await page.close();
});
