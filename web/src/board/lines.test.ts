// Which lines of movement the board draws (render.ts: movementLines), with
// a queen's real lines on the Klein bottle from the wasm module.
import { describe, expect, it } from 'vitest';
import { configure, defaults } from './config';
import { movementLines } from './render';
import { initialState } from './state';
import { cellOf, module, presetTopology } from './testing';

describe('movementLines', () => {
  it("a picked queen on the Klein bottle: every line on it, the route only on a target", async () => {
    const t = await presetTopology('klein-bottle');
    const v = (await module()).variant({ preset: 'klein-bottle' });
    // (the queen reaches every rank here: Black to move, in check)
    const fen = '8/8/8/8/k7/8/8/3Q4/8/8/8/8/8/4K3 b - - 0 1';
    const g = v.game(fen);
    const lines = (cell: number) => g.lines(t.cellName(cell)).map((l) => l.cells.map((n) => v.cellIndex(n)));
    const s = initialState(configure(defaults(t), { fen, lines }));
    const queen = cellOf(t, 'd7');
    expect(movementLines(s)).toEqual([]);
    s.picked = queen;
    s.hover = queen;
    const all = movementLines(s);
    expect(all.length).toBeGreaterThan(4);
    // a cell on one of the lines: only the routes there, each ending on it
    const target = all[0]![all[0]!.length - 1]!;
    s.hover = target;
    const routes = movementLines(s);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.length).toBeLessThan(all.length);
    for (const r of routes) {
      expect(r[0]).toBe(queen);
      expect(r[r.length - 1]).toBe(target);
    }
    const cellsDrawn = (ps: number[][]) => ps.reduce((n, p) => n + p.length, 0);
    expect(cellsDrawn(routes)).toBeLessThan(cellsDrawn(all));
    g.free();
    v.free();
  });
});
