// The flat picture: where cells are drawn, which edges are joins, what the
// ghosts show and how rolling walks the surface, on the presets' real step
// tables (the wasm build).
import { describe, expect, it } from 'vitest';
import { buildPicture, rankPeriod, walk, type Picture } from './picture';
import { cellOf, presetTopology, PRESETS } from './testing';
import type { Topology } from './config';

const names = (t: Topology, cells: ({ cell: number } | null)[]) => cells.map((p) => (p ? t.cellName(p.cell) : null));

/** Every adjacency inside the picture that is not a marked seam is a real step. */
function checkAdjacencies(t: Topology, pic: Picture): void {
  const seams = new Set(pic.seams.map((s) => `${s.r},${s.c},${s.vertical}`));
  for (let r = 0; r < pic.rows; r++) {
    for (let c = 0; c < pic.cols; c++) {
      const p = pic.grid[r][c];
      if (r + 1 < pic.rows && !seams.has(`${r},${c},false`)) expect(walk(t, p, 0, 1)?.to.cell).toBe(pic.grid[r + 1][c].cell);
      if (c + 1 < pic.cols && !seams.has(`${r},${c},true`)) expect(walk(t, p, 1, 0)?.to.cell).toBe(pic.grid[r][c + 1].cell);
    }
  }
}

describe('the picture at rest', () => {
  it.each(PRESETS)('%s: every cell once, adjacencies real except the seams', async (name) => {
    const t = await presetTopology(name);
    const pic = buildPicture(t, { x: 0, y: 0 });
    expect(pic.where.size).toBe(t.width * t.height);
    checkAdjacencies(t, pic);
  });

  it('mobius: the twist line joins a11-h12 ... h11-a12, edges top/bottom plain, sides open', async () => {
    const t = await presetTopology('mobius');
    const pic = buildPicture(t, { x: 0, y: 0 });
    const twist = pic.seams.filter((s) => s.kind === 'twist');
    expect(twist.length).toBe(8);
    expect(twist.map((s) => `${t.cellName(pic.grid[s.r][s.c].cell)}-${t.cellName(s.across!)}`)).toEqual([
      'a11-h12', 'b11-g12', 'c11-f12', 'd11-e12', 'e11-d12', 'f11-c12', 'g11-b12', 'h11-a12',
    ]);
    expect(pic.top.kind).toBe('wrap');
    expect(names(t, pic.top.ghosts)).toEqual(['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1']);
    expect(pic.left.kind).toBeNull();
    expect(pic.right.ghosts.every((g) => g === null)).toBe(true);
  });

  it('folding: the fold ghosts above rank 8 are rank 8 mirrored', async () => {
    const t = await presetTopology('folding');
    const pic = buildPicture(t, { x: 0, y: 0 });
    expect(pic.top.kind).toBe('fold');
    expect(names(t, pic.top.ghosts)).toEqual(['h8', 'g8', 'f8', 'e8', 'd8', 'c8', 'b8', 'a8']);
    expect(pic.left.kind).toBe('wrap');
    expect(names(t, pic.left.ghosts).slice(0, 2)).toEqual(['h1', 'h2']);
    expect(pic.seams.length).toBe(0);
  });

  it('chess: no joins, no ghosts', async () => {
    const t = await presetTopology('chess');
    const pic = buildPicture(t, { x: 0, y: 0 });
    for (const e of [pic.top, pic.bottom, pic.left, pic.right]) {
      expect(e.kind).toBeNull();
      expect(e.ghosts.every((g) => g === null)).toBe(true);
    }
  });
});

describe('rolling', () => {
  it('torus: a plain shift, any file and rank can be brought to the corner', async () => {
    const t = await presetTopology('torus');
    expect(rankPeriod(t)).toBe(14);
    const pic = buildPicture(t, { x: 3, y: 5 });
    expect(t.cellName(pic.grid[0][0].cell)).toBe('d6');
    expect(pic.seams.length).toBe(0);
    checkAdjacencies(t, pic);
  });

  it('klein-bottle: rolled windows are walked, so the rows past the twist come back mirrored', async () => {
    const t = await presetTopology('klein-bottle');
    expect(rankPeriod(t)).toBe(28);
    for (let y = 1; y < 28; y++) {
      const pic = buildPicture(t, { x: 0, y });
      expect(pic.seams).toEqual([]);
      expect(pic.where.size).toBe(112);
      checkAdjacencies(t, pic);
    }
    // Rolled by one rank: rank 2 at the bottom; ranks 12-14 and then rank 1
    // are mirrored above rank 11, and the top ghosts (across the picture
    // edge) are rank 2 mirrored.
    const pic = buildPicture(t, { x: 0, y: 1 });
    expect(names(t, pic.grid[0]).join(' ')).toBe('a2 b2 c2 d2 e2 f2 g2 h2');
    expect(names(t, pic.grid[10]).join(' ')).toBe('h12 g12 f12 e12 d12 c12 b12 a12');
    expect(names(t, pic.grid[13]).join(' ')).toBe('h1 g1 f1 e1 d1 c1 b1 a1');
    expect(pic.grid[13].every((p) => p.sx === -1)).toBe(true);
    expect(pic.top.kind).toBe('twist');
    expect(names(t, pic.top.ghosts).join(' ')).toBe('h2 g2 f2 e2 d2 c2 b2 a2');
  });

  it('mobius: files do not roll, and a full turn of the ranks shows the other side', async () => {
    const t = await presetTopology('mobius');
    const pic = buildPicture(t, { x: 3, y: 14 });
    expect(t.cellName(pic.grid[0][0].cell)).toBe('h1');
    expect(pic.grid[0][0].sx).toBe(-1);
    const back = buildPicture(t, { x: 0, y: 28 });
    expect(t.cellName(back.grid[0][0].cell)).toBe('a1');
    expect(back.seams.length).toBe(8);
  });

  it('cylinder: ranks do not roll', async () => {
    const t = await presetTopology('cylinder');
    const pic = buildPicture(t, { x: 2, y: 3 });
    expect(t.cellName(pic.grid[0][0].cell)).toBe('c1');
  });
});

describe('the step tables the picture reads', () => {
  it('mobius a11 N -> h12 across the twist, klein h11 NE -> h12', async () => {
    const m = await presetTopology('mobius');
    const s = m.step(cellOf(m, 'a11'), 0)!;
    expect(m.cellName(s.to)).toBe('h12');
    expect(s.twist).toBe(true);
    const k = await presetTopology('klein-bottle');
    expect(k.cellName(k.step(cellOf(k, 'h11'), 1)!.to)).toBe('h12');
  });
});

describe('joins a rolled window walks through', () => {
  it('none at rest on any preset', async () => {
    for (const name of PRESETS) expect(buildPicture(await presetTopology(name), { x: 0, y: 0 }).crossings).toEqual([]);
  });
  it('the Klein bottle rolled: the twist line stays inside, the rows past it mirrored', async () => {
    const t = await presetTopology('klein-bottle');
    const pic = buildPicture(t, { x: 0, y: 1 });
    const twist = pic.crossings.filter((x) => x.kind === 'twist');
    expect(twist).toHaveLength(1);
    const r = twist[0]!.r;
    // across it the frames differ in mirroring, on every column
    for (let c = 0; c < t.width; c++) expect(pic.grid[r]![c]!.sx).toBe(-pic.grid[r + 1]![c]!.sx);
    // and the step from below really is the twist
    const w = walk(t, pic.grid[r]![0]!, 0, 1)!;
    expect(w.step.twist).toBe(true);
    expect(w.to.cell).toBe(pic.grid[r + 1]![0]!.cell);
  });
});
