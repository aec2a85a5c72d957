#!/usr/bin/env node
// The learned evaluation's search speed in wasm (Node) beside the native
// build: for each preset, a fixed-depth search from the start position with
// the hand-written evaluation and with a random net (H 256, L1 32, L2 32,
// seed 7: the same bytes build/nnue_bench makes), the same tree on both
// sides (the node counts are printed to show it). Times are CPU time: the
// native figures come from build/nnue_bench, the wasm ones from Node's
// process CPU time (which also counts V8's compiler and GC threads, so it
// is on the wasm side's disadvantage). Prints figures; asserts nothing.
//   make nnue-bench wasm && nice node bench/nnue-wasm.mjs [--depth D] [--smoke]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.SMOKE === '1';
const di = args.indexOf('--depth');
const DEPTH = di >= 0 ? Number(args[di + 1]) : smoke ? 4 : 8;
const HIDDEN = 256;
const wasmPath = resolve(process.env.TC_WASM ?? join(root, 'build/wasm/topochess.wasm'));
const bin = resolve(process.env.TC_NNUE_BENCH ?? join(root, 'build/nnue_bench'));
for (const f of [wasmPath, bin]) if (!existsSync(f)) throw new Error(`${f} missing: run make nnue-bench wasm`);

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
  const t0 = process.cpuUsage();
  const r = JSON.parse(take(x.tcw_engine_search(e, g, DEPTH, 0, 0, 0, 0)));
  const cpu = process.cpuUsage(t0);
  const ms = (cpu.user + cpu.system) / 1000;
  x.tcw_game_free(g);
  x.tcw_engine_free(e);
  return { nodes: r.nodes, ms };
}

/** The native searches of build/nnue_bench: nodes and CPU ms per preset. */
function nativeSearches() {
  const r = spawnSync(bin, ['--depth', String(DEPTH), '--search-only', ...(smoke ? ['--smoke'] : [])],
    { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`nnue_bench failed: ${r.stderr}`);
  const out = new Map();
  for (const line of r.stdout.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length === 6 && /^\d+$/.test(f[1] ?? '')) {
      const [name, hn, hnps, nn, nnps] = [f[0], ...f.slice(1, 5).map(Number)];
      out.set(name, { hand: { nodes: hn, ms: hn / hnps * 1000 }, net: { nodes: nn, ms: nn / nnps * 1000 } });
    }
  }
  return out;
}

const presets = JSON.parse(take(x.tcw_presets_json())).map((p) => p.name ?? p.def?.name).filter(Boolean);
const list = smoke ? presets.slice(0, 2) : presets; // nnue_bench --smoke does the same two
const native = nativeSearches();
const knps = (r) => (r.ms > 0 ? Math.round(r.nodes / r.ms) : 0);
console.log(`search from the start position, depth ${DEPTH}, 16 MB hash; net: random (seed 7), H ${HIDDEN}; `
  + `Node ${process.version}; knps by CPU time`);
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
  const nat = native.get(name);
  if (!nat) throw new Error(`no native figures for ${name}`);
  const nh = nat.hand, nn = nat.net;
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
