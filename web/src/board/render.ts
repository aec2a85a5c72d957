// Draws the board state as SVG: cells, ghost rows and columns beyond glued
// edges, join marks, coordinates, pieces, marks and lines of movement.
import { DIRS } from './config';
import { displayDir, walk, type JoinKind, type Placed } from './picture';
import { pieceDefs, pieceId } from './pieces';
import type { BoardState } from './state';

export const CELL = 100;
const GHOST = 70;
const COORD = 42;
export const OFFSET = GHOST + COORD;

const JOIN_COLOUR: Record<JoinKind, string> = { wrap: '#2f6fb5', twist: '#c0392b', fold: '#2e8b57' };

export function splitName(name: string): { file: string; rank: string } {
  const m = /^([a-z]+)(\d+)$/.exec(name);
  return m ? { file: m[1], rank: m[2] } : { file: name, rank: '' };
}

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export interface Geometry {
  width: number;
  height: number;
  /** top-left corner (viewBox units) of display spot (r, c), ghosts included */
  spot(r: number, c: number): [number, number];
}

export function geometry(s: BoardState): Geometry {
  const { cols, rows } = s.picture;
  const flip = s.config.orientation === 'black';
  return {
    width: cols * CELL + 2 * OFFSET,
    height: rows * CELL + 2 * OFFSET,
    spot(r, c) {
      const sc = flip ? cols - 1 - c : c;
      const sr = flip ? r : rows - 1 - r;
      return [OFFSET + sc * CELL, OFFSET + sr * CELL];
    },
  };
}

function cellColour(s: BoardState, cell: number): string {
  const w = s.config.topology.width;
  const x = cell % w;
  const y = Math.floor(cell / w);
  return (x + y) % 2 === 0 ? 'dark' : 'light';
}

/** A piece on a cell; on a cell drawn mirrored (seen from the surface's
 * other side, past a twist) the piece is mirrored too. */
function pieceUse(letter: string, x: number, y: number, extra = '', mirrored = false): string {
  if (!letter) return '';
  const flip = mirrored ? ` transform="translate(${2 * x + CELL} 0) scale(-1 1)"` : '';
  return `<use href="#tc-piece-${pieceId(letter)}" x="${x + 6}" y="${y + 6}" width="${CELL - 12}" height="${CELL - 12}" class="piece"${flip}${extra}/>`;
}

/** The lines of movement as SVG segments, leaving at one edge of a cell and
 * re-entering at the glued cell when a step crosses a join. */
export function pathSegments(s: BoardState, g: Geometry, path: number[]): string {
  const t = s.config.topology;
  const pic = s.picture;
  const centre = (cell: number): [number, number] | null => {
    const at = pic.where.get(cell);
    if (!at) return null;
    const [x, y] = g.spot(at[0], at[1]);
    return [x + CELL / 2, y + CELL / 2];
  };
  const flip = s.config.orientation === 'black' ? -1 : 1;
  const screenDir = (p: Placed, dir: number): [number, number] => {
    const [dx, dy] = displayDir(p, dir);
    return [dx * flip, -dy * flip];
  };
  let d = '';
  let ends = '';
  for (let i = 0; i + 1 < path.length; i++) {
    const a = path[i];
    const b = path[i + 1];
    const ca = centre(a);
    const cb = centre(b);
    if (!ca || !cb) continue;
    const pa = pic.grid[pic.where.get(a)![0]][pic.where.get(a)![1]];
    const pb = pic.grid[pic.where.get(b)![0]][pic.where.get(b)![1]];
    const dirAB = DIRS.findIndex((_, k) => t.step(a, k)?.to === b);
    if (dirAB < 0) {
      // a leap (knight): mark the target only
      ends += `<circle cx="${cb[0]}" cy="${cb[1]}" r="13" class="leap"/>`;
      continue;
    }
    const [sx, sy] = screenDir(pa, dirAB);
    const expectX = ca[0] + sx * CELL;
    const expectY = ca[1] + sy * CELL;
    if (Math.abs(expectX - cb[0]) < 1 && Math.abs(expectY - cb[1]) < 1) {
      d += `M${ca[0]} ${ca[1]}L${cb[0]} ${cb[1]}`;
      continue;
    }
    // Across a join: out to the edge of a, in from the edge of b.
    d += `M${ca[0]} ${ca[1]}l${(sx * CELL) / 2} ${(sy * CELL) / 2}`;
    const dirBA = DIRS.findIndex((_, k) => t.step(b, k)?.to === a);
    if (dirBA >= 0) {
      const [bx, by] = screenDir(pb, dirBA);
      d += `M${cb[0] + (bx * CELL) / 2} ${cb[1] + (by * CELL) / 2}L${cb[0]} ${cb[1]}`;
    }
    ends += `<circle cx="${ca[0] + (sx * CELL) / 2}" cy="${ca[1] + (sy * CELL) / 2}" r="7" class="exit"/>`;
  }
  const last = path.length > 1 ? centre(path[path.length - 1]) : null;
  if (last) ends += `<circle cx="${last[0]}" cy="${last[1]}" r="9" class="tip"/>`;
  return `<path d="${d}"/>${ends}`;
}

function joinTitle(kind: JoinKind): string {
  return kind === 'twist' ? 'twist: joined mirrored' : kind === 'fold' ? 'fold: joined to itself, mirrored' : 'wrap: joined';
}

/** The parts of the paths that lead to a cell (none without a cell). */
export function routesTo(paths: number[][], at: number | null): number[][] {
  if (at === null) return [];
  const out: number[][] = [];
  for (const path of paths) {
    const i = path.indexOf(at, 1);
    if (i > 0) out.push(path.slice(0, i + 1));
  }
  return out;
}

/** The lines of movement to draw: a hovered piece's; a picked piece's
 * while the pointer is on it (or on a touch screen); with the pointer on
 * another cell, only the routes to that cell (a queen's lines on a Klein
 * bottle would cover the board). */
export function movementLines(s: BoardState): number[][] {
  const cfg = s.config;
  if (s.picked !== null && s.placement[s.picked]) {
    const all = cfg.lines(s.picked);
    const at = s.hover;
    if (at === null || at === s.picked) return all;
    return routesTo(all, at);
  }
  if (s.hover !== null && s.placement[s.hover]) return cfg.lines(s.hover);
  return [];
}

export function render(s: BoardState): string {
  const t = s.config.topology;
  const pic = s.picture;
  const g = geometry(s);
  const { cols, rows } = pic;
  const cfg = s.config;
  const dests = new Map<number, boolean>();
  if (s.picked !== null) {
    for (const m of cfg.dests(s.picked)) dests.set(m.to, !!s.placement[m.to]);
  }
  const last = new Set(cfg.lastMove ?? []);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${g.width} ${g.height}" class="tc-svg" role="img" aria-label="${esc(t.slug)} board">`,
  );
  out.push(`<defs>${pieceDefs()}<marker id="tc-best-head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0 0L10 5L0 10z"/></marker><clipPath id="tc-clip-${t.slug}"><rect x="${OFFSET - GHOST}" y="${OFFSET - GHOST}" width="${cols * CELL + 2 * GHOST}" height="${rows * CELL + 2 * GHOST}"/></clipPath></defs>`);

  // Ghost cells beyond glued edges: the cells that lie across, faded.
  out.push(`<g class="ghosts" clip-path="url(#tc-clip-${t.slug})">`);
  if (cfg.ghosts) {
    const ghost = (p: Placed | null, r: number, c: number, side: string) => {
      if (!p) return;
      const [x, y] = g.spot(r, c);
      const name = t.cellName(p.cell);
      const mirrored = p.sx < 0 || p.sy < 0;
      out.push(
        `<g class="ghost ${cellColour(s, p.cell)}" data-ghost="${name}" data-side="${side}"${mirrored ? ' data-mirrored=""' : ''}>` +
          `<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>` +
          pieceUse(s.placement[p.cell], x, y, '', p.sx * p.sy < 0) +
          `<text x="${x + CELL / 2}" y="${y + CELL / 2 + 8}" class="ghost-name">${name}</text></g>`,
      );
    };
    pic.top.ghosts.forEach((p, c) => ghost(p, rows, c, 'top'));
    pic.bottom.ghosts.forEach((p, c) => ghost(p, -1, c, 'bottom'));
    pic.left.ghosts.forEach((p, r) => ghost(p, r, -1, 'left'));
    pic.right.ghosts.forEach((p, r) => ghost(p, r, cols, 'right'));
  }
  out.push('</g>');

  // The cells themselves; their pieces and destination marks are drawn
  // in layers above (under the pieces: the seams' pair labels).
  const piecesOut: string[] = [];
  const destsOut: string[] = [];
  out.push('<g class="cells">');
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const p = pic.grid[r][c];
      const cell = p.cell;
      const [x, y] = g.spot(r, c);
      const name = t.cellName(cell);
      const attrs: string[] = [`data-cell="${name}"`];
      const cls = ['cell', cellColour(s, cell)];
      if (dests.has(cell)) {
        attrs.push('data-dest=""');
        cls.push(dests.get(cell) ? 'dest-capture' : 'dest');
      }
      if (last.has(cell)) attrs.push('data-last=""');
      if (cfg.check === cell) attrs.push('data-check=""');
      if (s.picked === cell) cls.push('picked');
      const mark = cfg.marks.get(cell);
      if (mark) cls.push(`mark-${mark}`);
      if (p.sx < 0) attrs.push('data-mirrored=""');
      const dragging = s.drag && s.drag.moved && s.drag.cell === cell;
      out.push(
        `<g class="${cls.join(' ')}" ${attrs.join(' ')}>` +
          `<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>` +
          (last.has(cell) ? `<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" class="last"/>` : '') +
          (cfg.check === cell ? `<circle cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${CELL / 2}" class="check"/>` : '') +
          (mark ? `<rect x="${x + 4}" y="${y + 4}" width="${CELL - 8}" height="${CELL - 8}" class="mark"/>` : '') +
          `</g>`,
      );
      piecesOut.push(pieceUse(s.placement[cell], x, y, dragging ? ' opacity="0.3"' : '', p.sx * p.sy < 0));
      if (dests.has(cell)) {
        destsOut.push(
          dests.get(cell)
            ? `<circle cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${CELL / 2 - 5}" class="dest-ring"/>`
            : `<circle cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${CELL / 7}" class="dest-dot"/>`,
        );
      }
    }
  }
  out.push('</g>');
  const flip = cfg.orientation === 'black';

  // The pairs of cells each seam joins, named on either side of the line.
  out.push('<g class="seam-pairs">');
  for (const seam of pic.seams) {
    if (seam.vertical || seam.across === null) continue;
    const [x, y] = g.spot(seam.r, seam.c);
    const ly = flip ? y + CELL : y;
    out.push(`<text x="${x + CELL / 2}" y="${ly + (flip ? -8 : 20)}" class="seam-pair">${esc(t.cellName(seam.across))}</text>`);
    const above = pic.grid[seam.r + 1]?.[seam.c];
    const w = above ? walk(t, above, 0, -1) : null;
    if (!w) continue;
    const [ux, uy] = g.spot(seam.r + 1, seam.c);
    const uly = flip ? uy : uy + CELL;
    out.push(`<text x="${ux + CELL / 2}" y="${uly + (flip ? 20 : -8)}" class="seam-pair">${esc(t.cellName(w.to.cell))}</text>`);
  }
  out.push('</g>');
  out.push(`<g class="pieces">${piecesOut.join('')}</g><g class="dests">${destsOut.join('')}</g>`);

  // Join marks on the picture's edges.
  out.push('<g class="joins">');
  const edgeLine = (kind: JoinKind | null, side: string, x1: number, y1: number, x2: number, y2: number) => {
    if (!kind) {
      out.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="edge-open"/>`);
      return;
    }
    out.push(
      `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="edge-join edge-${kind}" stroke="${JOIN_COLOUR[kind]}" data-join="${kind}" data-side="${side}"><title>${joinTitle(kind)}</title></line>`,
    );
  };
  const L = OFFSET;
  const R = OFFSET + cols * CELL;
  const T = OFFSET;
  const B = OFFSET + rows * CELL;
  // Screen sides: which picture edge is drawn where.
  const screenTop = flip ? pic.bottom : pic.top;
  const screenBottom = flip ? pic.top : pic.bottom;
  const screenLeft = flip ? pic.right : pic.left;
  const screenRight = flip ? pic.left : pic.right;
  edgeLine(screenTop.kind, 'top', L, T, R, T);
  edgeLine(screenBottom.kind, 'bottom', L, B, R, B);
  edgeLine(screenLeft.kind, 'left', L, T, L, B);
  edgeLine(screenRight.kind, 'right', R, T, R, B);

  // Seams inside the picture (the twist line at rest): the line and the
  // pairs of cells it joins.
  for (const seam of pic.seams) {
    const [x, y] = g.spot(seam.r, seam.c);
    const kind = seam.kind ?? 'twist';
    const colour = JOIN_COLOUR[kind];
    const here = t.cellName(pic.grid[seam.r][seam.c].cell);
    const across = seam.across === null ? '' : t.cellName(seam.across);
    if (!seam.vertical) {
      // between display rows r and r+1: on screen above (or below when flipped)
      const ly = flip ? y + CELL : y;
      out.push(
        `<line x1="${x}" y1="${ly}" x2="${x + CELL}" y2="${ly}" class="seam seam-${kind}" stroke="${colour}" data-seam="${here}-${across}"><title>${here} is joined to ${across} (${kind})</title></line>`,
      );
    } else {
      const lx = flip ? x : x + CELL;
      out.push(
        `<line x1="${lx}" y1="${y}" x2="${lx}" y2="${y + CELL}" class="seam seam-${kind}" stroke="${colour}" data-seam="${here}-${across}"><title>${here} is joined to ${across} (${kind})</title></line>`,
      );
    }
  }
  // Joins a rolled window walks through (the twist line where it is on the
  // surface): a thin line across the board, named in its title.
  for (const x of pic.crossings) {
    const [, y] = g.spot(x.r, 0);
    const ly = flip ? y + CELL : y;
    const L = OFFSET;
    const R = OFFSET + cols * CELL;
    const below = t.cellName(pic.grid[x.r][0].cell);
    const above = t.cellName(pic.grid[x.r + 1][0].cell);
    out.push(
      `<line x1="${L}" y1="${ly}" x2="${R}" y2="${ly}" class="crossing crossing-${x.kind}" stroke="${JOIN_COLOUR[x.kind]}" data-crossing="${x.kind}"><title>${x.kind} between ranks ${splitName(below).rank} and ${splitName(above).rank}${x.kind === 'twist' ? ': the rows past it are mirrored' : ''}</title></line>`,
    );
  }
  out.push('</g>');

  // Coordinates on every side, read from the cells along that side.
  if (cfg.coordinates) {
    out.push('<g class="coords">');
    const rowAt = (screenRowFromTop: number) => (flip ? screenRowFromTop : rows - 1 - screenRowFromTop);
    const colAt = (screenCol: number) => (flip ? cols - 1 - screenCol : screenCol);
    for (let sc = 0; sc < cols; sc++) {
      const c = colAt(sc);
      const cx = OFFSET + sc * CELL + CELL / 2;
      const bottomCell = pic.grid[rowAt(rows - 1)][c].cell;
      const topCell = pic.grid[rowAt(0)][c].cell;
      out.push(`<text x="${cx}" y="${g.height - 12}" class="coord" data-coord="bottom">${splitName(t.cellName(bottomCell)).file}</text>`);
      out.push(`<text x="${cx}" y="${32}" class="coord" data-coord="top">${splitName(t.cellName(topCell)).file}</text>`);
    }
    for (let sr = 0; sr < rows; sr++) {
      const r = rowAt(sr);
      const cy = OFFSET + sr * CELL + CELL / 2 + 11;
      const leftCell = pic.grid[r][colAt(0)].cell;
      const rightCell = pic.grid[r][colAt(cols - 1)].cell;
      out.push(`<text x="${COORD / 2}" y="${cy}" class="coord" data-coord="left">${splitName(t.cellName(leftCell)).rank}</text>`);
      // a mirrored row (seen from the surface's other side) names its files
      // in its own cells: the coordinates above and below do not hold for it
      if (pic.grid[r][colAt(0)].sx < 0) {
        for (let sc = 0; sc < cols; sc++) {
          const cell = pic.grid[r][colAt(sc)].cell;
          const x0 = OFFSET + sc * CELL;
          out.push(`<text x="${x0 + 6}" y="${OFFSET + sr * CELL + 25}" class="row-file" data-row-file="${t.cellName(cell)}">${splitName(t.cellName(cell)).file}</text>`);
        }
      }
      out.push(`<text x="${g.width - COORD / 2}" y="${cy}" class="coord" data-coord="right">${splitName(t.cellName(rightCell)).rank}</text>`);
    }
    out.push('</g>');
  }

  // Lines of movement: the picked or hovered piece's, the checking lines,
  // and any the page asked for.
  out.push('<g class="lines">');
  for (const path of movementLines(s)) out.push(`<g class="line-move">${pathSegments(s, g, path)}</g>`);
  if (cfg.lastPath && cfg.lastPath.length > 1) out.push(`<g class="line-last">${pathSegments(s, g, cfg.lastPath)}</g>`);
  // the better move: the same segments, with a head where it arrives
  if (cfg.bestPath && cfg.bestPath.length > 1)
    out.push(`<g class="line-best" data-best-path="${cfg.bestPath.map((c) => t.cellName(c)).join(' ')}">${pathSegments(s, g, cfg.bestPath).replace('<path ', '<path marker-end="url(#tc-best-head)" ')}</g>`);
  for (const path of cfg.checkLines) out.push(`<g class="line-check">${pathSegments(s, g, path)}</g>`);
  for (const path of cfg.pathsOnHover ? routesTo(cfg.paths, s.hover) : cfg.paths)
    out.push(`<g class="line-explore">${pathSegments(s, g, path)}</g>`);
  out.push('</g>');

  // The dragged piece follows the pointer.
  if (s.drag && s.drag.moved) {
    const letter = s.placement[s.drag.cell];
    out.push(`<g class="dragging">${pieceUse(letter, s.drag.x - CELL / 2, s.drag.y - CELL / 2)}</g>`);
  }
  out.push('</svg>');
  return out.join('');
}

export function renderPromotion(s: BoardState): string {
  if (!s.promotion) return '';
  const colour = s.turn === 'white' ? 'w' : 'b';
  const buttons = ['q', 'r', 'b', 'n']
    .filter((p) => s.promotion!.some((m) => m.promotion === p))
    .map(
      (p) =>
        `<button type="button" data-promote="${p}" title="${p}"><svg viewBox="0 0 100 100"><defs>${pieceDefs()}</defs><use href="#tc-piece-${colour}${p}" width="100" height="100"/></svg></button>`,
    )
    .join('');
  return `<div class="tc-promotion" role="dialog" aria-label="promote to">${buttons}<button type="button" class="cancel" data-promote-cancel="">×</button></div>`;
}
