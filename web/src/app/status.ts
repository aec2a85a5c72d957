// The status line of a game page: the result when the game is over, else
// whose move it is and whether that side is in check (the rules module
// says so; the page only words it).
import type { GameController } from './game';
import type { Status } from './types';

export function statusText(st: Status, verdict: { text: string } | null = null): string {
  if (verdict) return verdict.text;
  if (st.status !== 'ongoing') return st.text;
  return `${st.turn === 'w' ? 'White' : 'Black'} to move${st.check ? ', in check' : ''}`;
}

/** The line for the position shown (an earlier ply when the cursor is back). */
export function statusLine(ctl: GameController): string {
  if (ctl.atEnd()) return statusText(ctl.status(), ctl.verdict);
  const g = ctl.rules.game(ctl.shownFen());
  try {
    return statusText(g.status());
  } finally {
    g.free();
  }
}
