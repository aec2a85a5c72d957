// The puzzle set through wasm (tcw_puzzle_set, tcw_puzzles,
// tcw_puzzle_check): the same seed gives the same puzzles as the native
// `topochess puzzles` (one library, two builds), each puzzle's line is
// accepted move by move by the checker with the tables' own defence, and a
// slower or a losing move is named as such.
import { describe, expect, it } from 'vitest';
import { native, tc } from './helpers';

describe('PuzzleSet', () => {
  it('gives the native command\'s puzzles and accepts their lines', async () => {
    const t = await tc();
    const v = t.variant({ preset: 'chess' });
    const set = v.puzzleSet('KRK');
    const list = set.generate(4, 7);
    const cli = JSON.parse(native(['puzzles', '--variant', 'chess', '--material', 'KRK', '--count', '4', '--seed', '7', '--json'])) as { puzzles: { fen: string; line: string[] }[] };
    expect(list.map((p) => p.fen)).toEqual(cli.puzzles.map((p) => p.fen));
    expect(list.map((p) => p.line)).toEqual(cli.puzzles.map((p) => p.line));
    for (const p of list) {
      const g = v.game(p.fen);
      for (let i = 0; i < p.line_uci.length; i += 2) {
        const a = set.check(g, p.line_uci[i]!);
        expect(a.verdict).toBe('best');
        expect(a.mates).toBe(i === p.line_uci.length - 1);
        g.play(p.line_uci[i]!);
        if (a.reply_uci) {
          expect(a.reply_uci).toBe(p.line_uci[i + 1]);
          g.play(a.reply_uci);
        }
      }
      expect(g.status().status).toBe('checkmate');
      g.free();
    }
    set.free();
    v.free();
  });

  it('names a slower, a losing and an illegal move', async () => {
    const t = await tc();
    const v = t.variant({ preset: 'chess' });
    const set = v.puzzleSet('KRK');
    const g = v.game('8/2R5/8/k7/8/8/8/2K5 w - - 0 1');
    const moves = g.legalMoves().map((m) => m.uci);
    const verdicts = new Set(moves.map((m) => set.check(g, m).verdict));
    expect(verdicts).toContain('best');
    expect(verdicts).toContain('slower');
    expect(set.check(g, 'Rc5+').verdict).not.toBe('best');
    expect(set.check(g, 'Kb9')).toMatchObject({ verdict: 'illegal' });
    expect(set.check(g, 'Kb9').message).toMatch(/'Kb9' is not a move: this board has/);
    expect(set.check(g, 'Kb6').message).toMatch(/illegal move 'Kb6'/);
    expect(() => v.puzzleSet('KZK')).toThrow();
    g.free();
    set.free();
    v.free();
  });
});
