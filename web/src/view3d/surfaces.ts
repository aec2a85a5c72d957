// The surfaces the boards live on, as maps from (u, v) in [0,1]^2 to
// space: u runs along the walked rows (ranks), v along the walked columns
// (files). Which cell sits at which (u, v) comes from walking the step
// tables (layoutCells); the maps are chosen so that u = 1 meets u = 0 and
// v = 1 meets v = 0 exactly as the glued edges of that walk meet.
import type { Topology } from '../board/config';
import { walk, walkGrid, type Placed } from '../board/picture';

export type SurfaceKind = 'plane' | 'cylinder-files' | 'cylinder-ranks' | 'torus' | 'mobius' | 'klein' | 'pillow';

export interface Surface {
  kind: SurfaceKind;
  /** what the view says about the shape */
  description: string;
  point(u: number, v: number): [number, number, number];
  /** a point the outward normal at (u, v) points away from (null: keep the raw normal) */
  inside(u: number, v: number): [number, number, number] | null;
  /** where the surface passes through itself: a circle in the z = 0 plane around the z axis */
  selfIntersection?(): { centre: [number, number, number]; radius: number };
}

export function surfaceKind(t: Topology): SurfaceKind {
  const f = t.files === 'wrap';
  switch (t.ranks) {
    case 'open':
      return f ? 'cylinder-files' : 'plane';
    case 'wrap':
      return f ? 'torus' : 'cylinder-ranks';
    case 'twist':
      return f ? 'klein' : 'mobius';
    case 'fold':
      return f ? 'pillow' : 'plane';
  }
}

/** The cells in (row, column) order for the 3-D layout: walked from the
 * cell whose step south crosses the twist (so the twist falls on the u
 * seam), else from a1. */
export function layoutCells(t: Topology): Placed[][] {
  let start: Placed = { cell: 0, sx: 1, sy: 1 };
  if (t.ranks === 'twist') {
    for (let y = 0; y < t.height; y++) {
      const p: Placed = { cell: y * t.width, sx: 1, sy: 1 };
      const w = walk(t, p, 0, -1);
      if (w && w.step.twist) {
        start = p;
        break;
      }
    }
  }
  const grid = walkGrid(t, start);
  if (grid) return grid;
  // A board the walk cannot cover (a fold with open files): the page layout.
  const rows: Placed[][] = [];
  for (let y = 0; y < t.height; y++) {
    const row: Placed[] = [];
    for (let x = 0; x < t.width; x++) row.push({ cell: y * t.width + x, sx: 1, sy: 1 });
    rows.push(row);
  }
  return rows;
}

const TAU = Math.PI * 2;

export function makeSurface(t: Topology): Surface {
  const W = t.width;
  const H = t.height;
  const kind = surfaceKind(t);
  switch (kind) {
    case 'plane':
      return {
        kind,
        description: t.ranks === 'fold' ? 'A flat sheet; the end ranks fold onto themselves (marked edges).' : 'A flat board.',
        point: (u, v) => [(v - 0.5) * W, (u - 0.5) * H, 0],
        inside: () => null,
      };
    case 'cylinder-files': {
      const R = W / TAU;
      return {
        kind,
        description: 'A cylinder: the files run around it, file a beside the last file.',
        point: (u, v) => [R * Math.sin(TAU * v), (u - 0.5) * H, R * Math.cos(TAU * v)],
        inside: (u) => [0, (u - 0.5) * H, 0],
      };
    }
    case 'cylinder-ranks': {
      const R = H / TAU;
      return {
        kind,
        description: 'A cylinder: the ranks run around it, the last rank beside rank 1.',
        point: (u, v) => [(v - 0.5) * W, -R * Math.cos(TAU * u), R * Math.sin(TAU * u)],
        inside: (_u, v) => [(v - 0.5) * W, 0, 0],
      };
    }
    case 'torus': {
      const R = Math.max(H / TAU, (W / TAU) * 1.6);
      const r = W / TAU;
      return {
        kind,
        description: 'A torus: ranks around the ring, files around the tube.',
        point: (u, v) => {
          const a = TAU * u;
          const b = TAU * v;
          const d = R + r * Math.cos(b);
          return [d * Math.cos(a), d * Math.sin(a), r * Math.sin(b)];
        },
        inside: (u) => [R * Math.cos(TAU * u), R * Math.sin(TAU * u), 0],
      };
    }
    case 'mobius': {
      const R = Math.max(H / TAU, W * 0.45);
      const half = Math.min(W / 2, 0.7 * R);
      return {
        kind,
        description: 'A Moebius strip: the ranks run around it; crossing the twist line turns the strip over, so the file comes back mirrored.',
        point: (u, v) => {
          const a = TAU * u;
          const s = (v - 0.5) * 2 * half;
          const d = R + s * Math.cos(a / 2);
          return [d * Math.cos(a), d * Math.sin(a), s * Math.sin(a / 2)];
        },
        inside: () => null,
      };
    }
    case 'klein': {
      // The figure-8 immersion: a figure-8 cross-section carried round a
      // circle with a half turn, so that (u = 1, v) meets (u = 0, 1 - v).
      // It passes through itself along one circle (no Klein bottle embeds
      // in space).
      const a = W / TAU / 1.4;
      const R = Math.max(H / TAU, 2.4 * a);
      return {
        kind,
        description: 'A Klein bottle, as the figure-8 immersion: files run around the figure-8 tube, ranks around the ring; the tube comes back mirrored at the twist line and passes through itself along one circle.',
        point: (u, v) => {
          const th = TAU * u;
          const ph = TAU * v;
          const c = Math.cos(th / 2);
          const s = Math.sin(th / 2);
          const d = R + a * (c * Math.sin(ph) - s * Math.sin(2 * ph));
          return [d * Math.cos(th), d * Math.sin(th), a * (s * Math.sin(ph) + c * Math.sin(2 * ph))];
        },
        // Pieces stand outside each lobe of the figure 8 (away from the
        // lobe's middle); the two lobes meet where the tube crosses itself,
        // and there the side flips, as it must on a one-sided surface.
        inside: (u, v) => {
          const th = TAU * u;
          const lobe = Math.sin(TAU * v) >= 0 ? 0.6 : -0.6;
          const d = R + a * Math.cos(th / 2) * lobe;
          return [d * Math.cos(th), d * Math.sin(th), a * Math.sin(th / 2) * lobe];
        },
        // the figure 8 crosses itself at its centre (phi = 0 and pi): the circle of radius R
        selfIntersection: () => ({ centre: [0, 0, 0], radius: R }),
      };
    }
    case 'pillow': {
      // The folded board: a double-sided sheet, the first half of the files
      // on the front and the rest on the back (the fold joins file x to
      // file W-1-x, which lies right behind it).
      const half = W / 2;
      const gap = 0.12;
      return {
        kind,
        description: `The folded board: a double-sided ${half}x${H} sheet. Files ${t.cellName(0)[0]}–${t.cellName(half - 1)[0]} are on the front, the rest on the back; the side edges and the end ranks fold over to the other face.`,
        point: (u, v) => {
          const s = v * W;
          const y = (u - 0.5) * H;
          if (s <= half) return [s - half / 2, y, gap];
          return [half / 2 - (s - half), y, -gap];
        },
        inside: (u) => [0, (u - 0.5) * H, 0],
      };
    }
  }
}

export type Vec3 = [number, number, number];

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** The unit normal at (u, v): dP/dv x dP/du, turned away from the
 * surface's inside where it has one (the pieces stand on that side). On
 * the strip and the bottle, which have no outside, it is the map's own
 * normal: it turns over where u = 1 meets u = 0, the twist line. */
export function normalAt(s: Surface, u: number, v: number): Vec3 {
  const e = 1e-4;
  const du = sub(s.point(Math.min(1, u + e), v), s.point(Math.max(0, u - e), v));
  const dv = sub(s.point(u, Math.min(1, v + e)), s.point(u, Math.max(0, v - e)));
  let n = unit(cross(dv, du));
  const inside = s.inside(u, v);
  if (inside && dot(n, sub(s.point(u, v), inside)) < 0) n = [-n[0], -n[1], -n[2]];
  return n;
}

/** The unit tangent along the ranks (growing u) at (u, v). */
export function rankTangent(s: Surface, u: number, v: number): Vec3 {
  const e = 1e-4;
  return unit(sub(s.point(Math.min(1, u + e), v), s.point(Math.max(0, u - e), v)));
}

/** Where a cell of the walked grid sits: its centre, normal, rank tangent
 * and size (the shorter of its two sides). */
export interface CellPlace {
  cell: number;
  row: number;
  col: number;
  centre: Vec3;
  normal: Vec3;
  forward: Vec3;
  /** the cell's sides along the ranks and across them, and the shorter */
  along: number;
  across: number;
  size: number;
}

export function cellPlaces(s: Surface, grid: Placed[][]): CellPlace[] {
  const rows = grid.length;
  const cols = grid[0].length;
  const out: CellPlace[] = [];
  const len = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  grid.forEach((row, r) =>
    row.forEach((p, c) => {
      const u = (r + 0.5) / rows;
      const v = (c + 0.5) / cols;
      const along = len(s.point(u - 0.5 / rows, v), s.point(u + 0.5 / rows, v));
      const across = len(s.point(u, v - 0.5 / cols), s.point(u, v + 0.5 / cols));
      out.push({ cell: p.cell, row: r, col: c, centre: s.point(u, v), normal: normalAt(s, u, v), forward: rankTangent(s, u, v), along, across, size: Math.min(along, across) });
    }),
  );
  return out;
}

/** The smallest sphere around the centre of the points' box that holds them all. */
export function boundingSphere(points: Vec3[]): { centre: Vec3; radius: number } {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of points)
    for (let i = 0; i < 3; i++) {
      lo[i] = Math.min(lo[i], p[i]);
      hi[i] = Math.max(hi[i], p[i]);
    }
  const centre: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  let radius = 0;
  for (const p of points) radius = Math.max(radius, Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]));
  return { centre, radius };
}

/** How far from a sphere's centre a perspective camera (vertical field
 * of view fovY degrees, width/height aspect) must stand to see all of it,
 * with a margin (1 = touching the frame's nearer sides). */
export function fitDistance(radius: number, fovY: number, aspect: number, margin = 1.08): number {
  const half = (fovY * Math.PI) / 360;
  const halfX = Math.atan(Math.tan(half) * aspect);
  return (margin * radius) / Math.sin(Math.min(half, halfX));
}

/** The first view of each surface: where the camera looks from (a
 * direction from the centre) and which way is up. White's side is near. */
export function firstView(kind: SurfaceKind): { from: Vec3; up: Vec3 } {
  switch (kind) {
    case 'plane':
      return { from: unit([0, -1, 1.25]), up: [0, 0, 1] };
    case 'pillow':
      return { from: unit([0.25, -1, 1.3]), up: [0, 0, 1] };
    case 'cylinder-files':
      return { from: unit([0, 0.35, -1]), up: [0, 1, 0] };
    case 'cylinder-ranks':
      return { from: unit([0.25, -1, 0.3]), up: [0, 0, 1] };
    case 'torus':
      return { from: unit([1, -0.35, 0.9]), up: [0, 0, 1] };
    case 'mobius':
      return { from: unit([-0.3, 0.8, 1]), up: [0, 0, 1] };
    case 'klein':
      return { from: unit([-0.35, 1, 0.45]), up: [0, 0, 1] };
  }
}
