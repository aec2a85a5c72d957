#!/usr/bin/env node
// The learned evaluation's search speed in wasm (Node) beside the native
// build: for each preset, a fixed-depth search from the start position with
// the hand-written evaluation and with a random net (H 256, L1 32, L2 32;
// written by the module, given to the native engine as --eval-file), the
// same tree on both sides (the node counts are printed to show it).
// Prints figures; asserts nothing.
//   make && make wasm && nice node bench/nnue-wasm.mjs [--depth D] [--smoke]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.SMOKE === '1';
const di = args.indexOf('--depth');
const DEPTH = di >= 0 ? Number(args[di + 1]) : smoke ? 4 : 8;
const HIDDEN = 256;
const wasmPath = resolve(process.env.TC_WASM ?? join(root, 'build/wasm/topochess.wasm'));
const bin = resolve(process.env.TC_BIN ?? join(root, 'topochess'));
for (const f of [wasmPath, bin]) if (!existsSync(f)) throw new Error(`${f} missing: run make && make wasm`);

let mem = null;
const imports = {
  env: { tc_host_info: () => {}, tc_host_poll: () => 0 },
  wasi_snapshot_preview1: {
    clock_time_get: (_id, _p, out) => {
      new DataView(mem.buffer).setBigUint64(out, BigInt(Math.round(performance.now() * 1e6)), true);
      return 0;
    },
    fd_write: () => 8, fd_close: () => 8, fd_seek: () => 8,
  },
};
const module = await WebAssembly.compile(readFileSync(wasmPath));
for (const im of WebAssembly.Module.imports(module)) // other WASI calls: "bad file descriptor"
  if (im.kind === 'function') (imports[im.module] ??= {})[im.name] ??= () => 8;
const instance = await WebAssembly.instantiate(module, imports);
const x = instance.exports;
mem = x.memory;
x._initialize();
const err = x.tcw_error_new();
const cstr = (s) => {
  const b = new TextEncoder().encode(s + '\0');
  const p = x.tcw_malloc(b.length);
  new Uint8Array(mem.buffer).set(b, p);
  return p;
};
const take = (p) => {
  const m = new Uint8Array(mem.buffer);
  let e = p;
  while (m[e]) e++;
  const s = new TextDecoder().decode(m.subarray(p, e));
  x.tcw_free(p);
  return s;
};

function wasmSearch(v, net) {
  const e = x.tcw_engine_new(v, 16);
  if (net) {
    const p = x.tcw_malloc(net.length);
    new Uint8Array(mem.buffer, p, net.length).set(net);
    if (x.tcw_engine_load_net(e, p, net.length, err)) throw new Error('net refused');
    x.tcw_free(p);
  } else x.tcw_engine_clear_net(e);
  const g = x.tcw_game_new(v);
  const t0 = performance.now();
  const r = JSON.parse(take(x.tcw_engine_search(e, g, DEPTH, 0, 0, 0, 0)));
  const ms = performance.now() - t0;
  x.tcw_game_free(g);
  x.tcw_engine_free(e);
  return { nodes: r.nodes, ms };
}

function nativeSearch(variant, netFile) {
  return new Promise((res, rej) => {
    const p = spawn(bin, ['uci', '--variant', variant, ...(netFile ? ['--eval-file', netFile] : [])]);
    let out = '';
    p.stdout.on('data', (d) => {
      out += d.toString();
      if (/^bestmove/m.test(out)) p.stdin.end('quit\n');
    });
    p.on('error', rej);
    p.on('close', () => {
      const last = out.split('\n').filter((l) => l.startsWith(`info depth ${DEPTH} `)).pop() ?? '';
      res({ nodes: Number(/ nodes (\d+)/.exec(last)?.[1]), ms: Number(/ time (\d+)/.exec(last)?.[1]) });
    });
    p.stdin.write(`${netFile ? '' : 'setoption name EvalFile value <none>\n'}setoption name Hash value 16\n`
      + `position startpos\ngo depth ${DEPTH}\n`);
  });
}

const presets = JSON.parse(take(x.tcw_presets_json())).map((p) => p.name ?? p.def?.name).filter(Boolean);
const list = smoke ? presets.slice(0, 2) : presets;
const dir = mkdtempSync(join(tmpdir(), 'tc-nnue-bench-'));
const knps = (r) => (r.ms > 0 ? Math.round(r.nodes / r.ms) : 0);
console.log(`search from the start position, depth ${DEPTH}; net: random, H ${HIDDEN}; Node ${process.version}`);
console.log('preset              native hand  native net   wasm hand    wasm net  (knps; nodes net: native/wasm)  wasm/native net');
const tot = { nh: [0, 0], nn: [0, 0], wh: [0, 0], wn: [0, 0] };
const add = (k, r) => { tot[k][0] += r.nodes; tot[k][1] += r.ms; };
for (const name of list) {
  const np = cstr(name);
  const v = x.tcw_variant_preset(np, err);
  x.tcw_free(np);
  const lp = x.tcw_malloc(4);
  const bp = x.tcw_nnue_random(v, HIDDEN, 7, lp);
  const net = new Uint8Array(mem.buffer, bp, new DataView(mem.buffer).getUint32(lp, true)).slice();
  x.tcw_free(bp);
  x.tcw_free(lp);
  const file = join(dir, `${name}.tcnn`);
  writeFileSync(file, net);
  const nh = await nativeSearch(name, null), nn = await nativeSearch(name, file);
  const wh = wasmSearch(v, null), wn = wasmSearch(v, net);
  add('nh', nh), add('nn', nn), add('wh', wh), add('wn', wn);
  console.log(`${name.padEnd(18)} ${String(knps(nh)).padStart(12)} ${String(knps(nn)).padStart(11)} `
    + `${String(knps(wh)).padStart(11)} ${String(knps(wn)).padStart(11)}  (${nn.nodes}/${wn.nodes})`
    + `  ${(knps(wn) / Math.max(1, knps(nn))).toFixed(2)}`);
  x.tcw_variant_free(v);
}
const k = (t) => Math.round(t[0] / Math.max(1, t[1]));
console.log(`${'total'.padEnd(18)} ${String(k(tot.nh)).padStart(12)} ${String(k(tot.nn)).padStart(11)} `
  + `${String(k(tot.wh)).padStart(11)} ${String(k(tot.wn)).padStart(11)}  `
  + `wasm/native: hand ${(k(tot.wh) / k(tot.nh)).toFixed(2)}, net ${(k(tot.wn) / k(tot.nn)).toFixed(2)}`);
rmSync(dir, { recursive: true, force: true });
