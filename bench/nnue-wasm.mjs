#!/usr/bin/env node
// The learned evaluation's search speed in wasm, in Node and in Chromium,
// beside the native build: for each preset, a fixed-depth search from the start position with
// the hand-written evaluation and with a random net (H 256, L1 32, L2 32,
// seed 7: the same bytes build/nnue_bench makes), the same tree on both
// sides (the node counts are printed to show it). Times are CPU time: the
// native figures come from build/nnue_bench, the wasm ones from Node's
// process CPU time and from the CPU time of Chromium's renderer processes
// (both also count V8's compiler and GC threads, so they are on the wasm
// side's disadvantage). The wasm code is bench/lib/nnue-wasm-core.mjs in
// both; Chromium runs it in a blank page (bench/lib/nnue-chromium.mjs;
// its columns say '-' when /usr/bin/chromium or playwright-core is
// missing). Prints figures; asserts nothing.
//   make nnue-bench wasm && nice node bench/nnue-wasm.mjs [--depth D] [--smoke]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBench } from './lib/nnue-wasm-core.mjs';
import { chromiumSearches } from './lib/nnue-chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.SMOKE === '1';
const di = args.indexOf('--depth');
const DEPTH = di >= 0 ? Number(args[di + 1]) : smoke ? 4 : 8;
const HIDDEN = 256;
const wasmPath = resolve(process.env.TC_WASM ?? join(root, 'build/wasm/topochess.wasm'));
const bin = resolve(process.env.TC_NNUE_BENCH ?? join(root, 'build/nnue_bench'));
for (const f of [wasmPath, bin]) if (!existsSync(f)) throw new Error(`${f} missing: run make nnue-bench wasm`);

const bytes = readFileSync(wasmPath);
const node = await makeBench(bytes);

/** One search in Node: nodes and the process's CPU ms around it. */
function wasmSearch(name, hidden) {
  const h = node.prepare(name, hidden);
  const t0 = process.cpuUsage();
  const nodes = node.run(h, DEPTH);
  const cpu = process.cpuUsage(t0);
  node.release(h);
  return { nodes, ms: (cpu.user + cpu.system) / 1000 };
}

/** The native searches of build/nnue_bench: nodes and CPU ms per preset. */
function nativeSearches() {
  const r = spawnSync(bin, ['--depth', String(DEPTH), '--search-only', ...(smoke ? ['--smoke'] : [])],
    { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`nnue_bench failed: ${r.stderr}`);
  const out = new Map();
  for (const line of r.stdout.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 6 && /^\d+$/.test(f[1] ?? '')) { // name, hand nodes, nps, net nodes, nps, ratio[, hybrid]
      const [name, hn, hnps, nn, nnps] = [f[0], ...f.slice(1, 5).map(Number)];
      out.set(name, { hand: { nodes: hn, ms: hn / hnps * 1000 }, net: { nodes: nn, ms: nn / nnps * 1000 } });
    }
  }
  return out;
}

const list = smoke ? node.presets.slice(0, 2) : node.presets; // nnue_bench --smoke does the same two
wasmSearch(list[0], 0); // warm-up, both evaluations: V8 tiers hot wasm code up while it runs
wasmSearch(list[0], HIDDEN);
const native = nativeSearches();
const chrome = await chromiumSearches(bytes, list, DEPTH, HIDDEN);
const knps = (r) => (r && r.ms > 0 ? Math.round(r.nodes / r.ms) : 0);
console.log(`search from the start position, depth ${DEPTH}, 16 MB hash; net: random (seed 7), H ${HIDDEN}; `
  + `Node ${process.version}; ${chrome.version}; knps by CPU time`);
console.log('preset              native hand  native net   wasm hand    wasm net  chrome hand  chrome net'
  + '  (nodes net: native/wasm/chrome)  wasm/native, chrome/native net');
const tot = { nh: [0, 0], nn: [0, 0], wh: [0, 0], wn: [0, 0], ch: [0, 0], cn: [0, 0] };
const add = (k, r) => { if (r) { tot[k][0] += r.nodes; tot[k][1] += r.ms; } };
const col = (r, w) => String(r ? knps(r) : '-').padStart(w);
for (const name of list) {
  const nat = native.get(name);
  if (!nat) throw new Error(`no native figures for ${name}`);
  const nh = nat.hand, nn = nat.net;
  const wh = wasmSearch(name, 0), wn = wasmSearch(name, HIDDEN);
  const ch = chrome.results.get(name)?.hand, cn = chrome.results.get(name)?.net;
  add('nh', nh), add('nn', nn), add('wh', wh), add('wn', wn), add('ch', ch), add('cn', cn);
  console.log(`${name.padEnd(18)} ${col(nh, 12)} ${col(nn, 11)} ${col(wh, 11)} ${col(wn, 11)} ${col(ch, 12)} `
    + `${col(cn, 11)}  (${nn.nodes}/${wn.nodes}/${cn ? cn.nodes : '-'})`
    + `  ${(knps(wn) / Math.max(1, knps(nn))).toFixed(2)}, ${cn ? (knps(cn) / Math.max(1, knps(nn))).toFixed(2) : '-'}`);
}
const k = (t) => Math.round(t[0] / Math.max(1, t[1]));
const ratio = (a, b) => (a[1] > 0 ? (k(a) / k(b)).toFixed(2) : '-');
console.log(`${'total'.padEnd(18)} ${String(k(tot.nh)).padStart(12)} ${String(k(tot.nn)).padStart(11)} `
  + `${String(k(tot.wh)).padStart(11)} ${String(k(tot.wn)).padStart(11)} ${String(k(tot.ch)).padStart(12)} `
  + `${String(k(tot.cn)).padStart(11)}  wasm/native: hand ${ratio(tot.wh, tot.nh)}, net ${ratio(tot.wn, tot.nn)}; `
  + `chrome/native: hand ${ratio(tot.ch, tot.nh)}, net ${ratio(tot.cn, tot.nn)}`);
