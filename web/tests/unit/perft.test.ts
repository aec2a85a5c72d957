// Perft through the wasm build on every position of tests/data/perft/*.epd:
// the counts must be those in the files (from an independent implementation
// of docs/rules.md), and a few are also checked against the native build.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Topochess } from '../../src/lib/topochess';
import { epdLines, native, tc } from './helpers';

let T: Topochess;
beforeAll(async () => {
  T = await tc();
});

const lines = epdLines();

describe('perft through wasm', () => {
  it('reads every EPD file', () => {
    expect(lines.length).toBeGreaterThanOrEqual(30);
    expect(new Set(lines.map((l) => l.variant)).size).toBe(7);
  });

  it.each(lines.map((l) => [`${l.file}:${l.line} ${l.variant}`, l] as const))('%s', (_name, e) => {
    const v = T.variant({ preset: e.variant });
    const g = v.game(e.fen);
    for (const { depth, nodes } of e.counts) {
      expect(g.perft(depth), `D${depth}`).toBe(nodes);
    }
    expect(g.fen()).toBe(v.game(e.fen).fen()); // perft leaves the position as it was
    v.free();
  });

  // The native build on the first position of each variant, per root move.
  const firsts = lines.filter((l, i) => lines.findIndex((m) => m.variant === l.variant) === i);
  it.each(firsts.map((l) => [l.variant, l] as const))('%s: divide matches the native build', (_n, e) => {
    const v = T.variant({ preset: e.variant });
    const g = v.game(e.fen);
    const out = native(['perft', '2', '--divide', '--variant', e.variant, '--fen', e.fen]);
    const nat: Record<string, number> = {};
    for (const m of out.matchAll(/^([a-p][0-9]+[a-p][0-9]+[qrbn]?):\s+(\d+)$/gm)) nat[m[1]!] = Number(m[2]);
    expect(Object.keys(nat).length).toBe(g.perft(1));
    expect(g.divide(2)).toEqual(nat);
    const total = /nodes:\s+(\d+)/.exec(out);
    expect(Number(total?.[1])).toBe(g.perft(2));
    v.free();
  });
});
