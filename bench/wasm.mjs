#!/usr/bin/env node
// The wasm module beside the native build: perft 4 on klein-bottle (best of
// N runs), the engine's nodes per second on a fixed-depth search (the same
// tree on both: the search is deterministic), and the module's size.
// Runs in Node, and in Chromium when playwright-core and /usr/bin/chromium
// are there. Prints figures; asserts nothing.
//   make && make wasm && nice -n 10 node bench/wasm.mjs [--runs N] [--depth D]
// SMOKE=1 (make bench-smoke): one round, perft 3, search depth 4, Node only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { wasiHost } from '../web/src/lib/wasi-host.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const SMOKE = process.env.SMOKE === '1';
const RUNS = opt('--runs', SMOKE ? 1 : 5);
const SEARCH_DEPTH = opt('--depth', SMOKE ? 4 : 9);
const VARIANT = 'klein-bottle';
const PERFT_DEPTH = SMOKE ? 3 : 4;
const wasmPath = resolve(process.env.TC_WASM ?? join(root, 'build/wasm/topochess.wasm'));
const bin = resolve(process.env.TC_BIN ?? join(root, 'topochess'));
for (const f of [wasmPath, bin]) if (!existsSync(f)) throw new Error(`${f} missing: run make && make wasm`);
const bytes = readFileSync(wasmPath);

// Runs in Node and, serialised, in the page: sets up the raw exports with
// the pages' own WASI host functions (web/src/lib/wasi-host.js, passed in
// as the function wasi) and returns two timers.
async function setup(wasm, variant, wasi) {
  let mem = null;
  const now = () => performance.now();
  const imports = {
    env: { tc_host_info: () => {}, tc_host_poll: () => 0 },
    wasi_snapshot_preview1: wasi(() => mem, now),
  };
  const { instance } = await WebAssembly.instantiate(wasm, imports);
  const x = instance.exports;
  mem = x.memory;
  x._initialize();
  const err = x.tcw_error_new();
  const name = new TextEncoder().encode(variant + '\0');
  const np = x.tcw_malloc(name.length);
  new Uint8Array(mem.buffer).set(name, np);
  const v = x.tcw_variant_preset(np, err);
  const p = x.tcw_game_new(v);
  globalThis.tcBench = {
    perft(depth) {
      const t0 = now();
      const nodes = x.tcw_game_perft(p, depth);
      return { nodes, ms: now() - t0 };
    },
    search(depth) {
      const e = x.tcw_engine_new(v, 16);
      const t0 = now();
      const out = x.tcw_engine_search(e, p, depth, 0, 0, 0, 0, 1);
      const ms = now() - t0;
      const m8 = new Uint8Array(mem.buffer);
      let end = out;
      while (m8[end]) end++;
      const r = JSON.parse(new TextDecoder().decode(m8.subarray(out, end)));
      x.tcw_free(out);
      x.tcw_engine_free(e);
      return { nodes: r.nodes, ms, best: r.best };
    },
  };
}

function nativePerft() {
  const r = spawnSync(bin, ['perft', String(PERFT_DEPTH), '--variant', VARIANT], { encoding: 'utf8' });
  const out = r.stdout + r.stderr; // the timing line goes to stderr
  return { nodes: Number(/nodes:\s+(\d+)/.exec(out)[1]), ms: Number(/time:\s+([\d.]+) s/.exec(out)[1]) * 1000 };
}

function nativeSearch() {
  return new Promise((res, rej) => {
    const p = spawn(bin, ['uci']);
    let out = '';
    p.stdout.on('data', (d) => {
      out += d.toString();
      if (/^bestmove/m.test(out)) p.stdin.end('quit\n');
    });
    p.on('error', rej);
    p.on('close', () => {
      const last = out.split('\n').filter((l) => l.startsWith(`info depth ${SEARCH_DEPTH} `)).pop();
      res({
        nodes: Number(/ nodes (\d+)/.exec(last)[1]),
        ms: Number(/ time (\d+)/.exec(last)[1]),
        best: /^bestmove (\S+)/m.exec(out)[1],
      });
    });
    p.stdin.write(`uci\nsetoption name UCI_Variant value ${VARIANT}\nsetoption name Hash value 16\nisready\n`
      + `position startpos\ngo depth ${SEARCH_DEPTH}\n`);
  });
}

/** A Chromium page with the module set up, or null. */
async function chromium() {
  let pw;
  try {
    pw = createRequire(join(root, 'web/package.json'))('playwright-core');
  } catch {
    return null;
  }
  if (!existsSync('/usr/bin/chromium')) return null;
  const profile = mkdtempSync(join(tmpdir(), 'tc-bench-chromium-'));
  const ctx = await pw.chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await ctx.newPage();
  await page.setContent('<!doctype html><title>bench</title>');
  await page.evaluate(async ({ src, wasiSrc, b64, variant }) => {
    const wasm = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const wasi = new Function(`return (${wasiSrc})`)();
    await new Function(`return (${src})`)()(wasm, variant, wasi);
  }, { src: setup.toString(), wasiSrc: wasiHost.toString(), b64: bytes.toString('base64'), variant: VARIANT });
  return {
    version: ctx.browser()?.version() ?? 'unknown',
    perft: (d) => page.evaluate((depth) => globalThis.tcBench.perft(depth), d),
    search: (d) => page.evaluate((depth) => globalThis.tcBench.search(depth), d),
    close: async () => {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const mnps = (n, ms) => (n / ms / 1000).toFixed(2);
const knps = (n, ms) => Math.round(n / ms);
const pct = (a, b) => `${Math.round((100 * a) / b)}%`;

await setup(bytes, VARIANT, wasiHost);
const node = { perft: async (d) => globalThis.tcBench.perft(d), search: async (d) => globalThis.tcBench.search(d) };
const chrome = SMOKE ? null : await chromium();
const targets = [['native', { perft: async () => nativePerft(), search: () => nativeSearch() }], ['node', node],
  ...(chrome ? [['chromium', chrome]] : [])];
// Rounds interleave the builds, so that load from elsewhere on the machine
// falls on all of them alike; the best round of each counts.
const perft = Object.fromEntries(targets.map(([n]) => [n, { nodes: 0, ms: Infinity }]));
for (let i = 0; i < RUNS; i++) {
  for (const [n, t] of targets) {
    const r = await t.perft(PERFT_DEPTH);
    if (r.ms < perft[n].ms) perft[n] = r;
  }
}
const search = {};
for (const [n, t] of targets) search[n] = await t.search(SEARCH_DEPTH);
if (chrome) await chrome.close();
const nat = perft.native, natS = search.native;

console.log(`wasm module: ${relative(root, wasmPath)}`);
console.log(`  size ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} bytes gzip -9`);
console.log(`perft ${PERFT_DEPTH} on ${VARIANT} start (best of ${RUNS} interleaved rounds):`);
console.log(`  native   ${nat.nodes} nodes  ${nat.ms.toFixed(1)} ms  ${mnps(nat.nodes, nat.ms)} Mnps`);
const rows = targets.slice(1).map(([n]) => n);
for (const name of rows) {
  const r = perft[name];
  const same = r.nodes === nat.nodes ? '' : '  (COUNT DIFFERS)';
  console.log(`  wasm ${name.padEnd(8)} ${r.nodes} nodes  ${r.ms.toFixed(1)} ms  ${mnps(r.nodes, r.ms)} Mnps`
    + `  = ${pct(nat.ms, r.ms)} of native${same}`);
}
console.log(`engine search, depth ${SEARCH_DEPTH} on ${VARIANT} start, 16 MiB hash, one thread:`);
console.log(`  native   ${natS.nodes} nodes  ${natS.ms} ms  ${knps(natS.nodes, natS.ms)} knps  best ${natS.best}`);
for (const name of rows) {
  const r = search[name];
  const same = r.nodes === natS.nodes ? 'same tree' : 'DIFFERENT TREE';
  console.log(`  wasm ${name.padEnd(8)} ${r.nodes} nodes  ${r.ms.toFixed(0)} ms  ${knps(r.nodes, r.ms)} knps`
    + `  best ${r.best}  = ${pct(r.nodes / r.ms, natS.nodes / natS.ms)} of native (${same})`);
}
if (chrome) console.log(`chromium: ${chrome.version}`);
else console.log(SMOKE ? 'chromium: not measured (smoke mode)' : 'chromium: not measured (playwright-core or /usr/bin/chromium missing)');
