// End-to-end cases of issue 30: one voice for a bad move on every
// interface, directions named as the board is drawn, and a game page that
// fits a phone and fills a laptop (registered in order; run.mjs runs them).
import { spawnSync } from 'node:child_process';
import { ARGS, BIN, DOCS, SHOTS, assert, base, clickCell, join, openPage, test, top } from './harness.mjs';

const SIZES = [[1366, 768], [390, 844]];

/** What the terminal says of a bad move: topochess --play's reason. */
function terminalReason(variant, moves) {
  const r = spawnSync(BIN, ['fen', '--variant', variant, '--play', moves], { encoding: 'utf8' });
  const m = /^topochess: --play: move \d+ \((?:white|black)\): (.*)$/m.exec(r.stderr);
  assert(m, `--play '${moves}' gave no reason: ${r.stderr}`);
  return m[1];
}

async function box(page, selector) {
  const b = await page.locator(selector).first().boundingBox();
  assert(b, `${selector} is not shown`);
  return b;
}

function onScreen(b, w, h, what) {
  const ok = b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= w + 0.5 && b.y + b.height <= h + 0.5;
  assert(ok, `${what} at ${Math.round(b.x)},${Math.round(b.y)} size ${Math.round(b.width)}x${Math.round(b.height)} leaves the ${w}x${h} screen`);
}

for (const [w, h] of SIZES) {
  test(`issue 30 (${w}x${h}): a typed move gets the terminal's reason, as a clicked one does`, async () => {
    const { page, errors } = await openPage(`${base}/play?variant=torus`, { width: w, height: h });
    const note = '#tc-app [data-note]';
    for (const text of ['Bb5', 'nf3', 'Ke2', 'e5', 'xyz']) {
      const want = terminalReason('torus', text);
      await page.fill('#tc-app [data-move-input]', text);
      await page.press('#tc-app [data-move-input]', 'Enter');
      await page.waitForFunction(([sel, t]) => document.querySelector(sel)?.textContent === t, [note, want], { timeout: 5000 })
        .catch(() => undefined);
      const got = await page.textContent(note);
      assert(got === want, `typed '${text}': the page says "${got}", the terminal "${want}"`);
    }
    assert(/blocked by the white pawn on e2/.test(terminalReason('torus', 'Bb5')), 'the terminal names no blocker for Bb5');
    // the same move by clicks: the same sentence for its coordinates
    await clickCell(page, 'f1');
    await clickCell(page, 'b5');
    const why = await page.textContent('#tc-app [data-why]');
    const want = terminalReason('torus', 'f1b5');
    assert(why === want, `clicked f1-b5: the page says "${why}", the terminal "${want}"`);
    assert(/blocked by the white pawn on e2/.test(why), `clicked f1-b5: ${why}`);
    // a legal typed move is played
    await page.fill('#tc-app [data-move-input]', 'Nf3');
    await page.press('#tc-app [data-move-input]', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === 1);
    assert(errors.length === 0, errors.join('; '));
    await page.close();
  });
}

/** The rank or file of the ghost cells drawn along one screen edge. */
async function drawnEdge(page, edge) {
  const ghosts = await page.locator('#tc-app [data-ghost]').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { name: e.getAttribute('data-ghost'), x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }),
  );
  const key = edge === 'top' || edge === 'bottom' ? 'y' : 'x';
  const far = edge === 'top' || edge === 'left' ? Math.min(...ghosts.map((g) => g[key])) : Math.max(...ghosts.map((g) => g[key]));
  const line = ghosts.filter((g) => Math.abs(g[key] - far) < 2);
  // the cells of a row share a rank, of a column a file (the corners aside)
  const parts = line.map((g) => (key === 'y' ? g.name.replace(/^[a-z]+/, '') : g.name.replace(/\d+$/, '')));
  const counts = new Map();
  for (const p of parts) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

test('issue 30: the note under the board names the edges as drawn, flipped or not', async () => {
  const { page, errors } = await openPage(`${base}/play?variant=torus`, { width: 1366, height: 768 });
  const caption = () => page.textContent('#tc-app .tc-joins');
  const check = async (what) => {
    const text = await caption();
    for (const edge of ['top', 'bottom', 'left', 'right']) {
      const drawn = await drawnEdge(page, edge);
      const named = new RegExp(`${edge}: wrap to (?:rank|file) ([a-z]+|\\d+) `).exec(text);
      assert(named, `${what}: the note names no ${edge} edge: ${text}`);
      assert(named[1] === drawn, `${what}: the note says "${named[0].trim()}" where the ghosts of ${/^\d/.test(drawn) ? 'rank' : 'file'} ${drawn} are drawn: ${text}`);
    }
    return text;
  };
  const before = await check('White at the bottom');
  assert(/top: wrap to rank 1 /.test(before) && /left: wrap to file h /.test(before), `unflipped: ${before}`);
  await page.click('#tc-app [data-action="flip"]');
  const after = await check('flipped');
  assert(/top: wrap to rank 14 \(h14…a14\)/.test(after) && /left: wrap to file a \(a14…a1\)/.test(after), `flipped: ${after}`);
  // the roll buttons move the picture the way their arrows point
  const x0 = (await box(page, '#tc-app [data-cell="e4"]')).x;
  await page.click('#tc-app [data-action="roll-left"]');
  const x1 = (await box(page, '#tc-app [data-cell="e4"]')).x;
  assert(x1 < x0, `flipped: 'Roll the files left' moved e4 from x ${Math.round(x0)} to ${Math.round(x1)}`);
  const y0 = (await box(page, '#tc-app [data-cell="e4"]')).y;
  await page.click('#tc-app [data-action="roll-up"]');
  const y1 = (await box(page, '#tc-app [data-cell="e4"]')).y;
  assert(y1 < y0, `flipped: 'Roll the ranks up' moved e4 from y ${Math.round(y0)} to ${Math.round(y1)}`);
  assert(errors.length === 0, errors.join('; '));
  await page.close();
});

test('issue 30: a hosted 8x14 game fits a 390x844 phone and fills a 1366x768 laptop, for White and Black', async () => {
  const r = await fetch(`${base}/api/games`, {
    method: 'POST',
    body: JSON.stringify({ variant: 'torus', clock: { kind: 'fischer', initial_ms: 300000, increment_ms: 3000 } }),
  });
  const g = await r.json();
  // the API's reason for a bad move is the terminal's sentence too
  for (const text of ['Bb5', 'nf3']) {
    const bad = await fetch(`${base}/api/games/${g.id}/move`, { method: 'POST', body: JSON.stringify({ token: g.white.token, move: text }) });
    const j = await bad.json();
    const want = terminalReason('torus', text);
    assert(bad.status === 400 && j.error === want, `API move '${text}': ${bad.status} "${j.error}", the terminal "${want}"`);
  }
  // two moves: the buttons of a running game (resign, offer a draw)
  for (const [side, move] of [['white', 'e4'], ['black', 'e5']]) {
    const m = await fetch(`${base}/api/games/${g.id}/move`, { method: 'POST', body: JSON.stringify({ token: g[side].token, move }) });
    assert(m.status === 200, `${side} ${move}: ${m.status}`);
  }
  for (const [w, h] of SIZES) {
    for (const side of ['white', 'black']) {
      const { page, errors } = await openPage(`${base}${g[side].url}`, { width: w, height: h });
      await page.waitForTimeout(100); // the board is fitted on the next frame
      const what = `${side} at ${w}x${h}`;
      const board = await box(page, '#tc-app .tc-board');
      onScreen(board, w, h, `${what}: the board`);
      for (const s of ['white', 'black']) {
        onScreen(await box(page, `#tc-app [data-player="${s}"] .tc-gp-name`), w, h, `${what}: ${s}'s name`);
        onScreen(await box(page, `#tc-app [data-clock="${s}"]`), w, h, `${what}: ${s}'s clock`);
      }
      onScreen(await box(page, '#tc-app [data-action="resign"]'), w, h, `${what}: Resign`);
      onScreen(await box(page, '#tc-app [data-action="draw-offer"]'), w, h, `${what}: Offer draw`);
      onScreen(await box(page, '#tc-app [data-status]'), w, h, `${what}: the status`);
      // the player's own bar is below the board, the opponent's above it
      const own = await box(page, `#tc-app [data-player="${side}"]`);
      const them = await box(page, `#tc-app [data-player="${side === 'white' ? 'black' : 'white'}"]`);
      assert(own.y > them.y, `${what}: the player's own bar is not the lower one`);
      const title = await box(page, '#tc-app h1');
      assert(title.height < 40, `${what}: the title takes ${Math.round(title.height)} px (more than one line)`);
      const header = await page.evaluate(() => document.querySelector('.tc-header')?.getBoundingClientRect().bottom ?? 0);
      if (w > 700) {
        // as on lichess: the board (with its coordinates) fills the height below the header
        const room = h - header;
        assert(board.height >= room - 40, `${what}: the board is ${Math.round(board.height)} px tall of the ${Math.round(room)} px below the header`);
        assert(board.height >= 0.85 * h, `${what}: the board uses ${Math.round((100 * board.height) / h)}% of the height`);
      } else {
        assert(board.width >= 0.85 * w, `${what}: the board is only ${Math.round(board.width)} px wide`);
        assert(header < 50, `${what}: the header ends at ${Math.round(header)} px`);
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert(width <= w, `${what}: the page is ${width} px wide`);
      await page.screenshot({ path: join(SHOTS, `issue30-game-${side}-${w}x${h}.png`) });
      // the manual's picture of White's phone view (people.mjs takes Black's
      // at 390x844 and White's at 1366x768, with named players)
      if (DOCS && side === 'white' && w < 700) await page.screenshot({ path: join(top, 'docs', 'game-page-390-white.jpg'), type: 'jpeg', quality: 60 });
      if (w < 700 && side === 'black') {
        // the buttons under the board work: an offer, answered in words
        await page.click('#tc-app [data-action="draw-offer"]');
        await page.waitForSelector('#tc-app [data-notice="You offered a draw."]', { timeout: 10000 });
        onScreen(await box(page, '#tc-app [data-notice]'), w, h, `${what}: the offer's words`);
        onScreen(await box(page, `#tc-app [data-clock="white"]`), w, h, `${what}, with an offer: White's clock`);
      }
      assert(errors.length === 0, errors.join('; '));
      await page.close();
    }
  }
});

void ARGS;
