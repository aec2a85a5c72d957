// End-to-end case of issue 31: a correspondence game between two browsers
// that are not on the same page at once, told by the inbox: the header's
// unread count live on any page, the inbox page, the "your turn" lists of
// the home and account pages, and a visitor's pages asking for nothing
// (registered in order; run.mjs runs it). Screenshots at 1366x768 and
// 390x844 (TC_E2E_DOCS=1: docs/correspondence-*.jpg).
import { ARGS, DOCS, PAGES, SHOTS, assert, chromium, clickCell, join, openContextPage, signUp, startServer, test, top } from './harness.mjs';

test('correspondence: a seek taken while its owner is elsewhere, the inbox count live in the header, your-turn lists', async () => {
  const srv = await startServer(PAGES);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  const b = srv.base;
  // a screenshot to look at; with TC_E2E_DOCS=1 the ones docs/correspondence.md shows as JPEGs too
  const shot = async (page, name, doc = false) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    if (DOCS && doc) await page.screenshot({ path: join(top, 'docs', `${name}.jpg`), type: 'jpeg', quality: 60 });
  };
  try {
    const open = async (width, height) => {
      const o = await openContextPage(browser, width, height);
      const requests = [];
      o.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      return { ...o, requests };
    };
    const ann = await open(1366, 768);
    const bob = await open(390, 844);
    const visitor = await open(1366, 768);
    // a visitor's page: no inbox link, no request for it
    await visitor.page.goto(`${b}/v/klein-bottle`);
    await visitor.page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert(await visitor.page.locator('a.tc-inbox-link').isHidden(), "a visitor's header shows the inbox link");
    assert(!visitor.requests.some((p) => p.startsWith('/api/inbox')), `a visitor's page asked for the inbox: ${visitor.requests.join(' ')}`);

    const signup = ({ page }, name) => signUp(page, b, name);
    await signup(ann, 'Ann');
    await signup(bob, 'Bob');
    const badge = async ({ page }) => {
      const loc = page.locator('a.tc-inbox-link .tc-unread');
      return (await loc.isVisible()) ? Number(await loc.textContent()) : 0;
    };
    const badgeIs = async (who, n, what) => {
      await who.page.waitForFunction((k) => {
        const s = document.querySelector('a.tc-inbox-link .tc-unread');
        return s && (k === 0 ? s.hidden : !s.hidden && s.textContent === String(k));
      }, n, { timeout: 15000 }).catch(() => undefined);
      assert((await badge(who)) === n, `${what}: the header says ${await badge(who)} unread, not ${n}`);
    };

    // Ann posts a 3-day correspondence seek as White and goes to read a variant page
    await ann.page.goto(`${b}/lobby`);
    await ann.page.selectOption('.tc-seek-form [name="variant"]', 'klein-bottle');
    await ann.page.selectOption('.tc-seek-form [name="clock"]', 'corr3');
    await ann.page.selectOption('.tc-seek-form [name="color"]', 'white');
    await ann.page.click('.tc-seek-form button[type="submit"]');
    await ann.page.waitForSelector('tr[data-seek]', { timeout: 10000 });
    const options = await ann.page.$$eval('.tc-seek-form [name="clock"] option', (os) => os.map((o) => o.value));
    for (const d of [1, 2, 3, 5, 7, 14]) assert(options.includes(`corr${d}`), `the seek form has no ${d}-day clock: ${options}`);
    await ann.page.goto(`${b}/v/klein-bottle`);
    await ann.page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert(await ann.page.locator('a.tc-inbox-link').isVisible(), "a player's header hides the inbox link");
    await badgeIs(ann, 0, 'Ann before anything happened');

    // Bob takes it from the lobby: Ann's header hears of it where she is
    await bob.page.goto(`${b}/lobby`);
    await bob.page.waitForSelector('tr[data-seek] button[type="submit"]', { timeout: 10000 });
    await Promise.all([bob.page.waitForURL(/\/game\/[0-9a-f]{16}#token=/), bob.page.click('tr[data-seek] button[type="submit"]')]);
    await badgeIs(ann, 1, 'Ann after Bob took her seek');

    // the home page: her games, her turn first
    await ann.page.goto(`${b}/`);
    const mine = ann.page.locator('.tc-my-games .tc-my-game.tc-my-turn');
    assert(await mine.count() === 1, 'the home page lists no game of Ann\'s turn');
    const line = await mine.first().textContent();
    assert(/Klein Bottle Chess against Bob \(you play White, your turn\) (3 days 0 h|2 days 23 h) left for the move/.test(line ?? ''), `the list says: ${line}`);
    const thumb = await mine.first().locator('svg').getAttribute('aria-label');
    assert(thumb === 'Klein Bottle Chess against Bob: the position now', `the card's board: ${thumb}`);
    await shot(ann.page, 'correspondence-home-1366', true);

    // the inbox page: the note, unread, and the count goes to 0 once shown
    await ann.page.goto(`${b}/inbox`);
    const item = ann.page.locator('.tc-inbox-item.tc-unread');
    assert(await item.count() === 1, 'the inbox shows no unread note');
    const text = await item.first().textContent();
    assert(/Bob accepted your seek: Klein Bottle Chess, 3 days a move; you play White: your move\./.test(text ?? ''), `the note says: ${text}`);
    await badgeIs(ann, 0, 'Ann after opening her inbox');
    await shot(ann.page, 'correspondence-inbox-1366');

    // from the note to the game, and a move: Bob, on his game page, hears of it
    await Promise.all([ann.page.waitForURL(/\/game\/[0-9a-f]{16}#token=/), item.first().locator('a').click()]);
    await ann.page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert((await ann.page.getAttribute('#tc-app', 'data-you')) === 'white', 'the note\'s link does not play White');
    await badgeIs(bob, 0, 'Bob before Ann moved');
    await clickCell(ann.page, 'e2');
    await clickCell(ann.page, 'e4');
    await badgeIs(bob, 1, 'Bob after Ann moved');
    await bob.page.goto(`${b}/inbox`);
    const bobText = await bob.page.locator('.tc-inbox-item.tc-unread').first().textContent();
    assert(/Your move against Ann in Klein Bottle Chess: they played e4 \(3 days a move\)\./.test(bobText ?? ''), `Bob's note: ${bobText}`);
    await shot(bob.page, 'correspondence-inbox-390', true);
    await bob.page.goto(`${b}/account`);
    assert(await bob.page.locator('.tc-my-games .tc-my-turn').count() === 1, "Bob's account page lists no game of his turn");
    await shot(bob.page, 'correspondence-account-390');
    await ann.page.goto(`${b}/account`);
    assert(await ann.page.locator('.tc-my-games .tc-my-game:not(.tc-my-turn)').count() === 1, "Ann's account page lists no game waiting for Bob");
    await shot(ann.page, 'correspondence-account-1366');
    for (const who of [ann, bob, visitor]) assert(!who.errors.length, who.errors.join('; '));
  } finally {
    await browser.close();
    srv.proc.kill();
  }
});
