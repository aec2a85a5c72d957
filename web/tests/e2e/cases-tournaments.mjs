// End-to-end case of the tournaments (issue 31, docs/tournaments.md) in
// the browser: a player makes an arena from the form, a second joins from
// its page, the pairer starts it and pairs them at its next beat, both
// pages go into the game on their own, the inbox says it starts, and a
// watcher's page shows the standings with both playing; then the game is
// played to a result through the API, and the watchers' open pages show
// it from the tournament's event stream (no reload, no polling).
// Screenshots of the list and of the tournament at 1366x768 and 390x844.
import { execFileSync } from 'node:child_process';
import { ARGS, DOCS, PAGES, SHOTS, assert, chromium, join, openContextPage, signUp, startServer, test, top } from './harness.mjs';

test('tournaments: an arena made and joined in two browsers starts, pairs them and shows its standings', async () => {
  const srv = await startServer(PAGES);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  const b = srv.base;
  const shot = async (page, name) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    if (DOCS) await page.screenshot({ path: join(top, 'docs', `${name}.jpg`), type: 'jpeg', quality: 60 });
  };
  try {
    const open = (width, height) => openContextPage(browser, width, height);
    const ann = await open(1366, 768);
    const bob = await open(390, 844);
    const watcher = await open(1366, 768);
    const watcherPhone = await open(390, 844);
    await signUp(ann.page, b, 'Ann');
    await signUp(bob.page, b, 'Bob');
    // Ann makes a 5-minute Klein bottle arena that starts at the pairer's next beat (starts_in 0)
    await ann.page.goto(`${b}/tournaments`);
    await ann.page.fill('form[action="/tournaments/new"] [name="name"]', 'Klein bottle blitz');
    await ann.page.selectOption('form[action="/tournaments/new"] [name="variant"]', 'klein-bottle');
    await ann.page.selectOption('form[action="/tournaments/new"] [name="clock"]', '3+2');
    await ann.page.fill('form[action="/tournaments/new"] [name="starts_in"]', '0');
    await ann.page.fill('form[action="/tournaments/new"] [name="minutes"]', '5');
    await Promise.all([ann.page.waitForURL(/\/tournament\/[0-9a-z]+$/), ann.page.click('form[action="/tournaments/new"] button[type="submit"]')]);
    const url = ann.page.url();
    const id = url.split('/').pop();
    await ann.page.click(`form[action="/tournament/${id}/join"] button`);
    await ann.page.waitForURL(url);
    await bob.page.goto(url);
    await bob.page.click(`form[action="/tournament/${id}/join"] button`);
    await bob.page.waitForURL(url);
    await watcherPhone.page.goto(`${b}/tournaments`);
    await shot(watcherPhone.page, 'tournaments-390');
    const api = await (await fetch(`${b}/api/tournament/${id}`)).json();
    assert(api.players === 2, `${api.players} players`);
    // Ann's inbox: the tournament starts (told once, to those who joined)
    await ann.page.waitForFunction(() => {
      const s = document.querySelector('a.tc-inbox-link .tc-unread');
      return s && !s.hidden && Number(s.textContent) >= 1;
    }, null, { timeout: 15000 });
    const note = await ann.page.evaluate(async () => (await (await fetch('/api/inbox')).json()).notifications[0]);
    assert(note.kind === 'tournament' && /^Klein bottle blitz starts (now|in 1 minute)\.$/.test(note.text), `Ann's note: ${JSON.stringify(note)}`);
    // both pages go into their game on their own once it starts (the pairer, a beat after the start)
    await Promise.all([
      ann.page.waitForURL(/\/game\/[0-9a-f]{16}/, { timeout: 120000 }),
      bob.page.waitForURL(/\/game\/[0-9a-f]{16}/, { timeout: 120000 }),
    ]);
    const game = ann.page.url().match(/\/game\/([0-9a-f]{16})/)[1];
    assert(bob.page.url().includes(game), 'Ann and Bob are in different games');
    const pgn = await (await fetch(`${b}/api/games/${game}/pgn`)).text();
    assert(pgn.includes('[Event "Klein bottle blitz"]'), `the game's PGN: ${pgn.slice(0, 200)}`);
    // a watcher sees both playing, at both sizes
    for (const w of [watcher, watcherPhone]) {
      await w.page.goto(url);
      await w.page.waitForFunction(() => document.querySelectorAll('#tc-standings tbody tr').length === 2, null, { timeout: 15000 });
      const rows = await w.page.locator('#tc-standings tbody tr').allTextContents();
      assert(rows.some((r) => r.includes('Ann')) && rows.some((r) => r.includes('Bob')), `standings: ${rows}`);
    }
    // the watchers' pages read the tournament from its stream only
    const polls = [];
    for (const w of [watcher, watcherPhone]) {
      w.page.on('request', (rq) => {
        if (rq.url().endsWith(`/api/tournament/${id}`)) polls.push(rq.url());
      });
    }
    // two plies through the API (legal moves from the command), then White
    // resigns: each player's page acts with its session and CSRF token
    const act = (pg, action, body) => pg.evaluate(async ([g, a, bd]) => {
      const csrf = (await (await fetch('/api/account')).json()).csrf;
      const res = await fetch(`/api/games/${g}/${a}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
        body: JSON.stringify(bd),
      });
      return { status: res.status, st: await res.json() };
    }, [game, action, body]);
    const state0 = await ann.page.evaluate(async (g) => (await fetch(`/api/games/${g}`)).json(), game);
    const seat = { [state0.you]: ann.page, [state0.you === 'white' ? 'black' : 'white']: bob.page };
    let st = state0;
    for (const side of ['white', 'black']) {
      const move = execFileSync(join(top, 'topochess'), ['moves', '--variant', 'klein-bottle', '--fen', st.fen, '--uci'])
        .toString().trim().split('\n')[0];
      const r = await act(seat[side], 'move', { move });
      assert(r.status === 200, `${side} ${move}: ${r.status} ${JSON.stringify(r.st)}`);
      st = r.st;
    }
    const r = await act(seat.white, 'resign', {});
    assert(r.status === 200 && r.st.result === '0-1', `resign: ${r.status} ${JSON.stringify(r.st)}`);
    const black = state0.you === 'black' ? 'Ann' : 'Bob';
    for (const w of [watcher, watcherPhone]) {
      await w.page.waitForFunction((name) => [...document.querySelectorAll('#tc-standings tbody tr')]
        .some((r) => r.textContent.includes(name) && r.children[2].textContent === '2'), black, { timeout: 15000 });
      await w.page.waitForFunction(() => [...document.querySelectorAll('#tc-tourney-games tbody tr')]
        .some((r) => r.textContent.includes('0-1')), null, { timeout: 15000 });
    }
    assert(!polls.length, `the pages polled: ${polls.length}`);
    await shot(watcher.page, 'tournament-1366');
    await shot(watcherPhone.page, 'tournament-390');
    for (const who of [ann, bob, watcher, watcherPhone]) assert(!who.errors.length, who.errors.join('; '));
  } finally {
    await browser.close();
    srv.proc.kill();
  }
});
