// End-to-end case of issue 32: the computer review of a finished hosted
// game, searched in the browser's engine worker and judged by the library
// (registered in order; run.mjs runs it). Screenshots at 1366x768 and
// 390x844 (TC_E2E_DOCS=1: docs/review-*.jpg).
import { DOCS, SHOTS, assert, base, join, openPage, test, top } from './harness.mjs';

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
