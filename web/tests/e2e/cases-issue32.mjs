// End-to-end case of issue 32: the computer review of a finished hosted
// game, searched in the browser's engine worker and judged by the library
// (registered in order; run.mjs runs it). Screenshots at 1366x768 and
// 390x844 (TC_E2E_DOCS=1: docs/review-*.jpg).
import { readFileSync, writeFileSync } from 'node:fs';
import { BIN, DOCS, SHOTS, assert, base, execFileSync, join, openPage, scratch, test, top } from './harness.mjs';

for (const [w, h] of [[1366, 768], [390, 844]]) {
  test(`review (${w}x${h}): a finished game's computer review marks the blunder and goes to it`, async () => {
    // the scholar's mate, played through the API
    const r = await fetch(`${base}/api/games`, { method: 'POST', body: JSON.stringify({ variant: 'chess' }) });
    assert(r.status === 201, `create: ${r.status}`);
    const g = await r.json();
    const moves = ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#'];
    for (let i = 0; i < moves.length; i++) {
      const side = i % 2 ? g.black : g.white;
      const m = await fetch(`${base}/api/games/${g.id}/move`, { method: 'POST', body: JSON.stringify({ token: side.token, move: moves[i] }) });
      assert(m.status === 200, `move ${moves[i]}: ${m.status}`);
    }
    const { page, errors } = await openPage(`${base}${g.url}`, { width: w, height: h });
    const button = page.locator('[data-review-box] [data-action="review"]');
    assert(await button.isVisible(), 'no review button on an ended game');
    await button.click();
    await page.waitForSelector('[data-review]', { timeout: 120000 });
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
