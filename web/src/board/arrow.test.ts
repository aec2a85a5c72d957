// The better move's arrow (render.ts, config.bestPath): drawn along the
// library's path of the move, as every path on the board, so that across
// a join it leaves at one cell's edge and comes in at the glued cell's
// edge, with the head on the last piece; a move inside the board is one
// straight segment.
import { describe, expect, it } from 'vitest';
import { configure, defaults } from './config';
import { render } from './render';
import { initialState } from './state';
import { module, presetTopology } from './testing';

async function arrowOf(preset: string, fen: string, move: string) {
  const t = await presetTopology(preset);
  const v = (await module()).variant({ preset });
  const g = v.game(fen);
  const path = g.movePath(move).cells.map((n) => v.cellIndex(n));
  g.free();
  v.free();
  const svg = render(initialState(configure(defaults(t), { fen, bestPath: path })));
  const group = /<g class="line-best" data-best-path="([^"]*)"><path marker-end="url\(#tc-best-head\)" d="([^"]*)"\/>(.*?)<\/g>/.exec(svg);
  return { svg, group, path: path.map((c) => t.cellName(c)) };
}

describe('the better move as an arrow', () => {
  it('inside the board: one straight segment with a head', async () => {
    const { svg, group } = await arrowOf('chess', '4k3/8/8/8/8/8/8/R3K3 w - - 0 1', 'a1a4');
    expect(svg).toContain('<marker id="tc-best-head"');
    expect(group).not.toBeNull();
    expect(group![1]).toBe('a1 a2 a3 a4');
    // three steps, each from a cell's centre to the next one's: no exit ring
    expect(group![2]!.match(/M/g)!.length).toBe(3);
    expect(group![3]).not.toContain('class="exit"');
  });

  it('across the cylinder\'s join: out at one edge, in at the other, the head at the target', async () => {
    const { group } = await arrowOf('cylinder', '4k3/8/8/8/8/8/8/R3K3 w - - 0 1', 'a1h1');
    expect(group).not.toBeNull();
    expect(group![1]).toBe('a1 h1'); // one step, west across the join
    // the step drawn in two pieces (to a1's edge, from h1's edge) and an exit ring
    expect(group![2]!.match(/M/g)!.length).toBe(2);
    expect(group![3]).toContain('class="exit"');
  });

  it('no path, no arrow', async () => {
    const t = await presetTopology('chess');
    const svg = render(initialState(configure(defaults(t), { fen: '4k3/8/8/8/8/8/8/R3K3 w - - 0 1' })));
    expect(svg).not.toContain('line-best');
  });
});
