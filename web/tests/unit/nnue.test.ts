// The learned evaluation in the wasm build (SIMD128 kernels) against the
// native build (AVX2/SSE2): the same random net, written by the module and
// given to the native engine with --eval-file, must give the same static
// evaluation on every position of a game, and the same fixed-depth search
// (node count and move), which also shows that the accumulator the wasm
// search updates in make/unmake stays right. Two of the nets are hybrid
// (flags bit 0): the hand-written evaluation is added to their output.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topochess } from '../../src/lib/topochess';
import { BIN, randomNet as makeNet, tc } from './helpers';

let T: Topochess;
let dir: string;

beforeAll(async () => {
  T = await tc();
  dir = mkdtempSync(join(tmpdir(), 'tc-nnue-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A random net for the variant, made by the module: its bytes. */
function randomNet(vptr: number, hidden: number, seed: number): Uint8Array {
  return makeNet(T, vptr, hidden, seed);
}

/** CRC-32 (zlib's), the checksum a net file ends with. */
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** The same net made hybrid: the flags word (bytes 36..39) set to 1. */
function makeHybrid(net: Uint8Array): Uint8Array {
  const b = net.slice();
  b[36] = 1;
  new DataView(b.buffer).setUint32(b.length - 4, crc32(b.subarray(0, b.length - 4)), true);
  return b;
}

/** Loads net bytes into a wasm engine; the library's answer. */
function loadNet(engine: number, bytes: Uint8Array): number {
  const x = T.m.x;
  const ptr = x.tcw_malloc(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  const r = x.tcw_engine_load_net(engine, ptr, bytes.length, T.m.err);
  x.tcw_free(ptr);
  return r;
}

/** The native engine's answers to a UCI script with the net file given. */
function nativeUci(variant: string, net: string, script: string): string {
  const r = spawnSync(BIN, ['uci', '--variant', variant, '--eval-file', net], {
    input: script + 'quit\n', encoding: 'utf8', timeout: 120_000,
  });
  expect(r.status).toBe(0);
  return r.stdout;
}

/** A native search to a depth: the UCI output up to bestmove (the loop
 * stops a search at the end of its input, so quit waits for the answer). */
function nativeSearch(variant: string, net: string, script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(BIN, ['uci', '--variant', variant, '--eval-file', net], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => { c.kill(); reject(new Error(`no bestmove:\n${out}`)); }, 120_000);
    c.stdout.setEncoding('utf8');
    c.stdout.on('data', (d: string) => {
      out += d;
      if (/^bestmove /m.test(out)) c.stdin.end('quit\n');
    });
    c.on('close', () => { clearTimeout(timer); resolve(out); });
    c.stdin.write(script);
  });
}

describe('NNUE in wasm', () => {
  for (const [variant, seed, hybrid] of [['chess', 1, false], ['klein-bottle', 2, true], ['torus', 3, false],
    ['folding', 4, true]] as const) {
    it(`evaluates and searches like the native build (${variant}${hybrid ? ', hybrid net' : ''})`, async () => {
      const v = T.variant({ preset: variant });
      const net = hybrid ? makeHybrid(randomNet(v.ptr, 64, seed)) : randomNet(v.ptr, 64, seed);
      const file = join(dir, `${variant}.tcnn`);
      writeFileSync(file, net);
      const x = T.m.x;
      const e = x.tcw_engine_new(v.ptr, 4);
      expect(loadNet(e, net)).toBe(0);
      expect(x.tcw_engine_has_net(e)).toBe(1);

      // a game of a few plies, the same moves on both sides
      const g = v.game();
      const fens: string[] = [];
      const wasmEval: number[] = [];
      const handEval: number[] = [];
      const h = x.tcw_engine_new(v.ptr, 4);
      x.tcw_engine_clear_net(h);
      for (let i = 0; i < 12; i++) {
        fens.push(g.fen());
        wasmEval.push(x.tcw_engine_evaluate(e, g.ptr));
        handEval.push(x.tcw_engine_evaluate(h, g.ptr));
        const moves = g.legalMoves();
        if (!moves.length) break;
        g.play(moves[(i * 7 + seed) % moves.length]!.san);
      }
      const out = nativeUci(variant, file, fens.map((f) => `position fen ${f}\neval\n`).join(''));
      expect(out).toContain(`info string evaluation: ${hybrid ? 'hand-written + hybrid ' : ''}net 'random'`);
      const nativeEval = [...out.matchAll(/^info string eval (-?\d+) /gm)].map((m) => Number(m[1]));
      expect(nativeEval).toEqual(wasmEval);
      if (hybrid) {
        // the native engine's hand part is the wasm engine's hand-written evaluation
        const parts = [...out.matchAll(/^info string eval (-?\d+) \(hand (-?\d+) \+ net (-?\d+) = /gm)];
        expect(parts.map((m) => Number(m[2]))).toEqual(handEval);
        expect(parts.map((m) => Number(m[2]) + Number(m[3]))).toEqual(wasmEval);
      }
      // the net is what evaluates: its values are not the hand-written ones
      expect(wasmEval).not.toEqual(handEval);

      // a fixed-depth search walks the same tree only if every evaluation
      // along it (incremental in the search) is the same
      const fen = fens[fens.length - 1]!;
      g.setFen(fen);
      const depth = 5;
      const res = T.m.takeJson<{ best: string; nodes: number }>(x.tcw_engine_search(e, g.ptr, depth, 0, 0, 0, 0, 1));
      const nat = await nativeSearch(variant, file, `setoption name Hash value 4\nposition fen ${fen}\ngo depth ${depth}\n`);
      const nodes = [...nat.matchAll(/^info depth \d+ .* nodes (\d+) /gm)].map((m) => Number(m[1]));
      const best = /^bestmove (\S+)/m.exec(nat)?.[1];
      expect(res).not.toBeNull();
      expect(res!.best).toBe(best);
      expect(res!.nodes).toBe(nodes[nodes.length - 1]);

      x.tcw_engine_free(e);
      x.tcw_engine_free(h);
      g.free();
      v.free();
    });
  }

  it('refuses a damaged net and keeps the hand-written evaluation', () => {
    const v = T.variant({ preset: 'chess' });
    const net = randomNet(v.ptr, 32, 9);
    const mid = net.length >> 1;
    net[mid] = (net[mid] ?? 0) ^ 1;
    const x = T.m.x;
    const e = x.tcw_engine_new(v.ptr, 1);
    expect(loadNet(e, net)).toBe(-1);
    expect(T.m.error()).toMatch(/checksum/);
    expect(x.tcw_engine_has_net(e)).toBe(0);
    x.tcw_engine_free(e);
    v.free();
  });
});
