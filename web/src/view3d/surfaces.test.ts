// The 3-D layout: every step of the step tables joins cells that are
// close on the surface (so the strip's flip and the bottle's mirror fall
// where the twist is), and the surface for each preset.
import { describe, expect, it } from 'vitest';
import { DIRS } from '../board/config';
import { cellOf, presetTopology, PRESETS } from '../board/testing';
import { layoutCells, makeSurface, surfaceKind } from './surfaces';

const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('3-D layout', () => {
  it.each(PRESETS)('%s: neighbours by the step tables are neighbours in space', async (name) => {
    const t = await presetTopology(name);
    const s = makeSurface(t);
    const grid = layoutCells(t);
    const rows = grid.length;
    const cols = grid[0].length;
    const centre = new Map<number, number[]>();
    grid.forEach((row, r) => row.forEach((p, c) => centre.set(p.cell, s.point((r + 0.5) / rows, (c + 0.5) / cols))));
    expect(centre.size).toBe(t.width * t.height);
    // the longest distance between centres of cells side by side in the layout
    let longest = 0;
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) {
        if (r + 1 < rows) longest = Math.max(longest, dist(centre.get(grid[r][c].cell)!, centre.get(grid[r + 1][c].cell)!));
        if (c + 1 < cols) longest = Math.max(longest, dist(centre.get(grid[r][c].cell)!, centre.get(grid[r][c + 1].cell)!));
      }
    for (let cell = 0; cell < t.width * t.height; cell++) {
      for (const d of [0, 2, 4, 6]) {
        const st = t.step(cell, d);
        if (!st || st.to === cell) continue;
        const gap = dist(centre.get(cell)!, centre.get(st.to)!);
        expect(gap, `${t.cellName(cell)} ${DIRS[d]} -> ${t.cellName(st.to)}`).toBeLessThan(longest * 1.05 + 0.3);
      }
    }
  });

  it('the surfaces', async () => {
    const kinds = await Promise.all(PRESETS.map(async (n) => surfaceKind(await presetTopology(n))));
    expect(kinds).toEqual(['plane', 'cylinder-files', 'cylinder-ranks', 'torus', 'mobius', 'klein', 'pillow']);
  });

  it('mobius and klein: the layout starts at the rank after the twist', async () => {
    for (const n of ['mobius', 'klein-bottle']) {
      const t = await presetTopology(n);
      const grid = layoutCells(t);
      expect(t.cellName(grid[0][0].cell)).toBe('a12');
      expect(t.cellName(grid[13][0].cell)).toBe('a11');
      const s = makeSurface(t);
      // the seam u = 1 meets u = 0 mirrored
      expect(dist(s.point(1, 0.2), s.point(0, 0.8))).toBeLessThan(1e-9);
    }
  });

  it('folding: e8 and d8 (joined by the fold) lie on the two faces, one behind the other', async () => {
    const t = await presetTopology('folding');
    const s = makeSurface(t);
    const grid = layoutCells(t);
    const at = (name: string) => {
      const cell = cellOf(t, name);
      for (let r = 0; r < grid.length; r++)
        for (let c = 0; c < grid[r].length; c++) if (grid[r][c].cell === cell) return s.point((r + 0.5) / grid.length, (c + 0.5) / grid[r].length);
      throw new Error(name);
    };
    const e8 = at('e8');
    const d8 = at('d8');
    expect(e8[0]).toBeCloseTo(d8[0]);
    expect(e8[1]).toBeCloseTo(d8[1]);
    expect(Math.sign(e8[2])).toBe(-Math.sign(d8[2]));
  });
});
