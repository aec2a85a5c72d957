// Watchers in real Chromium for tests/server/haproxy.sh: opens a hosted
// game's page N times (one tab each, so that HAProxy's leastconn spreads
// their streams over the processes), prints "ready" once every page is
// live, then waits until every page shows PLIES moves. Records whether a
// page's stream dropped (data-live went "false") and came back, which is
// the page's own EventSource reconnecting: after a server process is
// killed, at least one must have. Prints one line of JSON and exits 0
// when every page got there, 1 otherwise.
// Usage: node proxy_watch.mjs URL TABS PLIES SECONDS
import { chromium } from 'playwright-core';

const [url, tabs, plies, seconds] = process.argv.slice(2);
const deadline = Date.now() + Number(seconds) * 1000;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
let code = 1;
try {
  const pages = [];
  for (let i = 0; i < Number(tabs); i++) {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('#tc-app[data-live="true"]', { timeout: 30000 });
    // remember a drop of the live stream, seen from the page's own attribute
    await page.evaluate(() => {
      const app = document.getElementById('tc-app');
      window.tcDropped = 0;
      new MutationObserver(() => {
        if (app.getAttribute('data-live') === 'false') window.tcDropped++;
      }).observe(app, { attributes: true, attributeFilter: ['data-live'] });
    });
    pages.push(page);
  }
  console.log('ready');
  const got = [];
  for (const page of pages) {
    const left = Math.max(1000, deadline - Date.now());
    await page.waitForFunction((n) => document.querySelectorAll('#tc-app [data-ply]').length === n, Number(plies), { timeout: left });
    await page.waitForSelector('#tc-app[data-live="true"]', { timeout: Math.max(1000, deadline - Date.now()) });
    got.push({ plies: Number(plies), dropped: await page.evaluate(() => window.tcDropped) });
  }
  console.log(JSON.stringify(got));
  code = 0;
} catch (e) {
  console.log(JSON.stringify({ error: String(e.message ?? e).split('\n')[0] }));
} finally {
  await browser.close().catch(() => {});
}
process.exit(code);
