// The game a page owns, on the real wasm rules: plies and their FENs,
// stepping back and playing out a new line, undo, PGN round trip, results.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { module } from '../board/testing';
import { GameController } from './game';
import { rulesFrom } from './rules';
import type { VariantDetail } from './types';

const BIN = resolve(process.env.TC_BIN ?? resolve(__dirname, '../../../topochess'));
const cliFen = (variant: string, moves: string) => execFileSync(BIN, ['fen', '--variant', variant, '--play', moves], { encoding: 'utf8' }).trim();

async function controller(slug: string, fen?: string): Promise<GameController> {
  const detail = { slug, frontmatter: '' } as unknown as VariantDetail;
  return new GameController(rulesFrom(await module(), detail), fen);
}

describe('GameController', () => {
  it('plays the Moebius sample by coordinates; every ply keeps its FEN; the SAN is the library\'s', async () => {
    const ctl = await controller('mobius');
    for (const m of ['d14d12', 'e9e11', 'c14c12', 'e11c12', 'e14e12', 'g9g11']) ctl.play(m);
    expect(ctl.plies.map((p) => p.move.san).join(' ')).toBe('d12 e11 c12 exc12 e12 g11');
    expect(ctl.shownFen()).toBe(cliFen('mobius', '1. d12 e11 2. c12 exc12 3. e12 g11'));
    ctl.goto(2);
    expect(ctl.shownFen()).toBe(cliFen('mobius', 'd12 e11'));
    expect(ctl.lastMove()).toEqual([ctl.rules.cellIndex('e9'), ctl.rules.cellIndex('e11')]);
  });

  it('a move played while looking back cuts the rest off (analysis)', async () => {
    const ctl = await controller('torus');
    for (const m of ['e2e4', 'e7e5', 'g1f3']) ctl.play(m);
    ctl.goto(1);
    ctl.play('d7d5');
    expect(ctl.plies.map((p) => p.move.san)).toEqual(['e4', 'd5']);
    expect(ctl.game.fen()).toBe(cliFen('torus', 'e4 d5'));
  });

  it('undo, reset with a bad FEN leaves the game, resignation', async () => {
    const ctl = await controller('klein-bottle');
    ctl.play('e2e4');
    ctl.play('e7e5');
    ctl.undo();
    expect(ctl.plies.length).toBe(1);
    expect(ctl.game.fen()).toBe(cliFen('klein-bottle', 'e4'));
    expect(() => ctl.reset('8/8/8 w - - 0 1')).toThrow(/rank/);
    expect(ctl.plies.length).toBe(1);
    ctl.verdict = { result: '0-1', text: 'White resigns' };
    expect(ctl.over()).toBe(true);
    expect(ctl.pgn({})).toMatch(/0-1\s*$/);
  });

  it('PGN out and back in', async () => {
    const ctl = await controller('cylinder');
    for (const m of ['e4', 'e5', 'Nf3', 'Nc6']) ctl.play(m);
    const pgn = ctl.pgn({ White: 'a', Black: 'b' });
    const back = await controller('cylinder');
    back.loadPgn(pgn);
    expect(back.plies.map((p) => p.move.san)).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    expect(back.shownFen()).toBe(ctl.shownFen());
    expect(() => back.loadPgn('1. e4 Ke9 *')).toThrow();
    expect(back.plies.length).toBe(4);
  });

  it('the last move\'s path crosses the twist (exc12)', async () => {
    const ctl = await controller('mobius');
    for (const m of ['d14d12', 'e9e11', 'c14c12']) ctl.play(m);
    const path = ctl.game.movePath('e11c12').map((c) => ctl.rules.topology.cellName(c));
    expect(path).toEqual(['e11', 'c12']);
  });
});
