// Dead positions decided off the page's thread (lib/deadcheck.ts): the
// page's own module marks only the small materials at once; a pawnless
// position of four pieces on a large board is decided by the worker a few
// seconds later, and the game then ends drawn there (a position reached
// from a dead one is dead too, so ending at the latest ply is right).
import { DeadCheck } from '../lib/deadcheck';
import type { GameController } from './game';
import { topochess } from './rules';
import type { VariantDetail } from './types';

export function boardOf(detail: VariantDetail): { preset: string } | { frontmatter: string } {
  return detail.frontmatter ? { frontmatter: detail.frontmatter } : { preset: detail.slug };
}

let shared: Promise<DeadCheck> | null = null;

/** The page's checker (one worker per page). */
export function deadCheck(detail: VariantDetail): Promise<DeadCheck> {
  shared ??= topochess().then((tc) => new DeadCheck(tc.module, boardOf(detail)));
  return shared;
}

/** Asks about the game's position after each move the page's module left
 * undecided; a dead one ends the game drawn with the rules' words, unless
 * the game changed meanwhile (a take-back, a new game) or ended. */
export function watchDeadPositions(ctl: GameController, detail: VariantDetail): void {
  const look = () => {
    if (!ctl.atEnd() || ctl.over()) return;
    const fen = ctl.shownFen();
    if (!DeadCheck.wanted(fen)) return;
    const ply = ctl.plies.length;
    const start = ctl.startFen;
    void deadCheck(detail)
      .then((d) => d.check(fen))
      .then((text) => {
        if (!text || ctl.over() || ctl.startFen !== start) return;
        const now = ply === 0 ? ctl.startFen : ctl.plies[ply - 1]?.fenAfter;
        if (now !== fen) return;
        ctl.verdict = { result: '1/2-1/2', text, termination: 'dead position' };
        ctl.changed();
      });
  };
  ctl.onChange(look);
  look();
}

/** The status line of a position the page shows (the analysis page): the
 * worker's words when it finds the position dead and it is still shown. */
export function sayIfDead(detail: VariantDetail, fen: string, shown: () => string, say: (text: string) => void): void {
  if (!DeadCheck.wanted(fen)) return;
  void deadCheck(detail)
    .then((d) => d.check(fen))
    .then((text) => {
      if (text && shown() === fen) say(text);
    });
}
