// What a change of configuration does to what the user holds (state.ts:
// settle), on the torus from the wasm module.
import { describe, expect, it } from 'vitest';
import { configure, defaults } from './config';
import { initialState, settle } from './state';
import { cellOf, presetTopology } from './testing';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

describe('settle', () => {
  it('the same position again keeps the picked piece', async () => {
    const t = await presetTopology('chess');
    const s = initialState(configure(defaults(t), { fen: START, movable: 'white' }));
    s.picked = cellOf(t, 'e2');
    const before = s.config.fen;
    s.config = configure(s.config, { fen: START });
    settle(s, before);
    expect(s.picked).toBe(cellOf(t, 'e2'));
    expect(s.placement[cellOf(t, 'e2')]).toBe('P');
  });

  it('a new position replaces the pieces and drops the pick', async () => {
    const t = await presetTopology('chess');
    const s = initialState(configure(defaults(t), { fen: START, movable: 'both' }));
    s.picked = cellOf(t, 'g1');
    const before = s.config.fen;
    s.config = configure(s.config, { fen: AFTER_E4 });
    settle(s, before);
    expect(s.picked).toBeNull();
    expect(s.placement[cellOf(t, 'e4')]).toBe('P');
    expect(s.placement[cellOf(t, 'e2')]).toBe('');
    expect(s.turn).toBe('black');
  });

  it('the same position where the user may no longer move drops the pick', async () => {
    const t = await presetTopology('chess');
    const s = initialState(configure(defaults(t), { fen: START, movable: 'white' }));
    s.picked = cellOf(t, 'e2');
    const before = s.config.fen;
    s.config = configure(s.config, { movable: 'none' });
    settle(s, before);
    expect(s.picked).toBeNull();
  });
});
