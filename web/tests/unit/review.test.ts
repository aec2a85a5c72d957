// Game.review (the wasm module's tcw_game_review: tc_review_judge, the
// judge of `topochess review`) on values given by hand: the scholar's mate
// with a mate in one allowed at ply 6 marks that move a blunder and names
// the move given as best; bad values are refused by name.
import { describe, expect, it } from 'vitest';
import { tc } from './helpers';

describe('Game.review', () => {
  const moves = ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6', 'h5f7'];
  it('marks the move that allows a mate', async () => {
    const t = await tc();
    const v = t.variant({ preset: 'chess' });
    const g = v.game();
    for (const m of moves) g.play(m);
    // positions 0..7 (the side to move's view): level, then after 3...Nf6
    // White mates in one; the last position is checkmate (the rules')
    const values = [
      { score: 20, mate: 0, depth: 8, best: 'e2e4' },
      { score: -20, mate: 0, depth: 8, best: 'e7e5' },
      { score: 20, mate: 0, depth: 8, best: 'g1f3' },
      { score: -30, mate: 0, depth: 8, best: 'b8c6' },
      { score: 30, mate: 0, depth: 8, best: 'f1c4' },
      { score: -40, mate: 0, depth: 8, best: 'g7g6' },
      { score: 0, mate: 1, depth: 8, best: 'h5f7' },
      { score: 0, mate: 0, depth: 0, best: null },
    ];
    const r = g.review(values);
    expect(r.moves.map((m) => m.mark)).toEqual(['', '', '', '', '', 'blunder', '']);
    expect(r.moves[5]).toMatchObject({ san: 'Nf6', best: 'g6', mate: 1, best_score: 40, chances_after: -1 });
    expect(r.sides.black).toMatchObject({ moves: 3, blunders: 1 });
    expect(r.sides.white).toMatchObject({ moves: 4, blunders: 0, accuracy: 100 });
    expect(r.moves[6]).toMatchObject({ san: 'Qxf7#', depth: 0 });
    const pgn = g.reviewPgn(values, { White: 'Ann', Black: 'Bob' }, '1-0').replace(/\s+/g, ' ');
    expect(pgn).toContain('[White "Ann"]');
    expect(pgn).toContain('{ White: accuracy 100%, 0 inaccuracies, 0 mistakes, 0 blunders. Black: accuracy');
    expect(pgn).toContain('3... Nf6?? { [%eval #1] (0.40 -> #1) Blunder. g6 was best. } 4. Qxf7# 1-0');
    expect(() => g.review(values.slice(0, 5))).toThrow(/position 5 of 8 is missing/);
    expect(() => g.review(values.map((x, i) => (i === 2 ? { ...x, best: 'e2e5' } : x)))).toThrow(/position 2: best move 'e2e5' is not legal/);
    g.free();
    v.free();
  });
});
