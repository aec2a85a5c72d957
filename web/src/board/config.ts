// The board's configuration: one plain object merged over the defaults.
// The board is a pure view; the page owns the game and feeds it what the
// wasm module says (destinations, lines, step tables).

/** Directions in the board's own order: N, NE, E, SE, S, SW, W, NW. */
export const DIRS: ReadonlyArray<readonly [number, number]> = [
  [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1],
];

export function dirIndex(dx: number, dy: number): number {
  return DIRS.findIndex(([x, y]) => x === dx && y === dy);
}

/** One entry of a step table: where a step from a cell lands. */
export interface Step {
  to: number;
  /** direction after the step (index into DIRS): changes across a twist or fold */
  dir: number;
  fileWrap: boolean;
  rankWrap: boolean;
  twist: boolean;
  fold: boolean;
}

/** What the board needs to know about a variant's surface. */
export interface Topology {
  slug: string;
  width: number;
  height: number;
  files: 'open' | 'wrap';
  ranks: 'open' | 'wrap' | 'twist' | 'fold';
  /** cell index = rank index * width + file index */
  cellName(cell: number): string;
  /** the step table: null when the step leaves the board */
  step(cell: number, dir: number): Step | null;
}

export interface BoardMove {
  from: number;
  to: number;
  uci: string;
  san: string;
  promotion?: string;
}

export type Colour = 'white' | 'black';

export interface BoardConfig {
  topology: Topology;
  /** FEN of the position shown (the board reads only its placement and side to move) */
  fen: string;
  orientation: Colour;
  /** who may move pieces: a colour, both, or nobody */
  movable: Colour | 'both' | 'none';
  /** a colour whose pieces may be picked while it is not its turn: a try
   * with one goes to onIllegal, where the page keeps it as a premove */
  premove: Colour | null;
  /** legal moves from a cell (from the wasm module) */
  dests: (cell: number) => BoardMove[];
  /** lines of movement of the piece on a cell, as cell paths starting at the cell */
  lines: (cell: number) => number[][];
  /** the checking lines when in check (paths from the checker to the king) */
  checkLines: number[][];
  lastMove: [number, number] | null;
  /** the last move's path (drawn across joins), from the wasm module */
  lastPath: number[] | null;
  /** a better move's path (a review's), drawn as an arrow across joins as the board draws paths */
  bestPath: number[] | null;
  /** the checked king's cell */
  check: number | null;
  coordinates: boolean;
  /** faded ghost rows/columns beyond glued edges */
  ghosts: boolean;
  /** called with a move the user made (already chosen from dests) */
  onMove: (move: BoardMove) => void;
  /** clicks on a cell that do not make or pick a move (explorer, editor) */
  onCellClick: ((cell: number) => void) | null;
  /** cells to highlight for an outside reason (explorer reach) */
  marks: Map<number, string>;
  /** extra paths to draw (explorer) */
  paths: number[][];
  /** draw the extra paths only as routes to the cell under the pointer */
  pathsOnHover: boolean;
  /** called after each view change (roll, flip) */
  onView: (() => void) | null;
  /** the user tried a piece on a cell it cannot go to */
  onIllegal: ((from: number, to: number) => void) | null;
}

export function defaults(topology: Topology): BoardConfig {
  return {
    topology,
    fen: '',
    orientation: 'white',
    movable: 'both',
    premove: null,
    dests: () => [],
    lines: () => [],
    checkLines: [],
    lastMove: null,
    lastPath: null,
    bestPath: null,
    check: null,
    coordinates: true,
    ghosts: true,
    onMove: () => {},
    onCellClick: null,
    marks: new Map(),
    paths: [],
    pathsOnHover: false,
    onView: null,
    onIllegal: null,
  };
}

export function configure(base: BoardConfig, patch: Partial<BoardConfig>): BoardConfig {
  return { ...base, ...patch };
}
