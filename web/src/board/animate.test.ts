import { describe, expect, it } from 'vitest';
import { pathFrames } from './animate';
import { CELL } from './render';

const at = (c: number, r: number): [number, number] => [c * CELL, r * CELL];

describe('pathFrames', () => {
  it('glides cell to cell along a ray on the screen', () => {
    const { frames, jumps } = pathFrames([at(0, 7), at(1, 7), at(2, 7), at(3, 7)]);
    expect(jumps).toBe(0);
    expect(frames.map((f) => f.x / CELL)).toEqual([-3, -2, -1, 0]);
    expect(frames.every((f) => f.o === 1)).toBe(true);
  });
  it('leaves over one edge and comes in over the other where the path crosses a join', () => {
    // a rook going right from g1 to h1, across the a/h join to a1 and b1
    const { frames, jumps } = pathFrames([at(6, 7), at(7, 7), at(0, 7), at(1, 7)]);
    expect(jumps).toBe(1);
    const hidden = frames.filter((f) => f.o === 0);
    expect(hidden).toHaveLength(2);
    // out beyond h1 to the right, in from the left of a1
    expect(hidden[0]!.x).toBeGreaterThan(at(7, 7)[0] - at(1, 7)[0]);
    expect(hidden[1]!.x).toBeLessThan(at(0, 7)[0] - at(1, 7)[0]);
    expect(frames[frames.length - 1]).toEqual({ x: 0, y: 0, o: 1 });
  });
  it("a knight's leap is one glide", () => {
    expect(pathFrames([at(1, 7), at(2, 5)]).jumps).toBe(0);
  });
});
