// A small picture of a start position (hub entries): placement only, drawn
// from the FEN; joined edges are marked by the same colours as the board.
import type { VariantSummary } from '../app/types';

const GLYPH: Record<string, string> = { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };

export function miniBoard(v: VariantSummary): string {
  const W = v.cols;
  const H = v.rows;
  const s = 10;
  const board = (v.start_fen || '').split(' ')[0].split('/');
  let cells = '';
  let pieces = '';
  board.forEach((rank, i) => {
    let x = 0;
    let run = '';
    for (const ch of rank) {
      if (/\d/.test(ch)) { run += ch; continue; }
      if (run) { x += Number(run); run = ''; }
      const white = ch === ch.toUpperCase();
      pieces += `<circle cx="${x * s + s / 2}" cy="${i * s + s / 2}" r="${ch.toLowerCase() === 'p' ? 2.4 : 3.6}" fill="${white ? '#fff' : '#222'}" stroke="${white ? '#222' : '#ddd'}" stroke-width="0.8"><title>${GLYPH[ch.toLowerCase()] ?? ch}</title></circle>`;
      x++;
    }
  });
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      cells += `<rect x="${x * s}" y="${y * s}" width="${s}" height="${s}" fill="${(x + (H - 1 - y)) % 2 === 0 ? '#b58863' : '#f0d9b5'}"/>`;
  const edge = (x1: number, y1: number, x2: number, y2: number, colour: string) =>
    `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${colour}" stroke-width="2"/>`;
  let edges = '';
  if (v.files === 'wrap') edges += edge(0, 0, 0, H * s, '#2f6fb5') + edge(W * s, 0, W * s, H * s, '#2f6fb5');
  const rankColour = v.ranks === 'wrap' ? '#2f6fb5' : v.ranks === 'fold' ? '#2e8b57' : v.ranks === 'twist' ? '#2f6fb5' : '';
  if (rankColour) edges += edge(0, 0, W * s, 0, rankColour) + edge(0, H * s, W * s, H * s, rankColour);
  if (v.ranks === 'twist' && v.seam) {
    const y = (H - v.seam) * s;
    edges += edge(0, y, W * s, y, '#c0392b');
  }
  return `<svg class="tc-mini" viewBox="-2 -2 ${W * s + 4} ${H * s + 4}" width="${(W * s + 4) * 0.6}" height="${(H * s + 4) * 0.6}" role="img" aria-label="${v.title} start position">${cells}${pieces}${edges}</svg>`;
}
