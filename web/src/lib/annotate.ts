// What the library judges and the page shows beside a game: the review of
// a finished game (Game.review) and the mate puzzles of a solved ending
// (Variant.puzzleSet), as TypeScript types, and the puzzle set's handle.
// docs/analysis.md and docs/puzzles.md.

import { TcModule, TopochessError } from './wasm';

/** A mate puzzle from the solved endings (docs/puzzles.md). */
export interface Puzzle {
  title: string;
  fen: string;
  side: 'white' | 'black';
  mate_in: number;
  material: string;
  /** every first move that mates as fast (SAN) */
  accepted: string[];
  /** the main line: the winner's best moves and the tables' defence */
  line: string[];
  line_uci: string[];
}

/** The checker's answer to one move of the solver. */
export interface PuzzleAnswer {
  verdict: 'best' | 'slower' | 'not winning' | 'illegal';
  move: string;
  uci: string;
  mate_before: number;
  mate_after: number;
  slower_by: number;
  /** the move itself mates: solved */
  mates: boolean;
  /** the tables' defence (SAN, coordinates), null when the game is over */
  reply: string | null;
  reply_uci: string | null;
  message: string;
}

/** A solved material of one board: its puzzles and the checker. */
export class PuzzleSet {
  private ptr: number;
  constructor(private readonly m: TcModule, ptr: number) {
    this.ptr = ptr;
  }

  private live(): number {
    if (!this.ptr) throw new TopochessError('this puzzle set was freed');
    return this.ptr;
  }

  /** Up to count puzzles, mates of minMate..maxMate moves, in the order the
   * seed fixes (the same seed, the same puzzles). */
  generate(count: number, seed: number, minMate = 3, maxMate = 15): Puzzle[] {
    const m = this.m;
    const ptr = m.x.tcw_puzzles(this.live(), count | 0, seed, minMate | 0, maxMate | 0, m.err);
    if (!ptr) throw new TopochessError(m.error());
    return m.takeJson<Puzzle[]>(ptr) ?? [];
  }

  /** Judges a move (SAN or coordinates) of the side to move in the game's
   * position, which must win by these tables; the game is left as it was. */
  check(game: { live(): number }, text: string): PuzzleAnswer {
    const m = this.m;
    const ptr = m.withStrs([text], (s) => m.x.tcw_puzzle_check(this.live(), game.live(), s.ptr, m.err));
    if (!ptr) throw new TopochessError(m.error());
    const a = m.takeJson<PuzzleAnswer>(ptr);
    if (!a) throw new TopochessError('out of wasm memory');
    return a;
  }

  free(): void {
    if (this.ptr) this.m.x.tcw_puzzle_set_free(this.ptr);
    this.ptr = 0;
  }
}

/** What the engine said of one position (the side to move's view). */
export interface ReviewValue {
  score: number;
  mate: number;
  depth: number;
  /** The best move in coordinates, or null where the game ended. */
  best: string | null;
}

export interface ReviewSide {
  accuracy: number;
  moves: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** One move judged: scores for White (centipawns; mate: moves to mate, > 0
 * White mates), chances for the mover (-1..1). */
export interface ReviewMove {
  ply: number;
  san: string;
  uci: string;
  score: number;
  mate: number;
  best: string;
  best_score: number;
  best_mate: number;
  chances_before: number;
  chances_after: number;
  accuracy: number;
  mark: '' | 'inaccuracy' | 'mistake' | 'blunder';
  depth: number;
}

export interface Review {
  sides: { white: ReviewSide; black: ReviewSide };
  moves: ReviewMove[];
}

