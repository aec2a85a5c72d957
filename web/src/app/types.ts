// What the pages need from the rules (the wasm module, web/src/lib/) and
// from the server (the #tc-data JSON, docs/web-architecture.md).
import type { BoardMove, Topology } from '../board/config';
import type { EndingFact } from '../lib/topochess';

export type { EndingFact };

export interface VariantSummary {
  slug: string;
  title: string;
  rows: number;
  cols: number;
  files: 'open' | 'wrap';
  ranks: 'open' | 'wrap' | 'twist' | 'fold';
  seam: number | null;
  start_fen: string;
}

export interface Report {
  orientable: boolean;
  euler: number;
  surface: string;
  colour_bound: boolean;
  file_classes: string[][];
}

export interface VariantDetail extends VariantSummary {
  frontmatter: string;
  report: Report;
}

export interface Status {
  /** ongoing | checkmate | stalemate | fifty-move | repetition | dead-position */
  status: string;
  text: string;
  result: string;
  check: boolean;
  turn: 'w' | 'b';
  king: number | null;
  checkLines: number[][];
}

export interface PlayedMove extends BoardMove {
  check: boolean;
  capture: boolean;
}

/** One game in the rules module. */
export interface GameRules {
  fen(): string;
  /** throws an Error naming the problem */
  setFen(fen: string): void;
  moves(): PlayedMove[];
  /** SAN or coordinates; throws on an illegal move */
  play(text: string): PlayedMove;
  undo(): boolean;
  status(): Status;
  lines(cell: number): number[][];
  /** the cells a legal move passes (coordinates), for drawing it */
  movePath(uci: string): number[];
  /** the solved ending of a 3-piece pawnless position, else null */
  ending(): EndingFact | null;
  /** the library's reason why a move from one cell to another is not legal */
  explain(from: number, to: number): string;
  pgn(tags: Record<string, string>, result: string): string;
  /** replaces the game with the PGN's; throws with the reason */
  loadPgn(text: string): { startFen: string; moves: PlayedMove[] };
  free(): void;
}

export interface Rules {
  detail: VariantDetail;
  topology: Topology;
  startFen: string;
  game(fen?: string): GameRules;
  /** lines of movement of a piece (FEN letter) from a cell on an empty board */
  reach(cell: number, letter: string): number[][];
  cellIndex(name: string): number;
}

export interface EngineInfo {
  /** which line (1: the best) */
  multipv: number;
  depth: number;
  /** centipawns from the side to move, or mate in N (positive: side to move mates) */
  score: { cp?: number; mate?: number };
  pv: string[];
  /** the same line in coordinate form */
  pvUci: string[];
  nodes: number;
  nps: number;
}

export interface EngineLimits {
  depth?: number;
  movetime?: number;
  level?: number;
  multipv?: number;
}

export interface Engine {
  /** search the position reached by these moves; resolves with the best move (coordinates) or null */
  search(fen: string, moves: string[], limits: EngineLimits, onInfo: (info: EngineInfo) => void): Promise<string | null>;
  /** search it to about `nodes` nodes; the value for the side to move and the best move (null: none) */
  value(fen: string, moves: string[], nodes: number): Promise<{ score: number; mate: number; depth: number; best: string | null }>;
  stop(): void;
  terminate(): void;
}
