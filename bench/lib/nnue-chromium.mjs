// Chromium's side of bench/nnue-wasm.mjs: headless /usr/bin/chromium (through
// web/'s playwright-core) loads bench/lib/nnue-wasm-core.mjs into a blank
// page and runs the same searches there, one page call a search; the CPU
// time of each is the renderer processes' CPU time around the call, as
// Chromium's DevTools protocol reports it (SystemInfo.getProcessInfo).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const CHROMIUM = process.env.TC_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

async function loadPlaywright() {
  try {
    const req = createRequire(join(root, 'web', 'package.json'));
    const mod = await import(pathToFileURL(req.resolve('playwright-core')).href);
    return mod.chromium ? mod : mod.default;
  } catch {
    return null;
  }
}

/** Seconds of CPU the renderer processes have used so far. */
async function rendererCpu(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return processInfo.filter((p) => p.type === 'renderer').reduce((s, p) => s + p.cpuTime, 0);
}

/**
 * Runs, for each preset of `names`, the hand-written and the net search at
 * `depth` in Chromium. Returns {version, results: Map name -> {hand, net}}
 * with {nodes, ms} each; results is empty (and version says why) when
 * Chromium or playwright-core is missing.
 */
export async function chromiumSearches(wasmBytes, names, depth, hidden) {
  const results = new Map();
  const pw = existsSync(CHROMIUM) ? await loadPlaywright() : null;
  if (!pw) return { version: `Chromium: not run (${existsSync(CHROMIUM) ? 'no playwright-core' : `no ${CHROMIUM}`})`, results };
  const browser = await pw.chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const cdp = await browser.newBrowserCDPSession();
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`chromium page: ${e.message}`));
    // the core as a classic function: its one `export` keyword dropped
    const core = readFileSync(join(here, 'nnue-wasm-core.mjs'), 'utf8').replace(/^export /m, '');
    await page.evaluate(`${core}\nwindow.makeBench = makeBench;`);
    await page.evaluate(async (b64) => {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      window.tcBench = await window.makeBench(bytes);
    }, Buffer.from(wasmBytes).toString('base64'));
    const one = async (name, h) => {
      const id = await page.evaluate(([n, w]) => window.tcBench.prepare(n, w), [name, h]);
      const t0 = await rendererCpu(cdp);
      const nodes = await page.evaluate(([i, d]) => window.tcBench.run(i, d), [id, depth]);
      const ms = (await rendererCpu(cdp) - t0) * 1000;
      await page.evaluate((i) => window.tcBench.release(i), id);
      return { nodes, ms };
    };
    // warm-up, both evaluations: V8 tiers hot wasm code up while it runs
    await one(names[0], 0);
    await one(names[0], hidden);
    for (const name of names) results.set(name, { hand: await one(name, 0), net: await one(name, hidden) });
    return { version: `Chromium ${browser.version()}`, results };
  } finally {
    await browser.close();
  }
}
