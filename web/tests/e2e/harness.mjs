// The end-to-end tests' shared parts: the servers, the browser, helpers
// and the list of cases that the case files (cases-*.mjs) fill and
// run.mjs runs. See run.mjs for how to run them.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ARGS, freePort } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '../..');
const top = resolve(web, '..');
const BIN = resolve(web, process.env.TC_BIN ?? '../topochess');
const PAGES = resolve(web, process.env.TC_PAGES ?? '../variants');
const DIST = resolve(web, 'dist');
const SHOTS = process.env.TC_E2E_SHOTS ? resolve(process.env.TC_E2E_SHOTS) : mkdtempSync(join(tmpdir(), 'tc-e2e-shots-'));
const DOCS = process.env.TC_E2E_DOCS === '1';
const ONLY = process.env.TC_E2E_ONLY ?? '';
const MEASURE = process.argv.includes('--measure');
mkdirSync(SHOTS, { recursive: true });

const PRESETS = ['chess', 'cylinder', 'monteiro-cylinder', 'torus', 'mobius', 'klein-bottle', 'folding'];
const MOBIUS_SAMPLE = '1. d12 e11 2. c12 exc12 3. e12 g11';
// The same moves as cells to click (from, to).
const MOBIUS_CLICKS = [['d14', 'd12'], ['e9', 'e11'], ['c14', 'c12'], ['e11', 'c12'], ['e14', 'e12'], ['g9', 'g11']];


const scratch = mkdtempSync(join(tmpdir(), 'tc-e2e-db-'));
let nservers = 0;
async function startServer(pages, { port: fixed = 0, db = join(scratch, `games-${nservers++}.db`), dist = DIST, args = [] } = {}) {
  const port = fixed || (await freePort());
  const proc = spawn(BIN, ['serve', '--port', String(port), '--host', '127.0.0.1', '--pages', pages, '--static', dist, '--db', db, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) throw new Error(`topochess serve exited: ${stderr}`);
    try {
      const r = await fetch(`${base}/`);
      if (r.ok) return { base, proc, port, db };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill();
  throw new Error(`topochess serve did not answer on ${base}: ${stderr}`);
}

function cli(args) {
  return execFileSync(BIN, args, { encoding: 'utf8' }).trim();
}

class Check extends Error {}
function assert(cond, msg) {
  if (!cond) throw new Check(msg);
}

// ---------------------------------------------------------------- browser
const userData = mkdtempSync(join(tmpdir(), 'tc-e2e-profile-'));

let context;
let base;
let customBase;
/* The runner sets these once the servers and the browser are up; the
 * cases read them (live bindings). */
export function setEnv(e) {
  ({ context, base, customBase } = e);
}

async function openPage(url, { width = 1280, height = 900 } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  // The one error that is not the page's: the browser asks for
  // /favicon.ico, which the server does not have.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url ?? '')) errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => /\/favicon\.ico$/.test(r.url()) || errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

/* A page in a browser context of its own (its own cookies: one person),
 * its page errors and console errors collected (the favicon's aside). */
async function openContextPage(browser, width, height) {
  const ctx = await browser.newContext({ viewport: { width, height } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !/favicon/.test(m.location().url ?? '') && errors.push(`console: ${m.text()}`));
  return { page, errors };
}

/* Signs NAME up on the hub at base through its form; resolves on the
 * player page the form goes to. */
async function signUp(page, base, name) {
  await page.goto(`${base}/signup`);
  await page.fill('form[action="/signup"] [name="name"]', name);
  await page.fill('form[action="/signup"] [name="password"]', 'klein bottle pw');
  await page.fill('form[action="/signup"] [name="password2"]', 'klein bottle pw');
  await Promise.all([page.waitForURL(`**/@/${name}`), page.click('form[action="/signup"] button[type="submit"]')]);
}

async function fenOf(page) {
  return page.getAttribute('#tc-app .tc-board[data-fen]', 'data-fen');
}

async function plies(page) {
  return page.locator('#tc-app .tc-moves [data-ply]').count();
}

async function clickCell(page, name, root = '#tc-app') {
  await page.locator(`${root} [data-cell="${name}"]`).first().click();
}

async function playClicks(page, clicks) {
  for (const [from, to] of clicks) {
    const before = await plies(page);
    await clickCell(page, from);
    await clickCell(page, to);
    await page.waitForFunction((n) => document.querySelectorAll('#tc-app .tc-moves [data-ply]').length === n + 1, before);
  }
}

/** A legal move of the side to move, read off the board's own marks. */
async function someMove(page, prefer) {
  for (const from of prefer) {
    await clickCell(page, from);
    const dests = await page.locator('#tc-app [data-dest]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    if (dests.length) return [from, dests[0]];
  }
  return null;
}

async function open3d(page) {
  await page.click('#tc-app .tc-toolbar [data-action="view3d"]');
  await page.waitForSelector('#tc-app .tc-3d[data-pieces]', { timeout: 30000 });
  await page.waitForTimeout(300); // let the canvas present its frame (no result depends on it)
}

// ---------------------------------------------------------------- tests
const tests = [];
const test = (name, fn) => tests.push({ name, fn });


export { spawn, execFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, createServer, cpus, loadavg, tmpdir, dirname, join, resolve, fileURLToPath, gzipSync, chromium };
export { ARGS, BIN, Check, DIST, DOCS, MEASURE, MOBIUS_CLICKS, MOBIUS_SAMPLE, ONLY, PAGES, PRESETS, SHOTS, assert, base, cli, clickCell, context, customBase, fenOf, freePort, here, nservers, open3d, openContextPage, openPage, playClicks, signUp, plies, scratch, someMove, startServer, test, tests, top, userData, web };
