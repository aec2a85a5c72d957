// End-to-end cases of the puzzle page (issue 32, docs/puzzles.md): the
// day's chess puzzle is the native command's for the day's seed, solved by
// clicking its line with the tables' defence answered on the board; the
// solution button and the next puzzle; on the Klein bottle, whose 3-piece
// endings hold no mate of two moves, the page goes on to K+R+R v K.
// (chess has rated puzzles in the hub's table: practice=1 asks for the
// browser's own; the rated ones are cases-puzzles-rated.mjs.)
// Screenshots at 1366x768 and 390x844.
import { DOCS, SHOTS, assert, base, cli, clickCell, join, openPage, test, top } from './harness.mjs';

const seed = () => { const d = new Date(); return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate(); };

test('puzzles (1366x768): the day\'s chess puzzle, solved by clicks against the tables\' defence', async () => {
  const want = JSON.parse(cli(['puzzles', '--variant', 'chess', '--material', 'KRK', '--count', '2', '--seed', String(seed()), '--json'])).puzzles;
  const { page, errors } = await openPage(`${base}/puzzles?variant=chess&practice=1`, { width: 1366, height: 768 });
  await page.waitForFunction(() => /Today's puzzle/.test(document.querySelector('[data-puzzle-title]')?.textContent ?? ''), null, { timeout: 30000 });
  assert((await page.getAttribute('[data-puzzle-title]', 'data-fen')) === want[0].fen, `the page's puzzle is not the command's: ${await page.getAttribute('[data-puzzle-title]', 'data-fen')}`);
  assert((await page.textContent('[data-puzzle-title]')) === `Today's puzzle: ${want[0].title}`, 'title');
  await page.screenshot({ path: join(SHOTS, 'puzzles-1366.png') });
  if (DOCS) await page.screenshot({ path: join(top, 'docs', 'puzzles-1366.jpg'), type: 'jpeg', quality: 60 });
  const line = want[0].line_uci;
  for (let i = 0; i < line.length; i += 2) {
    await clickCell(page, line[i].slice(0, 2));
    await clickCell(page, line[i].slice(2, 4));
    if (i + 1 < line.length) {
      // the tables answer: the defence's move reaches the board
      await page.waitForFunction((n) => document.querySelectorAll('#tc-app [data-ply]').length >= n || /mate in \d+ to go/.test(document.querySelector('[data-note]')?.textContent ?? ''), i + 2, { timeout: 10000 }).catch(() => undefined);
      await page.waitForFunction((t) => (document.querySelector('[data-note]')?.textContent ?? '').includes(t), `mate in ${(line.length - i - 1) / 2} to go`, { timeout: 10000 });
    }
  }
  await page.waitForSelector('#tc-app[data-solved]', { timeout: 10000 });
  assert(/checkmate\. Solved!/.test(await page.textContent('[data-note]') ?? ''), `the end: ${await page.textContent('[data-note]')}`);
  await page.click('[data-action="next"]');
  assert((await page.getAttribute('[data-puzzle-title]', 'data-fen')) === want[1].fen, 'the next puzzle is not the command\'s second');
  await page.click('[data-action="solution"]');
  assert((await page.textContent('[data-note]')) === `The solution: ${want[1].line.join(' ')}`, `the solution: ${await page.textContent('[data-note]')}`);
  assert(!errors.length, errors.join('; '));
  await page.close();
});

test('puzzles (390x844): the Klein bottle goes on to K+R+R v K for its puzzles', async () => {
  const { page, errors } = await openPage(`${base}/puzzles?variant=klein-bottle`, { width: 390, height: 844 });
  await page.waitForFunction(() => /Today's puzzle/.test(document.querySelector('[data-puzzle-title]')?.textContent ?? ''), null, { timeout: 90000 });
  assert(/ on the Klein bottle$/.test(await page.textContent('[data-puzzle-title]') ?? ''), 'title');
  assert((await page.inputValue('[data-material]')) === 'KRRK', `material ${await page.inputValue('[data-material]')}`);
  await page.screenshot({ path: join(SHOTS, 'puzzles-390.png') });
  if (DOCS) await page.screenshot({ path: join(top, 'docs', 'puzzles-390.jpg'), type: 'jpeg', quality: 60 });
  assert(!errors.length, errors.join('; '));
  await page.close();
});
