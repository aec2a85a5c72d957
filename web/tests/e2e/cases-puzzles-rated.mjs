// End-to-end case of the hub's rated puzzles (issue 32, docs/puzzles.md,
// "On the hub"): a fresh hub seeded with the cheap presets' puzzles; the
// day's puzzle on the home page and on a variant page; a signed-in player
// solves one puzzle by clicks (the tables' defence answered on the board)
// and fails the next with a move that is not the fastest; the server's
// verdicts move the rating, and the account page lists both attempts with
// the rating's change. Screenshots at 1366x768 and 390x844 of the puzzle
// page, the home and variant pages with the day's puzzle, and the history.
import { ARGS, DOCS, PAGES, SHOTS, assert, chromium, clickCell, join, openContextPage, signUp, startServer, test, top } from './harness.mjs';

test('rated puzzles: the day\'s puzzle on the home and variant pages; solve one, fail one, the account\'s history', async () => {
  const srv = await startServer(PAGES);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  const b = srv.base;
  const shot = async (page, name) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
    if (DOCS) await page.screenshot({ path: join(top, 'docs', `${name}.jpg`), type: 'jpeg', quality: 60 });
  };
  try {
    const daily = await (await fetch(`${b}/api/puzzles/daily?variant=chess`)).json();
    assert(daily.id && daily.variant === 'chess', `the day's puzzle: ${JSON.stringify(daily)}`);
    const again = await (await fetch(`${b}/api/puzzles/daily?variant=chess`)).json();
    assert(again.id === daily.id, 'the same puzzle for everyone that day');
    const sizes = [[1366, 768], [390, 844]];
    for (const [w, h] of sizes) {
      const v = await openContextPage(browser, w, h);
      await v.page.goto(`${b}/v/chess`);
      const block = v.page.locator(`.tc-daily[data-daily-puzzle="${daily.id}"]`);
      assert(await block.count() === 1, 'the variant page shows the day\'s puzzle');
      assert((await block.locator('.tc-daily-title').textContent()).includes(daily.title), 'its title');
      await block.scrollIntoViewIfNeeded();
      await shot(v.page, `puzzles-variant-daily-${w}`);
      await v.page.goto(`${b}/`);
      assert(await v.page.locator('.tc-daily[data-daily-puzzle] svg').count() === 1, 'the home page shows a day\'s puzzle with its board');
      await v.page.locator('.tc-daily').scrollIntoViewIfNeeded();
      await shot(v.page, `puzzles-home-daily-${w}`);
      assert(!v.errors.length, v.errors.join('; '));
      await v.page.context().close();
    }

    const ann = await openContextPage(browser, 1366, 768);
    await signUp(ann.page, b, 'Ann');
    // the home page's puzzle is one variant's in turn, by the UTC day: its link names that variant and its day's puzzle
    await ann.page.goto(`${b}/`);
    const homeHref = await ann.page.getAttribute('.tc-daily-title a', 'href');
    const hm = homeHref && homeHref.match(/^\/puzzles\?variant=([a-z0-9-]+)&id=([0-9a-f]+)$/);
    assert(hm, `the home page's link: ${homeHref}`);
    const homeDaily = await (await fetch(`${b}/api/puzzles/daily?variant=${hm[1]}`)).json();
    assert(homeDaily.id === hm[2], `the home page shows ${hm[1]}'s puzzle of the day: ${homeHref} against ${homeDaily.id}`);
    // chess's puzzle of the day, through the variant page's link
    await ann.page.goto(`${b}/v/chess`);
    await Promise.all([ann.page.waitForURL(/\/puzzles\?variant=chess&id=/), ann.page.click('.tc-daily-title a')]);
    await ann.page.waitForFunction((id) => document.querySelector('[data-puzzle-title]')?.getAttribute('data-puzzle-id') === id && /to move/.test(document.querySelector('[data-note]')?.textContent ?? ''), daily.id, { timeout: 30000 });
    assert(/Your puzzle rating: 1500\?/.test(await ann.page.textContent('[data-player-rating]')), `rating line: ${await ann.page.textContent('[data-player-rating]')}`);
    await shot(ann.page, 'puzzles-rated-1366');
    const line = daily.line_uci;
    for (let i = 0; i < line.length; i += 2) {
      await clickCell(ann.page, line[i].slice(0, 2));
      await clickCell(ann.page, line[i].slice(2, 4));
      if (i + 1 < line.length)
        await ann.page.waitForFunction((t) => (document.querySelector('[data-note]')?.textContent ?? '').includes(t), `mate in ${(line.length - i - 1) / 2} to go`, { timeout: 10000 });
    }
    await ann.page.waitForFunction(() => document.querySelector('[data-note]')?.getAttribute('data-result') === 'solved', null, { timeout: 15000 });
    const solvedNote = await ann.page.textContent('[data-note]');
    const m = solvedNote.match(/your rating 1500 → (\d+) \(\+(\d+)\)/);
    assert(m && Number(m[1]) > 1500, `the server's verdict: ${solvedNote}`);
    const afterSolve = Number(m[1]);

    // the next puzzle (the server's choice near the new rating), failed by a move that is not the fastest
    await Promise.all([ann.page.waitForURL(/\/puzzles\?variant=chess$/), ann.page.click('[data-action="next"]')]);
    await ann.page.waitForFunction(() => /to move/.test(document.querySelector('[data-note]')?.textContent ?? ''), null, { timeout: 30000 });
    const nextId = await ann.page.getAttribute('[data-puzzle-title]', 'data-puzzle-id');
    assert(nextId && nextId !== daily.id, `another puzzle: ${nextId}`);
    const next = await (await fetch(`${b}/api/puzzles/${nextId}`)).json();
    const king = (() => { // the winner's king, from the FEN (8x8)
      const rows = next.fen.split(' ')[0].split('/');
      for (let r = 0; r < rows.length; r++) {
        let f = 0;
        for (const c of rows[r]) {
          if (/\d/.test(c)) f += Number(c);
          else { if (c === (next.side === 'white' ? 'K' : 'k')) return `${'abcdefgh'[f]}${8 - r}`; f++; }
        }
      }
      return null;
    })();
    await clickCell(ann.page, king);
    const dests = await ann.page.locator('#tc-app [data-dest]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    const wrong = dests.find((d) => !next.accepted_uci.includes(`${king}${d}`));
    assert(wrong, `a king move that is not the fastest from ${next.fen}`);
    await clickCell(ann.page, wrong);
    await ann.page.waitForFunction(() => document.querySelector('[data-note]')?.getAttribute('data-result') === 'failed', null, { timeout: 15000 });
    const failNote = await ann.page.textContent('[data-note]');
    const f = failNote.match(/your rating (\d+) → (\d+) \((-\d+)\)/);
    assert(f && Number(f[1]) === afterSolve && Number(f[2]) < afterSolve, `the failure: ${failNote}`);
    const afterFail = Number(f[2]);

    // the account page: both attempts, newest first, with the rating's change
    await ann.page.goto(`${b}/account`);
    const rows = ann.page.locator('table.tc-puzzle-history tbody tr');
    assert(await rows.count() === 2, `two attempts: ${await rows.count()}`);
    assert((await rows.nth(0).getAttribute('data-puzzle')) === nextId && /failed/.test(await rows.nth(0).textContent()), 'the failure first');
    assert((await rows.nth(0).textContent()).includes(`${afterSolve} → ${afterFail}`), `the failure's change: ${await rows.nth(0).textContent()}`);
    assert((await rows.nth(1).textContent()).includes(`1500 → ${afterSolve}`) && /solved/.test(await rows.nth(1).textContent()), 'the solve second');
    assert((await ann.page.textContent('.tc-puzzle-rating')).includes(`Puzzle rating ${afterFail}`), 'the rating on the account page');
    await ann.page.locator('table.tc-puzzle-history').scrollIntoViewIfNeeded();
    await shot(ann.page, 'puzzles-history-1366');
    await ann.page.goto(`${b}/@/Ann`);
    assert((await ann.page.textContent('.tc-puzzle-rating')).includes(`Puzzle rating ${afterFail}`), 'the rating on the player page');
    assert(!ann.errors.length, ann.errors.join('; '));

    // the same pages on a phone
    const phone = await openContextPage(browser, 390, 844);
    await signUp(phone.page, b, 'Bob');
    await phone.page.goto(`${b}/puzzles?variant=cylinder&theme=KRK`);
    await phone.page.waitForFunction(() => /to move/.test(document.querySelector('[data-note]')?.textContent ?? ''), null, { timeout: 30000 });
    assert(/KRK/.test(await phone.page.textContent('h1')), 'the theme in the title');
    await shot(phone.page, 'puzzles-rated-390');
    const bobCookies = await phone.page.context().cookies();
    const annCookies = await ann.page.context().cookies();
    await phone.page.context().clearCookies();
    await phone.page.context().addCookies(annCookies.map((c) => ({ ...c })));
    await phone.page.goto(`${b}/account`);
    await phone.page.locator('table.tc-puzzle-history').scrollIntoViewIfNeeded();
    await shot(phone.page, 'puzzles-history-390');
    assert(bobCookies.length > 0 && !phone.errors.length, phone.errors.join('; '));
  } finally {
    await browser.close();
    srv.proc.kill();
  }
});
