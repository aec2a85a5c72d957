// Bad input never traps the module, and results are freed: the module's
// memory stops growing under repeated use.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TopochessError, type Topochess } from '../../src/lib/topochess';
import { page, ROOT, tc } from './helpers';

let T: Topochess;
beforeAll(async () => {
  T = await tc();
});

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

/** Mutates a valid text: flips, drops, repeats and inserts characters. */
function mutate(text: string, r: () => number): string {
  const chars = [...text];
  const alphabet = ' \n\t/-:;[]{}"\'0123456789abcdefghpqrstxyzKQRBNPkqrbnpOo=+#!?\u00e9\u0000';
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n && chars.length; i++) {
    const at = Math.floor(r() * chars.length);
    const op = Math.floor(r() * 4);
    const c = alphabet[Math.floor(r() * alphabet.length)]!;
    if (op === 0) chars[at] = c;
    else if (op === 1) chars.splice(at, 1);
    else if (op === 2) chars.splice(at, 0, c);
    else chars.splice(at, 0, ...chars.slice(at, at + 1 + Math.floor(r() * 40)));
  }
  return chars.join('');
}

/** Calls fn; only a TopochessError may come out. */
function tolerant(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (e) {
    if (!(e instanceof TopochessError)) throw e;
    expect(e.message.length).toBeGreaterThan(0);
    return false;
  }
}

describe('bad input', () => {
  it('mutated FENs, moves, pages and PGN give errors, never traps', () => {
    const r = rng(20261201);
    const v = T.variant({ preset: 'klein-bottle' });
    const fen = v.startFen;
    const pgn = readFileSync(resolve(ROOT, 'tests/data/pgn/klein.pgn'), 'utf8');
    const pageText = page('klein-bottle');
    const sans = ['d12', 'exc12', 'Nf3', 'O-O', 'e1g1', 'b7b8q', 'a8=Q+', 'Qxh14#'];
    let ok = 0;
    for (let i = 0; i < 400; i++) {
      const g = v.game();
      if (tolerant(() => g.setFen(mutate(fen, r)))) {
        ok++;
        expect(() => g.legalMoves()).not.toThrow();
        expect(() => g.status()).not.toThrow();
        tolerant(() => g.perft(2));
      }
      tolerant(() => g.play(mutate(sans[i % sans.length]!, r)));
      tolerant(() => g.explain(mutate(sans[i % sans.length]!, r)));
      tolerant(() => g.movePath(mutate(sans[i % sans.length]!, r)));
      tolerant(() => g.loadPgn(mutate(pgn, r)));
      tolerant(() => T.variant({ frontmatter: mutate(pageText, r) }).free());
      g.free();
    }
    expect(ok).toBeGreaterThan(0); // some mutations are still valid FENs
    v.free();
  });

  it('long and odd strings', () => {
    const v = T.variant({ preset: 'chess' });
    const g = v.game();
    for (const s of ['', ' ', 'x'.repeat(100000), '\u0000e4', 'e4\u0000', '🙂', '1.'.repeat(5000)]) {
      tolerant(() => g.play(s));
      tolerant(() => g.setFen(s));
      tolerant(() => g.loadPgn(s));
      tolerant(() => T.variant({ frontmatter: s }).free());
      tolerant(() => T.variant({ preset: s }).free());
    }
    expect(g.fen()).toBe(v.startFen);
    v.free();
  });
});

describe('memory', () => {
  it('does not grow under repeated use', () => {
    const mem = T.m.x.memory;
    const round = () => {
      const v = T.variant({ preset: 'torus' });
      const g = v.game();
      for (let i = 0; i < 20; i++) {
        const mv = g.legalMoves();
        g.play(mv[i % mv.length]!.san);
        g.status();
        g.lines(mv[0]!.from);
        g.explain('Qz9');
      }
      g.pgn();
      g.history();
      v.steps();
      v.report();
      v.reportText();
      g.loadPgn(g.pgn());
      tolerant(() => g.play('nonsense'));
      v.free();
    };
    for (let i = 0; i < 5; i++) round(); // warm up the allocator
    const before = mem.buffer.byteLength;
    for (let i = 0; i < 200; i++) round();
    expect(mem.buffer.byteLength).toBe(before);
  });
});
