// The board's state: its configuration, what the FEN places where, and
// what the user is doing (picked cell, drag, hover, roll, promotion).
import { defaults, type BoardConfig, type BoardMove, type Colour, type Topology } from './config';
import { buildPicture, normaliseRoll, type Picture, type Roll } from './picture';

export interface Drag {
  cell: number;
  pointerId: number;
  startX: number;
  startY: number;
  x: number;
  y: number;
  moved: boolean;
  /** the cell was already picked before this press (a second click drops it) */
  wasPicked: boolean;
}

export interface RollDrag {
  pointerId: number;
  startX: number;
  startY: number;
  roll: Roll;
}

export interface BoardState {
  config: BoardConfig;
  /** piece letter per cell ('' = empty) */
  placement: string[];
  turn: Colour;
  picked: number | null;
  hover: number | null;
  drag: Drag | null;
  rollDrag: RollDrag | null;
  roll: Roll;
  picture: Picture;
  /** moves waiting for a promotion choice */
  promotion: BoardMove[] | null;
}

/** The placement and side to move of a FEN (the board field may use
 * two-digit runs on wide boards). Bad fields give an empty board. */
export function readFen(t: Topology, fen: string): { placement: string[]; turn: Colour } {
  const placement: string[] = new Array(t.width * t.height).fill('');
  const [board = '', side = 'w'] = fen.trim().split(/\s+/);
  const ranks = board.split('/');
  ranks.forEach((text, i) => {
    const y = t.height - 1 - i;
    if (y < 0) return;
    let x = 0;
    let run = '';
    for (const ch of text) {
      if (ch >= '0' && ch <= '9') {
        run += ch;
        continue;
      }
      if (run) {
        x += Number(run);
        run = '';
      }
      if (x < t.width && /[pnbrqkPNBRQK]/.test(ch)) placement[y * t.width + x] = ch;
      x++;
    }
  });
  return { placement, turn: side === 'b' ? 'black' : 'white' };
}

export function pieceColour(letter: string): Colour | null {
  if (!letter) return null;
  return letter === letter.toUpperCase() ? 'white' : 'black';
}

export function initialState(config: BoardConfig): BoardState {
  const { placement, turn } = readFen(config.topology, config.fen);
  const roll = { x: 0, y: 0 };
  return {
    config,
    placement,
    turn,
    picked: null,
    hover: null,
    drag: null,
    rollDrag: null,
    roll,
    picture: buildPicture(config.topology, roll),
    promotion: null,
  };
}

export function emptyConfig(t: Topology): BoardConfig {
  return defaults(t);
}

export function setRoll(s: BoardState, roll: Roll): void {
  s.roll = normaliseRoll(s.config.topology, roll);
  s.picture = buildPicture(s.config.topology, s.roll);
}

/** May the user pick up the piece on this cell? */
export function canPick(s: BoardState, cell: number): boolean {
  const colour = pieceColour(s.placement[cell]);
  if (!colour) return false;
  if (colour !== s.turn) return s.config.premove === colour;
  const m = s.config.movable;
  return m === 'both' || m === colour;
}

/** After a change of configuration whose FEN was `before`: a new position
 * replaces the pieces and drops what the user held; the same position
 * again (a live page's stream reconnecting, a state that only moved the
 * clocks) keeps the picked piece, unless it may no longer move. */
export function settle(s: BoardState, before: string): void {
  if (s.config.fen !== before) {
    const { placement, turn } = readFen(s.config.topology, s.config.fen);
    s.placement = placement;
    s.turn = turn;
  } else if (s.picked === null || canPick(s, s.picked)) {
    return;
  }
  s.picked = null;
  s.promotion = null;
  s.drag = null;
}
