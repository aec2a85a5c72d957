// Where each cell sits in the flat picture, and which picture edges and
// seams are joins. Everything here is read off the variant's step tables:
// the picture is walked, never computed from the topology's name.
//
// Display coordinates: column c (0 = left) and row r (0 = bottom), before
// the board is flipped. Each placed cell carries its frame: the sign with
// which a display step maps to a board step (sx for files, sy for ranks).
// A frame is mirrored (sx = -1) after the walk crossed a twist, and turned
// (sx = sy = -1) after it crossed a fold.
import { DIRS, dirIndex, type Step, type Topology } from './config';

export interface Placed {
  cell: number;
  sx: number;
  sy: number;
}

export type JoinKind = 'wrap' | 'twist' | 'fold';

/** A display adjacency that is not a real neighbour relation: the cells on
 * either side are joined elsewhere (the twist line in the page's layout). */
export interface Seam {
  /** the cell on the lower (or left) side of the line and its display spot */
  r: number;
  c: number;
  vertical: boolean;
  /** the cell really across the line from (r, c), and how it is joined */
  across: number | null;
  kind: JoinKind | null;
}

export interface Edge {
  kind: JoinKind | null;
  /** the cells across the edge, one per row or column (null: off the board) */
  ghosts: (Placed | null)[];
}

export interface Picture {
  cols: number;
  rows: number;
  /** grid[r][c] */
  grid: Placed[][];
  top: Edge;
  bottom: Edge;
  left: Edge;
  right: Edge;
  seams: Seam[];
  /** joins the picture walks through (a rolled window crosses the twist
   * inside it: the cells go on, mirrored): the line between display rows
   * r and r+1, and how the rows are joined there */
  crossings: { r: number; kind: JoinKind }[];
  /** display spot of each cell: [r, c] */
  where: Map<number, [number, number]>;
}

export interface Roll {
  /** file roll: the file shown in display column 0 (when files wrap) */
  x: number;
  /** rank roll: steps walked north from rank 1 for the bottom row (when ranks wrap) */
  y: number;
}

export function kindOf(s: Step): JoinKind | null {
  if (s.fold) return 'fold';
  if (s.twist) return 'twist';
  if (s.fileWrap || s.rankWrap) return 'wrap';
  return null;
}

/** One display step from a placed cell, following the step table. */
export function walk(t: Topology, p: Placed, ddx: number, ddy: number): { to: Placed; step: Step } | null {
  const d = dirIndex(ddx * p.sx, ddy * p.sy);
  const s = t.step(p.cell, d);
  if (!s) return null;
  let { sx, sy } = p;
  if (s.twist) sx = -sx;
  if (s.fold) {
    sx = -sx;
    sy = -sy;
  }
  return { to: { cell: s.to, sx, sy }, step: s };
}

export function canRollFiles(t: Topology): boolean {
  return t.files === 'wrap';
}

export function canRollRanks(t: Topology): boolean {
  return t.ranks === 'wrap' || t.ranks === 'twist';
}

/** How many rank-roll steps bring the picture back to itself: walk north
 * from a1 until the walk returns to a1 in the same frame. */
export function rankPeriod(t: Topology): number {
  let p: Placed = { cell: 0, sx: 1, sy: 1 };
  for (let n = 1; n <= 4 * t.height; n++) {
    const w = walk(t, p, 0, 1);
    if (!w) return t.height;
    p = w.to;
    if (p.cell === 0 && p.sx === 1 && p.sy === 1) return n;
  }
  return t.height;
}

export function normaliseRoll(t: Topology, roll: Roll): Roll {
  const x = canRollFiles(t) ? ((roll.x % t.width) + t.width) % t.width : 0;
  const period = canRollRanks(t) ? rankPeriod(t) : 1;
  const y = canRollRanks(t) ? ((roll.y % period) + period) % period : 0;
  return { x, y };
}

/** The page's own layout (rank 1 at the bottom, files a.. left to right),
 * shifted by the roll where that is a plain shift. */
function layoutGrid(t: Topology, roll: Roll): Placed[][] {
  const grid: Placed[][] = [];
  for (let r = 0; r < t.height; r++) {
    const row: Placed[] = [];
    const y = (r + roll.y) % t.height;
    for (let c = 0; c < t.width; c++) {
      row.push({ cell: y * t.width + ((c + roll.x) % t.width), sx: 1, sy: 1 });
    }
    grid.push(row);
  }
  return grid;
}

/** A window walked on the surface: every adjacency inside it is real. */
function walkedGrid(t: Topology, roll: Roll): Placed[][] | null {
  let start: Placed = { cell: roll.x, sx: 1, sy: 1 };
  for (let i = 0; i < roll.y; i++) {
    const w = walk(t, start, 0, 1);
    if (!w) return null;
    start = w.to;
  }
  return walkGrid(t, start);
}

/** The grid walked from a bottom-left cell: rows north, columns east, each
 * in the frame the walk has reached. */
export function walkGrid(t: Topology, start: Placed): Placed[][] | null {
  const grid: Placed[][] = [];
  let first = start;
  for (let r = 0; r < t.height; r++) {
    if (r > 0) {
      const w = walk(t, first, 0, 1);
      if (!w) return null;
      first = w.to;
    }
    const row: Placed[] = [first];
    let p = first;
    for (let c = 1; c < t.width; c++) {
      const w = walk(t, p, 1, 0);
      if (!w) return null;
      p = w.to;
      row.push(p);
    }
    grid.push(row);
  }
  return grid;
}

/** Rolling ranks over a twist walks the window (the rolled part comes back
 * mirrored); at rest, and on plain wraps, the picture is the page's layout. */
export function buildPicture(t: Topology, rollIn: Roll): Picture {
  const roll = normaliseRoll(t, rollIn);
  let grid: Placed[][] | null = null;
  if (t.ranks === 'twist' && roll.y !== 0) grid = walkedGrid(t, roll);
  if (!grid) grid = layoutGrid(t, { x: roll.x, y: t.ranks === 'twist' ? 0 : roll.y });
  const rows = t.height;
  const cols = t.width;
  const where = new Map<number, [number, number]>();
  grid.forEach((row, r) => row.forEach((p, c) => where.set(p.cell, [r, c])));

  const edge = (cells: Placed[], ddx: number, ddy: number): Edge => {
    let kind: JoinKind | null = null;
    const ghosts = cells.map((p) => {
      const w = walk(t, p, ddx, ddy);
      if (!w) return null;
      kind = kind ?? kindOf(w.step);
      if (kindOf(w.step) === 'twist' || kindOf(w.step) === 'fold') kind = kindOf(w.step);
      return w.to;
    });
    return { kind, ghosts };
  };
  const top = edge(grid[rows - 1], 0, 1);
  const bottom = edge(grid[0], 0, -1);
  const left = edge(grid.map((row) => row[0]), -1, 0);
  const right = edge(grid.map((row) => row[cols - 1]), 1, 0);
  // What an edge is in the picture: the ghosts beyond it are the opposite
  // edge's cells in the same order (a wrap) or in mirrored order (a twist,
  // also when a rolled window puts the twist on the picture's edge); a fold
  // says so in its step.
  const relate = (e: Edge, opposite: Placed[]) => {
    if (e.kind === 'fold' || !e.ghosts.some((g) => g)) return;
    const cells = e.ghosts.map((g) => g?.cell);
    const same = cells.every((c, i) => c === opposite[i].cell);
    const mirrored = cells.every((c, i) => c === opposite[opposite.length - 1 - i].cell);
    if (same) e.kind = 'wrap';
    else if (mirrored) e.kind = 'twist';
    else e.kind ??= 'wrap';
  };
  relate(top, grid[0]);
  relate(bottom, grid[rows - 1]);
  relate(left, grid.map((row) => row[cols - 1]));
  relate(right, grid.map((row) => row[0]));

  const seams: Seam[] = [];
  const crossings: { r: number; kind: JoinKind }[] = [];
  for (let r = 0; r < rows; r++) {
    // how many columns step into row r + 1 across a join of the ranks
    let joined = 0;
    let kind: JoinKind = 'wrap';
    for (let c = 0; c < cols; c++) {
      const p = grid[r][c];
      if (r + 1 < rows) {
        const w = walk(t, p, 0, 1);
        const shown = grid[r + 1][c];
        if (!w || w.to.cell !== shown.cell || w.to.sx !== shown.sx || w.to.sy !== shown.sy) {
          seams.push({ r, c, vertical: false, across: w ? w.to.cell : null, kind: w ? kindOf(w.step) : null });
        } else if (w.step.twist || w.step.fold || w.step.rankWrap) {
          joined++;
          if (w.step.fold) kind = 'fold';
          else if (w.step.twist && kind !== 'fold') kind = 'twist';
        }
      }
      if (c + 1 < cols) {
        const w = walk(t, p, 1, 0);
        const shown = grid[r][c + 1];
        if (!w || w.to.cell !== shown.cell || w.to.sx !== shown.sx || w.to.sy !== shown.sy) {
          seams.push({ r, c, vertical: true, across: w ? w.to.cell : null, kind: w ? kindOf(w.step) : null });
        }
      }
    }
    if (joined === cols) crossings.push({ r, kind });
  }
  return { cols, rows, grid, top, bottom, left, right, seams, crossings, where };
}

/** The display step (dx, dy) that a board direction takes at a placed cell. */
export function displayDir(p: Placed, dir: number): [number, number] {
  const [dx, dy] = DIRS[dir];
  return [dx * p.sx, dy * p.sy];
}
