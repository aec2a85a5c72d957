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
        // the figure-8 tube has no outside: keep the map's own normal
        inside: () => null,
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
