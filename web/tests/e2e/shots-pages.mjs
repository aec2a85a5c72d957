// Screenshots of the home page and of the four seed pages imported, at
// 1366x768 and 390x844, for docs/ and for looking at them:
//   node web/tests/e2e/shots-pages.mjs BASE_URL OUT_DIR
// The hub must already be running (tests/server/pages.sh shows how the seed
// pages are imported). Full-page shots; nothing is asserted.
import { chromium } from 'playwright-core';
import { ARGS } from './browser.mjs';

const [base, out] = process.argv.slice(2);
if (!base || !out) {
  console.error('usage: node web/tests/e2e/shots-pages.mjs BASE_URL OUT_DIR');
  process.exit(2);
}
const pages = {
  home: '/',
  klein: '/v/klein-bottle-chess',
  mobius: '/v/mobius-strip-chess',
  glued: '/v/chess-in-a-cylindrical-board-but-glued-in-a-non-stardard-way',
  folding: '/v/folding-magnetic-chess',
  filtered: '/?size=8x14',
};
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
try {
  for (const [w, h] of [[1366, 768], [390, 844]]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h } });
    const page = await ctx.newPage();
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(base + path, { waitUntil: 'load' });
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${out}/${name}-${w}.png`, fullPage: true });
      await page.screenshot({ path: `${out}/${name}-${w}-top.png` });
    }
    await ctx.close();
  }
} finally {
  await browser.close();
}
