// The people on the hub end to end (issue 18's "done when"), for run.mjs:
// two browsers sign up, meet in the lobby and play a rated Klein-bottle
// game on the game page; the ratings are checked against Glicko-2 computed
// here from the paper, not by the server's code.
import { join } from 'node:path';
import { openContextPage, signUp } from './harness.mjs';

// Glicko-2 for one game, written from Glickman's paper ("Example of the
// Glicko-2 system", 2013) for this test: the server's own code is not
// used. Parameters as docs/accounts.md states them: tau 0.75, the
// deviation kept within 45..500.
export function glicko2(p, o, score, tau = 0.75) {
  const S = 173.7178;
  const mu = (p.r - 1500) / S, phi = p.rd / S, sigma = p.vol;
  const muJ = (o.r - 1500) / S, phiJ = o.rd / S;
  const g = 1 / Math.sqrt(1 + (3 * phiJ ** 2) / Math.PI ** 2);
  const E = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g ** 2 * E * (1 - E));
  const delta = v * g * (score - E);
  const a = Math.log(sigma ** 2);
  const f = (x) => (Math.exp(x) * (delta ** 2 - phi ** 2 - v - Math.exp(x))) / (2 * (phi ** 2 + v + Math.exp(x)) ** 2) - (x - a) / tau ** 2;
  let A = a, B;
  if (delta ** 2 > phi ** 2 + v) B = Math.log(delta ** 2 - phi ** 2 - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A), fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA), fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const sigma2 = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi ** 2 + sigma2 ** 2);
  const phi2 = 1 / Math.sqrt(1 / phiStar ** 2 + 1 / v);
  const mu2 = mu + phi2 ** 2 * g * (score - E);
  return { r: 1500 + S * mu2, rd: Math.min(500, Math.max(45, S * phi2)), vol: sigma2 };
}

// The "done when": two accounts sign up in two browsers; one posts
// a rated Klein-bottle seek, the other accepts it from the lobby, both land
// in the game; they play with clocks, chat, a draw offer is announced and
// declined, Black resigns; both ratings move as Glicko-2 says; a rematch is
// offered and accepted and both land in it with colours swapped; the
// archive and both player pages show the games.
export async function peopleTest({ startServer, clickCell, assert, Check, chromium, ARGS, SHOTS, PAGES, DOCS, top }) {
  // a screenshot to look at; with TC_E2E_DOCS=1 also the manual's small JPEG copy
  const shot = async (page, name, docName = '', fullPage = false) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
    if (DOCS && docName) await page.screenshot({ path: join(top, 'docs', `${docName}.jpg`), type: 'jpeg', quality: 60, fullPage });
  };
  const srv = await startServer(PAGES);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  const b = srv.base;
  try {
    const open = (width, height) => openContextPage(browser, width, height);
    const ann = await open(1366, 768);
    const bob = await open(390, 844);
    const signup = ({ page }, name) => signUp(page, b, name);
    await signup(ann, 'Ann');
    await signup(bob, 'Bob');
    // Ann: a rated Klein-bottle seek, 3+2, as White; she waits in the lobby
    await ann.page.goto(`${b}/lobby`);
    await ann.page.waitForSelector('body[data-ready="true"]');
    await ann.page.selectOption('.tc-seek-form [name="variant"]', 'klein-bottle');
    await ann.page.selectOption('.tc-seek-form [name="clock"]', '3+2');
    await ann.page.selectOption('.tc-seek-form [name="color"]', 'white');
    await ann.page.check('.tc-seek-form [name="rated"]');
    await ann.page.click('.tc-seek-form button[type="submit"]');
    await ann.page.waitForSelector('tr[data-seek]', { timeout: 10000 });
    await ann.page.waitForSelector('body[data-ready="true"]');
    // Bob accepts it from the lobby: both land in the game
    await bob.page.goto(`${b}/lobby`);
    await bob.page.waitForSelector('tr[data-seek] button[type="submit"]', { timeout: 10000 });
    await Promise.all([bob.page.waitForURL(/\/game\/[0-9a-f]{16}#token=/), bob.page.click('tr[data-seek] button[type="submit"]')]);
    await ann.page.waitForURL(/\/game\/[0-9a-f]{16}#token=/, { timeout: 15000 });
    for (const p of [ann, bob]) await p.page.waitForSelector('#tc-app[data-you]', { timeout: 30000 });
    const gid = ann.page.url().split('/game/')[1].split('#')[0];
    assert(bob.page.url().includes(`/game/${gid}`), 'the two players are in different games');
    assert((await ann.page.getAttribute('#tc-app', 'data-you')) === 'white', 'Ann does not play White');
    assert((await bob.page.getAttribute('#tc-app', 'data-you')) === 'black', 'Bob does not play Black');
    // names and ratings beside the board; Bob (Black) sees his own bar below
    const barText = async (p, s) => p.page.locator(`[data-player="${s}"] .tc-gp-name`).textContent();
    assert((await barText(bob, 'white')).includes('Ann') && (await barText(bob, 'white')).includes('1500?'), `White's bar: ${await barText(bob, 'white')}`);
    const boxes = async (p) => Promise.all(['white', 'black'].map(async (s) => (await p.page.locator(`[data-player="${s}"]`).boundingBox()).y));
    const [wyB, byB] = await boxes(bob);
    assert(wyB < byB, 'Black\'s page does not put Black below the board');
    const [wyA, byA] = await boxes(ann);
    assert(byA < wyA, 'White\'s page does not put White below the board');
    await shot(ann.page, 'game-1366');
    await shot(bob.page, 'game-390', '', true);
    // play with clocks
    const both = async (n) => {
      for (const p of [ann, bob])
        await p.page.waitForFunction((k) => document.querySelectorAll('#tc-app [data-ply]').length === k, n, { timeout: 20000 });
    };
    const mv = async (p, from, to, n) => {
      await clickCell(p.page, from);
      await clickCell(p.page, to);
      await both(n);
    };
    // a spectator: counted on both players' pages, without the players themselves
    const spec = await open(1366, 768);
    await spec.page.goto(`${b}/game/${gid}`);
    await spec.page.waitForSelector('#tc-app[data-you="watcher"]', { timeout: 30000 });
    await ann.page.waitForSelector('[data-spectators="1"]', { timeout: 10000 });
    await bob.page.waitForSelector('[data-spectators="1"]', { timeout: 10000 });
    assert(await spec.page.locator('[data-chat-input]').count() === 0, 'a watcher has a chat box');
    await spec.page.close();
    await ann.page.waitForSelector('[data-spectators="0"]', { timeout: 10000 });
    await mv(ann, 'e2', 'e4', 1);
    await mv(bob, 'e7', 'e5', 2);
    await mv(ann, 'g1', 'f3', 3);
    // Black's clock runs now (Fischer clocks start once each side has moved)
    await bob.page.waitForSelector('[data-clock="black"][data-running]', { timeout: 10000 });
    assert(await ann.page.locator('[data-player="black"][data-running]').count() === 1, 'the running clock is not highlighted');
    const ms0 = Number(await ann.page.getAttribute('[data-clock="black"]', 'data-ms'));
    await new Promise((r) => setTimeout(r, 1200));
    const ms1 = Number(await ann.page.getAttribute('[data-clock="black"]', 'data-ms'));
    assert(ms1 < ms0 && ms0 - ms1 > 500, `Black's clock does not run: ${ms0} -> ${ms1}`);
    await mv(bob, 'b8', 'c6', 4);
    // a draw offer, announced in words to both, declined
    await ann.page.click('[data-action="draw-offer"]');
    await bob.page.waitForSelector('[data-notice="White offers a draw."]', { timeout: 10000 });
    assert((await ann.page.getAttribute('[data-notice]', 'data-notice')) === 'You offered a draw.', 'Ann is not told her offer stands');
    await shot(bob.page, 'game-390-offer', 'game-page-390');
    await bob.page.click('[data-notice] [data-action="draw-decline"]');
    await ann.page.waitForSelector('[data-notice="Your draw offer was declined."]', { timeout: 10000 });
    // chat between the players, escaped
    await ann.page.fill('[data-chat-input]', '<img src=x onerror=alert(1)> good luck');
    await ann.page.click('[data-action="chat-send"]');
    await bob.page.waitForFunction(() => document.querySelector('[data-chat-lines] li')?.textContent?.includes('<img src=x'), null, { timeout: 10000 });
    assert(await bob.page.locator('[data-chat-lines] img').count() === 0, 'chat text became markup');
    const long = 'x'.repeat(281);
    const over = await fetch(`${b}/api/games/${gid}/chat`, { method: 'POST', body: JSON.stringify({ token: ann.page.url().split('#token=')[1], text: long }) });
    assert(over.status === 400, `an over-long chat line: ${over.status}`);
    const watcherChat = await fetch(`${b}/api/games/${gid}/chat`, { method: 'POST', body: JSON.stringify({ text: 'hi' }) });
    assert(watcherChat.status === 403, `chat without a token: ${watcherChat.status}`);
    await mv(ann, 'f1', 'c4', 5);
    await ann.page.evaluate(() => window.scrollTo(0, 0)); // the chat line typed above scrolled the page
    await shot(ann.page, 'game-1366-play', 'game-page-1366');
    // Bob resigns, with a confirmation: White wins
    assert(await bob.page.locator('[data-confirm]').isHidden(), 'the resign confirmation shows before a click');
    await bob.page.click('[data-action="resign"]');
    assert(await bob.page.locator('[data-confirm]').isVisible(), 'no resign confirmation');
    await bob.page.click('[data-action="resign-confirm"]');
    for (const p of [ann, bob]) await p.page.waitForSelector('#tc-app[data-game-status="ended"]', { timeout: 10000 });
    assert((await ann.page.locator('[data-result]').textContent()).includes('White wins (1-0)'), 'the result is not in words');
    // both ratings, as Glicko-2 says from the start values (1500, 500, 0.09)
    const start = { r: 1500, rd: 500, vol: 0.09 };
    const want = { Ann: glicko2(start, start, 1), Bob: glicko2(start, start, 0) };
    const ratingOf = async (name) => {
      for (let i = 0; i < 100; i++) {
        const html = await (await fetch(`${b}/@/${name}`)).text();
        const m = /<td class="tc-rating">(\d+)(?:<abbr[^>]*>\?<\/abbr>)?<\/td><td>(\d+)<\/td><td>(\d+)<\/td>/.exec(html);
        if (m) return { r: Number(m[1]), rd: Number(m[2]), games: Number(m[3]), html };
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Check(`no rating on ${name}'s page`);
    };
    for (const name of ['Ann', 'Bob']) {
      const got = await ratingOf(name);
      assert(got.r === Math.round(want[name].r) && got.rd === Math.round(want[name].rd) && got.games === 1,
        `${name}: ${got.r}/${got.rd} after ${got.games} games, Glicko-2 says ${want[name].r.toFixed(1)}/${want[name].rd.toFixed(1)}`);
      assert(got.html.includes(`/game/${gid}`), `${name}'s page does not show the game`);
    }
    assert(want.Ann.r > 1500 && want.Bob.r < 1500, 'the expected ratings did not move');
    // a rematch: offered by Ann, accepted by Bob; both land in it, colours swapped
    await ann.page.click('[data-action="rematch-offer"]');
    await bob.page.waitForSelector('[data-notice="White offers a rematch."]', { timeout: 10000 });
    await Promise.all([
      ann.page.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.includes(gid), { timeout: 15000 }),
      bob.page.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.includes(gid), { timeout: 15000 }),
      bob.page.click('[data-notice] [data-action="rematch-accept"]'),
    ]);
    for (const p of [ann, bob]) await p.page.waitForSelector('#tc-app[data-you]', { timeout: 30000 });
    const rid = ann.page.url().split('/game/')[1].split('#')[0];
    assert(bob.page.url().includes(`/game/${rid}`), 'the rematch put the players in different games');
    assert((await ann.page.getAttribute('#tc-app', 'data-you')) === 'black', 'Ann does not play Black in the rematch');
    assert((await bob.page.getAttribute('#tc-app', 'data-you')) === 'white', 'Bob does not play White in the rematch');
    // Ann again without the link's token (as from another browser of
    // hers): her session plays her side, with its CSRF token
    await ann.page.evaluate((id) => localStorage.removeItem(`tc-token-${id}`), rid);
    await ann.page.goto(`${b}/game/${rid}`);
    await ann.page.waitForSelector('#tc-app[data-you="black"]', { timeout: 30000 });
    await mv(bob, 'e2', 'e4', 1);
    await mv(ann, 'e7', 'e5', 2);
    // the chat is the players': a watcher reads it once both open it
    await ann.page.fill('[data-chat-input]', 'rematch, by session');
    await ann.page.click('[data-action="chat-send"]');
    await bob.page.waitForFunction(() => document.querySelector('[data-chat-lines]')?.textContent?.includes('rematch, by session'), null, { timeout: 10000 });
    const watcher = await open(1366, 768);
    await watcher.page.goto(`${b}/game/${rid}`);
    await watcher.page.waitForSelector('#tc-app[data-you="watcher"]', { timeout: 30000 });
    await watcher.page.click('[data-action="chat-show"]');
    await watcher.page.waitForSelector('[data-chat-closed]:not([hidden])', { timeout: 10000 });
    assert(!(await watcher.page.textContent('[data-chat]')).includes('rematch, by session'), 'a watcher read the closed chat');
    const direct = await fetch(`${b}/api/games/${rid}/chat`);
    assert(direct.status === 403, `the API gave a watcher the closed chat: ${direct.status}`);
    await ann.page.check('[data-chat-watchers]');
    await bob.page.check('[data-chat-watchers]');
    await watcher.page.waitForFunction(() => document.querySelector('[data-chat-lines]')?.textContent?.includes('rematch, by session'), null, { timeout: 10000 });
    await shot(watcher.page, 'game-1366-watcher-chat');
    // the home page sums the lobby up: games being played, a link to it
    await watcher.page.goto(`${b}/`);
    assert(Number(await watcher.page.textContent('.tc-live-count')) >= 1, 'the home page counts no game being played');
    await shot(watcher.page, 'home-1366-lobby');
    await watcher.page.close();
    // the archive lists both games with the players' names
    const arch = await (await fetch(`${b}/games?variant=klein-bottle`)).text();
    for (const id of [gid, rid]) assert(new RegExp(`data-game="${id}"[^\\n]*Ann[^\\n]*`).test(arch), `game ${id} not in the archive with its players`);
    assert(/data-game="[0-9a-f]+"[^\n]*Ann<\/a> <span class="tc-rating">\(\d+\?\)[^\n]*White won/.test(arch), 'the archive does not show the result in words');
    const archive = await open(1366, 768);
    await archive.page.goto(`${b}/games`);
    await shot(archive.page, 'archive-1366', 'archive-1366');
    await bob.page.goto(`${b}/games?player=ann`);
    await shot(bob.page, 'archive-390', 'archive-390');
    for (const name of ['Ann', 'Bob']) {
      const html = await (await fetch(`${b}/@/${name}`)).text();
      for (const id of [gid, rid]) assert(html.includes(id), `${name}'s page does not list game ${id}`);
    }
    for (const p of [ann, bob, archive]) assert(p.errors.length === 0, p.errors.join('; '));
  } finally {
    await browser.close().catch(() => {});
    srv.proc.kill();
  }
}
