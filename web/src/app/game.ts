// A game the page owns: the rules game, its moves and the position after
// each, which ply is shown, and a result set by resignation or agreement.
import type { GameRules, PlayedMove, Rules, Status } from './types';

export interface Ply {
  move: PlayedMove;
  fenAfter: string;
}

export class GameController {
  readonly rules: Rules;
  private g: GameRules;
  startFen: string;
  plies: Ply[] = [];
  /** the ply shown: 0 = start position, plies.length = the current position */
  cursor = 0;
  /** a result outside the page's rules module: resignation, draw by
   * agreement, a dead position decided by the worker (deadwatch.ts; its
   * PGN termination then) */
  verdict: { result: string; text: string; termination?: string } | null = null;
  private listeners: (() => void)[] = [];

  constructor(rules: Rules, fen?: string) {
    this.rules = rules;
    this.g = rules.game(fen);
    this.startFen = this.g.fen();
  }

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  changed(): void {
    for (const fn of this.listeners) fn();
  }

  get game(): GameRules {
    return this.g;
  }

  atEnd(): boolean {
    return this.cursor === this.plies.length;
  }

  /** The FEN of the ply shown. */
  shownFen(): string {
    return this.cursor === 0 ? this.startFen : this.plies[this.cursor - 1].fenAfter;
  }

  status(): Status {
    return this.g.status();
  }

  over(): boolean {
    return this.verdict !== null || this.g.status().status !== 'ongoing';
  }

  result(): string {
    return this.verdict?.result ?? this.g.status().result;
  }

  /** Play a move at the current position (moving the cursor to the end
   * first); when the cursor is back in the game, the rest is cut off
   * (analysis plays out a new line from there). */
  play(text: string): PlayedMove {
    if (!this.atEnd()) this.truncate(this.cursor);
    const move = this.g.play(text);
    this.plies.push({ move, fenAfter: this.g.fen() });
    this.cursor = this.plies.length;
    this.changed();
    return move;
  }

  truncate(ply: number): void {
    while (this.plies.length > ply) {
      this.g.undo();
      this.plies.pop();
    }
    this.cursor = Math.min(this.cursor, this.plies.length);
  }

  undo(n = 1): void {
    this.truncate(Math.max(0, this.plies.length - n));
    this.verdict = null;
    this.cursor = this.plies.length;
    this.changed();
  }

  goto(ply: number): void {
    this.cursor = Math.max(0, Math.min(this.plies.length, ply));
    this.changed();
  }

  /** A new game (from fen): throws, leaving this game as it was, on a bad FEN. */
  reset(fen?: string): void {
    const fresh = this.rules.game(fen);
    this.g.free();
    this.g = fresh;
    this.startFen = this.g.fen();
    this.plies = [];
    this.cursor = 0;
    this.verdict = null;
    this.changed();
  }

  loadPgn(text: string): void {
    const fresh = this.rules.game();
    let read: { startFen: string; moves: PlayedMove[] };
    try {
      read = fresh.loadPgn(text);
    } catch (e) {
      fresh.free();
      throw e;
    }
    const { startFen, moves } = read;
    // Replay so that every ply's FEN is known.
    fresh.setFen(startFen);
    const plies: Ply[] = [];
    for (const m of moves) {
      const played = fresh.play(m.uci);
      plies.push({ move: played, fenAfter: fresh.fen() });
    }
    this.g.free();
    this.g = fresh;
    this.startFen = startFen;
    this.plies = plies;
    this.cursor = plies.length;
    this.verdict = null;
    this.changed();
  }

  pgn(tags: Record<string, string>): string {
    return this.g.pgn(tags, this.result());
  }

  lastMove(): [number, number] | null {
    if (this.cursor === 0) return null;
    const m = this.plies[this.cursor - 1].move;
    return [m.from, m.to];
  }

  uciMoves(): string[] {
    return this.plies.map((p) => p.move.uci);
  }
}
