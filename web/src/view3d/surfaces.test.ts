// The 3-D layout: every step of the step tables joins cells that are
// close on the surface (so the strip's flip and the bottle's mirror fall
// where the twist is), and the surface for each preset.
import { describe, expect, it } from 'vitest';
import { DIRS } from '../board/config';
import { cellOf, presetTopology, PRESETS } from '../board/testing';
import { boundingSphere, cellPlaces, firstView, fitDistance, layoutCells, makeSurface, normalAt, surfaceKind, type Vec3 } from './surfaces';

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

// Geometry of the 3-D view: where the pieces stand and how the camera frames.
const len = (a: number[]) => Math.hypot(a[0], a[1], a[2]);
const dotp = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const minus = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

describe('3-D geometry', () => {
  it.each(PRESETS)('%s: each cell normal is a unit vector square to the surface, turned away from its inside', async (name) => {
    const t = await presetTopology(name);
    const s = makeSurface(t);
    const places = cellPlaces(s, layoutCells(t));
    expect(places.length).toBe(t.width * t.height);
    for (const p of places) {
      const n = p.normal;
      expect(len(n)).toBeCloseTo(1, 6);
      // square to both directions of the surface at the centre
      const u = (p.row + 0.5) / layoutCells(t).length;
      const v = (p.col + 0.5) / layoutCells(t)[0].length;
      const e = 1e-3;
      const du = minus(s.point(u + e, v), s.point(u - e, v));
      const dv = minus(s.point(u, v + e), s.point(u, v - e));
      expect(Math.abs(dotp(n, du)) / len(du)).toBeLessThan(1e-3);
      expect(Math.abs(dotp(n, dv)) / len(dv)).toBeLessThan(1e-3);
      expect(Math.abs(dotp(p.forward, n))).toBeLessThan(1e-3);
      const inside = s.inside(u, v);
      if (inside) expect(dotp(n, minus(p.centre, inside))).toBeGreaterThan(0);
      expect(p.size).toBeGreaterThan(0.2);
      expect(p.size).toBeLessThanOrEqual(Math.max(p.along, p.across));
    }
  });

  it('the outward normals: a flat board faces up; on the cylinders and the torus away from the axis', async () => {
    const plane = makeSurface(await presetTopology('chess'));
    expect(normalAt(plane, 0.3, 0.6)).toEqual([0, 0, 1]);
    const cyl = makeSurface(await presetTopology('cylinder')); // axis along y
    for (const v of [0.1, 0.4, 0.8]) {
      const p = cyl.point(0.5, v);
      const n = normalAt(cyl, 0.5, v);
      const radial = [p[0], 0, p[2]];
      expect(dotp(n, radial) / len(radial)).toBeCloseTo(1, 4);
    }
    const torus = makeSurface(await presetTopology('torus'));
    // the outermost circle of the torus: the normal points straight out in the ring's plane
    const p = torus.point(0.25, 0);
    const n = normalAt(torus, 0.25, 0);
    expect(dotp(n, [p[0], p[1], 0]) / Math.hypot(p[0], p[1])).toBeCloseTo(1, 4);
  });

  it('the strip and the bottle: the side the pieces stand on turns over somewhere, as on any one-sided surface', async () => {
    // the strip: at the twist line, where (1, v) is the point (0, 1 - v)
    const strip = makeSurface(await presetTopology('mobius'));
    for (const v of [0.15, 0.35]) expect(dotp(normalAt(strip, 1 - 1e-6, v), normalAt(strip, 1e-6, 1 - v))).toBeCloseTo(-1, 3);
    // the bottle: pieces stand outside each lobe of the figure 8, so the
    // side is the same across the twist line and turns over where the lobes
    // meet, the circle where the tube passes through itself (v = 0 and 1/2)
    const bottle = makeSurface(await presetTopology('klein-bottle'));
    for (const v of [0.15, 0.35]) expect(dotp(normalAt(bottle, 1 - 1e-6, v), normalAt(bottle, 1e-6, 1 - v))).toBeCloseTo(1, 3);
    for (const u of [0.2, 0.7]) expect(dotp(normalAt(bottle, u, 0.5 - 1e-5), normalAt(bottle, u, 0.5 + 1e-5))).toBeCloseTo(-1, 3);
  });

  it('the bottle passes through itself on the circle it names', async () => {
    const s = makeSurface(await presetTopology('klein-bottle'));
    const ring = s.selfIntersection!();
    for (const u of [0.1, 0.45, 0.8]) {
      // the figure 8 crosses at phi = 0 and phi = pi: two (u, v) on one point of the ring
      const a = s.point(u, 0);
      const b = s.point(u, 0.5);
      expect(len(minus(a, b))).toBeLessThan(1e-9);
      expect(Math.hypot(a[0], a[1])).toBeCloseTo(ring.radius, 9);
      expect(a[2]).toBeCloseTo(0, 9);
    }
  });

  it('boundingSphere holds every point; fitDistance puts the sphere inside the field of view', () => {
    const pts: Vec3[] = [[1, 2, 3], [-4, 0, 1], [0, 5, -2], [2, -1, 0]];
    const { centre, radius } = boundingSphere(pts);
    for (const p of pts) expect(len(minus(p, centre))).toBeLessThanOrEqual(radius + 1e-12);
    expect(pts.some((p) => Math.abs(len(minus(p, centre)) - radius) < 1e-9)).toBe(true);
    for (const [fov, aspect] of [[38, 1], [38, 0.5], [38, 2.2], [60, 0.63]]) {
      const d = fitDistance(radius, fov, aspect, 1);
      // the sphere's angular radius seen from d equals the smaller half-angle of the frustum
      const half = (fov * Math.PI) / 360;
      const halfX = Math.atan(Math.tan(half) * aspect);
      expect(Math.asin(radius / d)).toBeCloseTo(Math.min(half, halfX), 9);
      // a margin moves the camera back
      expect(fitDistance(radius, fov, aspect)).toBeGreaterThan(d);
    }
  });

  it.each(PRESETS)('%s: the first view looks from a unit direction with an up that is not along it', async (name) => {
    const kind = surfaceKind(await presetTopology(name));
    const v = firstView(kind);
    expect(len(v.from)).toBeCloseTo(1, 9);
    expect(Math.abs(dotp(v.from, v.up))).toBeLessThan(0.9);
  });
});
